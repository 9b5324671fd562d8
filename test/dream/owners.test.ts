/**
 * One owner per join (issue 33): a scope named by one key (`agent_id=main`) holds several owners'
 * memories — alice's, bob's and the agent's own. A dream of it merges, sets in conflict and reviews
 * only memories of one full stored scope; a plan that joins two owners is refused by `parsePlan`
 * (its seen records) or by apply (the store), whole, and nothing changes. Through the SDK.
 */

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Scope, scopeKey, scopeOfRow } from "../../src/core/scope.js";
import { acceptReview } from "../../src/dream/accept-review.js";
import type { Analyser } from "../../src/dream/analyser.js";
import { REMINDER_SOURCE } from "../../src/dream/apply/reminder.js";
import { buildSnapshot } from "../../src/dream/build-snapshot.js";
import { parsePlan } from "../../src/dream/parse-plan.js";
import type { DreamAction, DreamPlan, ReviewItem } from "../../src/dream/plan.js";
import { planDream } from "../../src/dream/plan-dream.js";
import { type ExportRecord, isLucidError, type Memory, openMemory } from "../../src/index.js";
import { resolvePolicy } from "../../src/policy/resolve-policy.js";
import { tempFiles } from "../helpers/temp-dir.js";
import { wordEmbedder } from "../helpers/word-embedder.js";
import { row } from "./make-snapshot.js";

const files = tempFiles("dream-owners");
const ALICE = { userId: "alice", agentId: "main" };
const BOB = { userId: "bob", agentId: "main" };
const AGENT = { agentId: "main" };
const AGENT_SCOPE: Scope = { agent_id: "main" };

let memory: Memory;
/** Seeded memories by name. */
let ids: Record<string, string>;

/** Texts that a dream of one owner would join; `main` holds them under three owners. */
const SEED: readonly [string, typeof ALICE | typeof AGENT, string][] = [
  ["darkAlice", ALICE, "User prefers dark mode in the editor"],
  ["darkBob", BOB, "User prefers dark mode in the editor"],
  ["darkAgent", AGENT, "User prefers dark mode in the editor"],
  ["portoAlice", ALICE, "The user lives in Porto"],
  ["lisbonBob", BOB, "The user now lives in Lisbon"],
  ["flyAlice", ALICE, "billing-api deploys to Fly.io"],
  ["awsBob", BOB, "billing-api deploys to AWS"],
  ["slackAlice", ALICE, "The team uses Slack for chat"],
  ["teamsBob", BOB, "The team moved its chat to Microsoft Teams"],
  // One owner's duplicates: these must still merge.
  ["dentistLong", ALICE, "Alice's dentist is Dr. Silva in Porto"],
  ["dentistShort", ALICE, "Alice's dentist is Dr. Silva"],
];

beforeEach(async () => {
  memory = await openMemory({
    path: files.path(),
    embedder: wordEmbedder(),
    clock: { now: () => new Date("2026-06-01T00:00:00Z") },
  });
  ids = {};
  for (const [index, [name, scope, text]] of SEED.entries()) {
    const createdAt = new Date(Date.UTC(2026, 0, 1 + index)).toISOString();
    const { results } = await memory.add(text, { ...scope, createdAt });
    ids[name] = results[0]?.id as string;
  }
});
afterEach(async () => {
  await memory.close();
});

async function exportAll(): Promise<string> {
  const lines: ExportRecord[] = [];
  for await (const record of memory.exportMemories()) lines.push(record);
  return lines.map((line) => JSON.stringify(line)).join("\n");
}

/** Every join a plan proposes (merges, conflicts, review proposals) with two or more members. */
function joins(plan: DreamPlan): DreamAction[] {
  return [...plan.actions, ...plan.review.map((item) => item.proposal)].filter(
    (action) => action.ids.length > 1,
  );
}

/** A memory's full owner, as a key (every scope key it has; none other). */
const ownerKey = (item: Parameters<typeof scopeOfRow>[0]) => scopeKey(scopeOfRow(item));

async function ownerOf(id: string): Promise<string> {
  const item = await memory.get(id);
  if (item === null) throw new Error(`memory ${id} is gone`);
  return ownerKey(item);
}

