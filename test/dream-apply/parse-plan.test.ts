/**
 * Plans are parsed, not trusted: what `memory.dream.apply` does with a plan that came back from a
 * file or a request — a secret in a rewrite, an over-long text, an unknown kind, ids it did not see
 * or that belong to another scope.
 */

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parsePlan } from "../../src/dream/parse-plan.js";
import type { DreamAction, DreamPlan } from "../../src/dream/plan.js";
import { type Memory, openMemory, renderPlanJson } from "../../src/index.js";
import { createFakeSecrets } from "../fixtures/secrets/fake-secrets.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";
import { everythingStored } from "../helpers/stored-text.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("parse-plan");
const embedder = scriptedEmbedder(3, (text) => [1, text.length % 7, text.includes("e") ? 1 : 0]);
const token = createFakeSecrets(11)["github-pat"]?.() ?? "";
const why = { rule: "test", detail: "a plan from outside" };

let memory: Memory;
let path: string;
const ids: Record<string, string> = {};

async function add(key: string, text: string, userId = "alice"): Promise<void> {
  const { results } = await memory.add(text, { userId });
  ids[key] = results[0]?.id ?? "";
}

/** A plan that saw every memory it names as it is now: what could come back from a file. */
async function planOf(
  actions: unknown[],
  scope: Record<string, string> = { user_id: "alice" },
): Promise<unknown> {
  const seen: Record<string, { hash: string; updatedAt: string }> = {};
  for (const action of actions as { ids?: unknown }[]) {
    for (const id of Array.isArray(action.ids) ? action.ids : []) {
      const item = typeof id === "string" ? await memory.get(id) : null;
      if (item !== null) seen[item.id] = { hash: item.hash, updatedAt: item.updatedAt };
    }
  }
  return {
    version: 1,
    scope,
    now: "2026-11-30T00:00:00.000Z",
    policy: {},
    reviewed: 3,
    actions,
    seen,
    stats: { ...emptyStats(), reviewed: 3 },
  };
}

async function snapshot(): Promise<string> {
  const records = [];
  for await (const record of memory.exportMemories()) records.push(record);
  return JSON.stringify(records);
}

const apply = (plan: unknown) => memory.dream.apply(plan as DreamPlan);

beforeEach(async () => {
  path = files.path();
  memory = await openMemory({ path, embedder });
  await add("first", "I prefer tabs");
  await add("second", "User likes green tea");
  await add("bob", "Bob keeps his notes in Obsidian", "bob");
});
afterEach(async () => {
  await memory.close();
});