const why = { rule: "test", detail: "hand-made plan" };

/** A plan over the `main` scope naming `actions` (and `review`), seeing each memory as it is now. */
async function handMade(
  actions: readonly DreamAction[],
  options: {
    review?: readonly ReviewItem[];
    /** `seen[id].scope` per id: `true` for the stored one, a scope to lie, absent for none. */
    scopes?: Readonly<Record<string, Scope | true>>;
  } = {},
): Promise<Record<string, unknown>> {
  const seen: Record<string, Record<string, unknown>> = {};
  for (const action of [...actions, ...(options.review ?? []).map((item) => item.proposal)]) {
    for (const id of action.ids) {
      const item = await memory.get(id);
      if (item === null) continue;
      const scope = options.scopes?.[id];
      seen[id] = {
        hash: item.hash,
        updatedAt: item.updatedAt,
        ...(scope === undefined ? {} : { scope: scope === true ? scopeOfRow(item) : scope }),
      };
    }
  }
  return {
    version: 1,
    scope: { agent_id: "main" },
    now: "2026-06-01T00:00:00.000Z",
    policy: {},
    reviewed: SEED.length,
    actions,
    review: options.review ?? [],
    seen,
    stats: {
      reviewed: SEED.length,
      deletes: { credential: 0, noise: 0, expired: 0, low_confidence: 0 },
      merges: 0,
      merged: 0,
      conflicts: 0,
      rewrites: 0,
      pinnedSkipped: 0,
      elapsedMs: 0,
    },
  };
}

function merge(keep: string, other: string, text = "User prefers dark mode in the editor."): DreamAction {
  return { kind: "merge", ids: [keep, other], keep, text, why };
}

/** What `fn` threw, to assert its code. */
async function thrown(fn: () => unknown): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("a dream of a scope that holds several owners", () => {
  it("never joins two owners' memories, and still merges one owner's duplicates", async () => {
    const plan = await memory.dream.plan(AGENT);
    for (const action of joins(plan)) {
      const owners = new Set(await Promise.all(action.ids.map(ownerOf)));
      expect(owners.size, `${action.kind} ${action.ids.join(", ")}`).toBe(1);
    }
    expect(
      plan.actions.filter((action) => action.kind === "merge").map((action) => [...action.ids].sort()),
    ).toEqual([[ids.dentistLong, ids.dentistShort].sort()]);
    // Each member's owner is recorded, as stored.
    for (const [id, seen] of Object.entries(plan.seen)) {
      expect(seen.scope).toEqual(scopeOfRow((await memory.get(id)) ?? {}));
    }

    const result = await memory.dream.apply(plan);
    expect(result.counts.merged).toBe(1);
    for (const name of [
      "darkAlice",
      "darkBob",
      "darkAgent",
      "portoAlice",
      "lisbonBob",
      "flyAlice",
      "awsBob",
    ]) {
      const item = await memory.get(ids[name] as string);
      expect(item?.memory, name).toBe(SEED.find(([seeded]) => seeded === name)?.[2]);
    }
    expect(await memory.get(ids.dentistShort as string)).toBeNull();
  });

  it("finds one owner's conflict even when another owner's claim is the newest", async () => {
    // Unwalled, bob's newest claim would win the claim index and be set against both of alice's.
    const add = async (text: string, scope: typeof ALICE, createdAt: string) =>
      (await memory.add(text, { ...scope, createdAt })).results[0]?.id as string;
    const fly = await add("ledger-service deploys to Fly.io", ALICE, "2026-03-01T00:00:00Z");
    const render = await add("ledger-service deploys to Render", ALICE, "2026-03-02T00:00:00Z");
    await add("ledger-service deploys to AWS", BOB, "2026-03-03T00:00:00Z");
    const plan = await memory.dream.plan(AGENT);
    const ledger = plan.actions.filter(
      (action) => action.kind === "conflict" && action.topic.includes("ledger-service"),
    );
    expect(ledger.map((action) => [...action.ids].sort())).toEqual([[fly, render].sort()]);
  });

  it("treats a run's memories as another owner than their user's", async () => {
    await memory.add("User drinks oat milk in coffee", { userId: "carol" });
    await memory.add("User drinks oat milk in coffee", { userId: "carol", runId: "r1" });
    const plan = await memory.dream.plan({ userId: "carol" });
    expect(joins(plan)).toEqual([]);
  });

  it("drops an analyser's proposal that joins two owners (the planner's guard, whatever pairs it)", async () => {
    const snapshot = buildSnapshot({
      scope: { agent_id: "main" },
      now: "2026-06-01T00:00:00.000Z",
      rows: [
        { ...row({ id: "a", text: "User prefers dark mode" }), user_id: "alice", agent_id: "main" },
        { ...row({ id: "b", text: "User prefers dark mode" }), user_id: "bob", agent_id: "main" },
      ],
      vectors: new Map(),
    });
    const crossing: Analyser = () => [
      merge("a", "b", "User prefers dark mode"),
      { kind: "conflict", ids: ["a", "b"], topic: "mode", suggested: "a", why },
    ];
    const plan = planDream(snapshot, await resolvePolicy(), { analysers: [crossing] });
    expect(plan.actions).toEqual([]);
  });

  it("keeps each memory's neighbours inside its owner, with the exact and the approximate index", () => {
    // Two owners with the same 60 vectors: every memory's best neighbour would be the other's twin.
    const rows = ["alice", "bob"].flatMap((user) =>
      Array.from({ length: 60 }, (_, i) => ({
        ...row({ id: `${user}-${i}`, text: `fact ${i}` }),
        user_id: user,
        agent_id: "main",
      })),
    );
    const vectors = new Map(
      rows.map((each, i) => [each.id, new Float32Array([Math.cos(i % 60), Math.sin(i % 60), i % 7])]),
    );
    for (const exactLimit of [1000, 8]) {
      const snapshot = buildSnapshot({
        scope: AGENT_SCOPE,
        now: "2026-06-01T00:00:00.000Z",
        rows,
        vectors,
        exactLimit,
      });
      for (const memoryRow of rows) {
        const found = snapshot.neighbours(memoryRow.id, 10);
        expect(found.length).toBeGreaterThan(0);
        for (const hit of found) expect(snapshot.byId(hit.id)?.user_id).toBe(memoryRow.user_id);
      }
      // More than one owner has: other memories of alice's only (the exact index: all 59 of them).
      const many = snapshot.neighbours("alice-0", 100).map((hit) => hit.id.split("-")[0]);
      expect(new Set(many)).toEqual(new Set(["alice"]));
      if (exactLimit > rows.length) expect(many).toHaveLength(59);
    }
  });

  it("leaves the reminder of a narrower owner alone: the scope's own reminder is its own", async () => {
    await memory.add("billing-api deploys to Render", { ...ALICE, createdAt: "2026-02-01T00:00:00Z" });
    await memory.dream.auto(ALICE);
    const reminderOf = async (scope: Scope) =>
      (await memory.getAll({ ...AGENT, filters: { source: REMINDER_SOURCE } })).results.filter(
        (item) => ownerKey(item) === scopeKey(scope),
      );
    const [alicesReminder] = await reminderOf({ user_id: "alice", agent_id: "main" });
    expect(alicesReminder?.metadata).toMatchObject({ conflicts: 1 });

    // The agent's own conflict: a dream of `main` leaves unresolved conflicts of its own.
    await memory.add("billing-api deploys to Fly.io", { ...AGENT, createdAt: "2026-03-01T00:00:00Z" });
    await memory.add("billing-api deploys to AWS", { ...AGENT, createdAt: "2026-03-02T00:00:00Z" });
    await memory.dream.auto(AGENT);
    expect(await memory.get(alicesReminder?.id as string)).toEqual(alicesReminder);
    expect(await reminderOf(AGENT_SCOPE)).toHaveLength(1);
  });
});