describe("applying a plan from outside", () => {
  it("redacts a credential in a rewrite's text, as update would", async () => {
    const rewrite = {
      kind: "rewrite",
      ids: [ids.first],
      text: `User deploys with ${token}`,
      reasons: ["first_person"],
      why,
    };
    const result = await apply(await planOf([rewrite]));
    expect(result.actions.map((action) => action.status)).toEqual(["applied"]);
    expect((await memory.get(ids.first ?? ""))?.memory).toBe("User deploys with [REDACTED:github-pat]");
    expect(everythingStored(path)).not.toContain(token);
  });

  it("refuses a rewrite whose text is over the text limit (a token and 40 KB of filler), applying nothing", async () => {
    const before = await snapshot();
    const rewrite = {
      kind: "rewrite",
      ids: [ids.first],
      text: `User deploys with ${token} ${"filler ".repeat(6000)}`,
      reasons: ["first_person"],
      why,
    };
    await expect(apply(await planOf([rewrite]))).rejects.toMatchObject({
      code: "INVALID_PLAN",
      details: { action: 0, kind: "rewrite", code: "TEXT_TOO_LONG" },
    });
    expect(await snapshot()).toBe(before);
    expect(everythingStored(path)).not.toContain(token);
    expect(await memory.dream.runs({ userId: "alice" })).toEqual([]);
  });

  it("never applies a review item, and refuses one that is malformed or names a memory twice", async () => {
    const before = await snapshot();
    const merge = {
      kind: "merge",
      ids: [ids.first, ids.second],
      keep: ids.first,
      text: "User prefers tabs",
      why,
    };
    const base = (await planOf([merge])) as Record<string, unknown>;
    const reviewOnly = {
      ...base,
      actions: [],
      review: [{ kind: "possible-duplicate", proposal: merge, why }],
    };
    const result = await apply(reviewOnly);
    expect(result.runId).toBeNull();
    expect(await snapshot()).toBe(before);
    await expect(
      apply({ ...base, review: [{ kind: "possible-duplicate", proposal: merge, why }] }),
    ).rejects.toMatchObject({ code: "INVALID_PLAN" });
    await expect(
      apply({ ...base, actions: [], review: [{ kind: "possible-conflict", proposal: merge, why }] }),
    ).rejects.toMatchObject({ code: "INVALID_PLAN", message: expect.stringContaining("must be a conflict") });
    await expect(
      apply({ ...base, actions: [], review: [{ kind: "maybe", proposal: merge, why }] }),
    ).rejects.toMatchObject({ code: "INVALID_PLAN" });
    await expect(
      apply({
        ...base,
        actions: [],
        seen: {},
        review: [{ kind: "possible-duplicate", proposal: merge, why }],
      }),
    ).rejects.toMatchObject({ code: "INVALID_PLAN" });
    expect(await snapshot()).toBe(before);
  });

  it("refuses an action of an unknown kind, naming it, instead of dropping it", async () => {
    const before = await snapshot();
    const plan = await planOf([
      { kind: "delete", ids: [ids.second], reason: "noise", why },
      { kind: "obliterate", ids: [ids.first], why },
    ]);
    const error = await apply(plan).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "INVALID_PLAN", details: { action: 1 } });
    expect(String((error as Error).message)).toContain('"obliterate"');
    expect(await snapshot()).toBe(before);
  });

  it("refuses an action on a memory of another scope, applying nothing", async () => {
    const before = await snapshot();
    const plan = await planOf([
      { kind: "delete", ids: [ids.second], reason: "noise", why },
      { kind: "delete", ids: [ids.bob], reason: "noise", why },
    ]);
    await expect(apply(plan)).rejects.toMatchObject({ code: "INVALID_PLAN", details: { action: 1 } });
    expect(await snapshot()).toBe(before);
  });

  it("refuses an action naming a memory the plan did not see", async () => {
    const plan = (await planOf([])) as { actions: unknown[] };
    plan.actions.push({ kind: "delete", ids: [ids.second], reason: "noise", why });
    await expect(apply(plan)).rejects.toMatchObject({ code: "INVALID_PLAN", details: { action: 0 } });
    expect(await memory.get(ids.second ?? "")).not.toBeNull();
  });

  it.each<[string, unknown]>([
    ["a delete with two ids", { kind: "delete", ids: ["a", "b"], reason: "noise", why }],
    ["a delete for no known reason", { kind: "delete", ids: ["a"], reason: "boredom", why }],
    ["a merge that keeps an outsider", { kind: "merge", ids: ["a", "b"], keep: "c", text: "x", why }],
    ["a merge with an empty text", { kind: "merge", ids: ["a", "b"], keep: "a", text: "  ", why }],
    [
      "a conflict suggesting an outsider",
      { kind: "conflict", ids: ["a", "b"], topic: "t", suggested: "c", why },
    ],
    ["a rewrite without reasons", { kind: "rewrite", ids: ["a"], text: "x", reasons: [], why }],
    ["a rewrite for an unknown reason", { kind: "rewrite", ids: ["a"], text: "x", reasons: ["style"], why }],
    ["an id with a space", { kind: "delete", ids: ["a b"], reason: "noise", why }],
    ["an action without why", { kind: "delete", ids: ["a"], reason: "noise" }],
    ["a memory named twice", { kind: "merge", ids: ["a", "a"], keep: "a", text: "x", why }],
  ])("refuses %s", (_, action) => {
    const seen = { a: { hash: "h", updatedAt: "t" }, b: { hash: "h", updatedAt: "t" } };
    const plan = {
      version: 1,
      scope: { user_id: "alice" },
      now: "2026-11-30T00:00:00Z",
      reviewed: 1,
      actions: [action],
      seen,
    };
    expect(() => parsePlan({ ...plan, stats: emptyStats() })).toThrow(
      expect.objectContaining({ code: "INVALID_PLAN", details: expect.objectContaining({ action: 0 }) }),
    );
  });

  it("refuses a plan without a scope, or for two actions on one memory", async () => {
    const del = (id: string | undefined): DreamAction => ({
      kind: "delete",
      ids: [id ?? ""],
      reason: "noise",
      why,
    });
    const unscoped = { ...((await planOf([del(ids.second)])) as object), scope: {} };
    expect(() => parsePlan(unscoped)).toThrow(expect.objectContaining({ code: "INVALID_PLAN" }));
    const twice = await planOf([del(ids.second), del(ids.second)]);
    expect(() => parsePlan(twice)).toThrow(
      expect.objectContaining({ code: "INVALID_PLAN", details: { action: 1, kind: "delete" } }),
    );
  });

  it("applies a plan read back from its JSON, and freezes what it parsed", async () => {
    await add("noise", "ok thanks");
    const plan = await memory.dream.plan({ userId: "alice" });
    const fromFile: unknown = JSON.parse(renderPlanJson(plan));
    const parsed = parsePlan(fromFile);
    expect(Object.isFrozen(parsed.actions[0])).toBe(true);
    // Changing the input afterwards changes nothing that was parsed.
    (fromFile as { actions: DreamAction[] }).actions.length = 0;
    expect(parsed.actions.length).toBeGreaterThan(0);
    const result = await memory.dream.apply(parsed);
    expect(result.counts.pruned).toBeGreaterThan(0);
    expect(await memory.get(ids.noise ?? "")).toBeNull();
  });
});

function emptyStats() {
  return {
    reviewed: 1,
    deletes: { credential: 0, noise: 0, expired: 0, low_confidence: 0 },
    merges: 0,
    merged: 0,
    conflicts: 0,
    rewrites: 0,
    pinnedSkipped: 0,
    elapsedMs: 0,
  };
}