describe("a plan that joins two owners", () => {
  it("is refused by parsePlan when its seen records two owners, naming the action and the ids", async () => {
    const before = await exportAll();
    const forged = await handMade([merge(ids.darkAlice as string, ids.darkBob as string)], {
      scopes: { [ids.darkAlice as string]: true, [ids.darkBob as string]: true },
    });
    const error = await thrown(() => parsePlan(forged));
    expect(isLucidError(error, "INVALID_PLAN")).toBe(true);
    expect((error as { details: unknown }).details).toMatchObject({
      action: 0,
      kind: "merge",
      ids: [ids.darkAlice, ids.darkBob],
    });
    expect(isLucidError(await thrown(() => memory.dream.apply(forged as never)), "INVALID_PLAN")).toBe(true);
    expect(await exportAll()).toBe(before);
  });

  it("is refused by parsePlan when a seen owner lies outside the plan's scope", async () => {
    const forged = await handMade([merge(ids.darkAlice as string, ids.darkBob as string)], {
      scopes: {
        [ids.darkAlice as string]: { user_id: "alice" },
        [ids.darkBob as string]: { user_id: "alice" },
      },
    });
    expect(isLucidError(await thrown(() => parsePlan(forged)), "INVALID_PLAN")).toBe(true);
  });

  it("is refused whole by apply when its seen lies about an owner, and nothing changes", async () => {
    const before = await exportAll();
    const alice = { user_id: "alice", agent_id: "main" };
    const forged = await handMade(
      [
        { kind: "delete", ids: [ids.slackAlice as string], reason: "noise", why },
        merge(ids.darkAlice as string, ids.darkBob as string),
      ],
      {
        scopes: {
          [ids.slackAlice as string]: true,
          [ids.darkAlice as string]: alice,
          [ids.darkBob as string]: alice,
        },
      },
    );
    const plan = parsePlan(forged);
    const error = await thrown(() => memory.dream.apply(plan));
    expect(isLucidError(error, "INVALID_PLAN")).toBe(true);
    expect((error as { details: unknown }).details).toMatchObject({ action: 1, ids: [ids.darkBob] });
    expect(await exportAll()).toBe(before);
  });

  it("without seen owners (an old hand-made plan) is checked against the store: one owner applies, two refuse", async () => {
    const before = await exportAll();
    for (const action of [
      merge(ids.darkAlice as string, ids.darkBob as string),
      merge(ids.darkAgent as string, ids.darkAlice as string),
    ]) {
      const plan = parsePlan(await handMade([action]));
      const error = await thrown(() => memory.dream.apply(plan));
      expect(isLucidError(error, "INVALID_PLAN"), JSON.stringify(action.ids)).toBe(true);
      expect(await exportAll()).toBe(before);
    }
    const conflict: DreamAction = {
      kind: "conflict",
      ids: [ids.portoAlice as string, ids.lisbonBob as string],
      topic: "home",
      suggested: ids.lisbonBob as string,
      why,
    };
    const conflictPlan = parsePlan(await handMade([conflict]));
    const choice = { [`${ids.portoAlice}:${ids.lisbonBob}`]: "B" as const };
    const refused = await thrown(() => memory.dream.apply(conflictPlan, { conflicts: choice }));
    expect(isLucidError(refused, "INVALID_PLAN")).toBe(true);
    expect(await exportAll()).toBe(before);

    const same = parsePlan(
      await handMade([
        merge(ids.dentistLong as string, ids.dentistShort as string, "Alice's dentist is Dr. Silva in Porto"),
      ]),
    );
    expect((await memory.dream.apply(same)).counts.merged).toBe(1);
  });

  it("as a review item is refused by parsePlan, and accepted without seen owners is refused by apply", async () => {
    const before = await exportAll();
    const item: ReviewItem = {
      kind: "possible-duplicate",
      proposal: merge(ids.darkAlice as string, ids.darkBob as string) as ReviewItem["proposal"],
      why,
    };
    const recorded = await handMade([], {
      review: [item],
      scopes: { [ids.darkAlice as string]: true, [ids.darkBob as string]: true },
    });
    const error = await thrown(() => parsePlan(recorded));
    expect(isLucidError(error, "INVALID_PLAN")).toBe(true);
    expect((error as { details: unknown }).details).toMatchObject({
      review: 0,
      ids: [ids.darkAlice, ids.darkBob],
    });

    const accepted = acceptReview(parsePlan(await handMade([], { review: [item] })), [0]);
    expect(accepted.actions).toHaveLength(1);
    expect(isLucidError(await thrown(() => memory.dream.apply(accepted)), "INVALID_PLAN")).toBe(true);
    expect(await exportAll()).toBe(before);
  });
});
