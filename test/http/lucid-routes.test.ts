/**
 * Lucid's own routes on a keyless loopback server: a dream planned (masked, with the texts of every
 * memory it names), applied by id with a person's decisions, listed, shown and undone; what apply
 * refuses; the gate; a credential scan; export and import in NDJSON; what the server is; and sleep,
 * without a workspace and on a copy of the workspace fixture.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConflictAction, DreamPlan } from "../../src/dream/plan.js";
import { openMemory } from "../../src/index.js";
import { createFakeSecrets } from "../fixtures/secrets/fake-secrets.js";
import { wordEmbedder } from "../helpers/word-embedder.js";
import { startTestServer, type TestServer } from "./rest-server.js";

type Body = Record<string, unknown>;
interface PlanReply {
  planId: string;
  expiresAt: string;
  plan: DreamPlan;
  memories: Record<string, Body>;
  report: string;
}

/** With the word embedder the planner prunes the chatter, merges the runs and flags the deploy targets. */
const DREAMY = {
  noise: "ok thanks",
  fly: "ledger-service deploys to Fly.io.",
  ecs: "ledger-service deploys to AWS ECS.",
  run: "User runs 5 km every morning.",
  morning: "Every morning the user goes for a 5 km run.",
};
/** Two statements the planner is unsure of: a possible conflict for a person to review. */
const UNSURE = [
  "The office coffee machine is a Sage Barista.",
  "The kitchen coffee machine is a DeLonghi Magnifica.",
];
const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }
).version;

const keyOf = (conflict: ConflictAction) => `${conflict.ids[0]}:${conflict.ids[1]}`;

describe("Lucid's REST routes", () => {
  let server: TestServer & { keys: string[] };
  const post = (path: string, body: unknown) => server.call(path, { method: "POST", body });

  /** Adds the texts to a user's scope; the id of each text. */
  async function seed(userId: string, texts: readonly string[]): Promise<Record<string, string>> {
    const ids: Record<string, string> = {};
    for (const text of texts) {
      const { results } = await server.memory.add(text, { userId });
      ids[text] = results[0]?.id as string;
    }
    return ids;
  }

  /** A scope's memories as id → text, expired ones too. */
  async function texts(userId: string): Promise<Record<string, string>> {
    const { results } = await server.memory.getAll({ userId, showExpired: true, pageSize: 1000 });
    return Object.fromEntries(results.map((item) => [item.id, item.memory]));
  }

  async function plan(userId: string): Promise<PlanReply> {
    const response = await post("/lucid/v1/dream/plan", { user_id: userId });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as PlanReply;
  }

  const conflictOf = (reply: PlanReply) =>
    reply.plan.actions.find(
      (action): action is ConflictAction => action.kind === "conflict",
    ) as ConflictAction;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  describe("dream", () => {
    it("plans a scope — a prune, a merge and a conflict — with the text of every memory they name and the report, changing nothing", async () => {
      const ids = await seed("dana", Object.values(DREAMY));
      const textOf = Object.fromEntries(Object.entries(ids).map(([text, id]) => [id, text]));
      const before = await texts("dana");
      const reply = await plan("dana");
      expect(reply.planId).toMatch(/^plan-/u);
      expect(Date.parse(reply.expiresAt)).toBeGreaterThan(Date.now());
      expect(reply.plan.scope).toEqual({ user_id: "dana" });
      const byKind = Object.fromEntries(
        reply.plan.actions.map((action) => [action.kind, [...action.ids].sort()]),
      );
      expect(byKind).toEqual({
        delete: [ids[DREAMY.noise]],
        merge: [ids[DREAMY.run], ids[DREAMY.morning]].sort(),
        conflict: [ids[DREAMY.fly], ids[DREAMY.ecs]].sort(),
      });
      const named = [...reply.plan.actions, ...reply.plan.review.map((item) => item.proposal)].flatMap(
        (action) => action.ids,
      );
      expect(named.length).toBeGreaterThan(0);
      for (const id of named)
        expect(reply.memories[id]).toMatchObject({ id, memory: textOf[id], user_id: "dana" });
      expect(reply.report).toContain("Proposed: 1 merges, 1 prunes, 1 conflicts.");
      expect(await texts("dana")).toEqual(before);
    });

    it("names an expired memory it prunes in memories, with its text", async () => {
      const { results } = await server.memory.add("Deploy queue paused for the migration", {
        userId: "ezra",
        expirationDate: "2021-01-01",
      });
      const expired = results[0]?.id as string;
      const reply = await plan("ezra");
      expect(reply.plan.actions).toMatchObject([{ kind: "delete", reason: "expired", ids: [expired] }]);
      expect(reply.memories[expired]).toMatchObject({ memory: "Deploy queue paused for the migration" });
    });

    it("applies a plan with a conflict resolved B, lists and shows the run, undoes it, and applies a plan once", async () => {
      const ids = await seed("alice", Object.values(DREAMY));
      const before = await texts("alice");
      const reply = await plan("alice");
      const conflict = conflictOf(reply);
      const [a, b] = conflict.ids;
      const applied = await post("/lucid/v1/dream/apply", {
        planId: reply.planId,
        conflicts: { [keyOf(conflict)]: "B" },
      });
      expect(applied.status, JSON.stringify(applied.body)).toBe(200);
      const result = applied.body as { applied: boolean; runId: string; counts: Body; actions: Body[] };
      expect(result.applied).toBe(true);
      expect(result.runId).toEqual(expect.any(String));
      expect(await server.memory.get(a)).toBeNull();
      expect((await server.memory.get(b))?.memory).toBe(before[b]);
      expect(await server.memory.get(ids[DREAMY.noise] as string)).toBeNull();
      const after = await texts("alice");
      expect(Object.keys(after)).toHaveLength(2);
      expect(result.counts).toMatchObject({
        merged: 1,
        pruned: 1,
        conflictsResolved: 1,
        conflictsSkipped: 0,
        rewritten: 0,
        skipped: 0,
        finalCount: 2,
      });

      const listed = await server.call("/lucid/v1/dream/runs?user_id=alice");
      expect(listed.status).toBe(200);
      const runs = (listed.body as { runs: Body[] }).runs;
      expect(runs.map((run) => run.id)).toEqual([result.runId]);
      expect(runs[0]).toMatchObject({
        scope: { user_id: "alice" },
        counts: result.counts,
        actions: 3,
        undoneAt: null,
      });

      const shown = await server.call(`/lucid/v1/dream/runs/${result.runId}`);
      expect(shown.status).toBe(200);
      const run = shown.body as {
        run: Body;
        memories: { memoryId: string }[];
        named: Record<string, { memory: string }>;
      };
      expect(run.run).toMatchObject({ id: result.runId, scope: { user_id: "alice" }, undoneAt: null });
      expect(run.memories.map((change) => change.memoryId)).toEqual(
        expect.arrayContaining([a, ids[DREAMY.noise], ids[DREAMY.run], ids[DREAMY.morning]]),
      );
      // Each touched memory as the wire shows it: its text before the run, no vector or entity links.
      const merged = (run.memories as unknown as { memoryId: string; before: Body | null }[]).find(
        (change) => change.memoryId === ids[DREAMY.morning],
      );
      expect(merged?.before).toMatchObject({ text: DREAMY.morning, user_id: "alice" });
      expect(Object.keys(merged?.before ?? {})).not.toContain("embedding");
      expect(JSON.stringify(shown.body)).not.toContain('"row"');
      // The conflict's winner, which the run did not touch, is named with its text as it is now.
      expect(run.memories.map((change) => change.memoryId)).not.toContain(b);
      expect(run.named[b]).toMatchObject({ memory: before[b] });
      expect(run.named[a as string]).toBeUndefined();

      const undone = await post(`/lucid/v1/dream/runs/${result.runId}/undo`, {});
      expect(undone.status, JSON.stringify(undone.body)).toBe(200);
      expect(undone.body).toMatchObject({ runId: result.runId });
      expect(await texts("alice")).toEqual(before);
      const relisted = (await server.call("/lucid/v1/dream/runs?user_id=alice")).body as { runs: Body[] };
      expect(relisted.runs[0]?.undoneAt).toEqual(expect.any(String));

      const again = await post("/lucid/v1/dream/apply", {
        planId: reply.planId,
        conflicts: { [keyOf(conflict)]: "B" },
      });
      expect(again.status).toBe(404);
      expect(again.body).toMatchObject({ code: "PLAN_NOT_FOUND" });
      expect(await texts("alice")).toEqual(before);
    });

    it("joins an accepted review item's proposal to the plan", async () => {
      await seed("fay", UNSURE);
      const before = await texts("fay");
      const reply = await plan("fay");
      expect(reply.plan.actions).toEqual([]);
      expect(reply.plan.review.map((item) => item.kind)).toEqual(["possible-conflict"]);
      const proposal = reply.plan.review[0]?.proposal as ConflictAction;
      expect(Object.keys(reply.memories).sort()).toEqual([...proposal.ids].sort());
      const applied = await post("/lucid/v1/dream/apply", {
        planId: reply.planId,
        accept: [0],
        conflicts: { [keyOf(proposal)]: "A" },
      });
      expect(applied.status, JSON.stringify(applied.body)).toBe(200);
      expect(applied.body).toMatchObject({ applied: true, counts: { conflictsResolved: 1 } });
      expect((await server.memory.get(proposal.ids[0]))?.memory).toBe(before[proposal.ids[0]]);
      expect(await server.memory.get(proposal.ids[1])).toBeNull();
    });

    it("refuses a malformed apply with 400 INVALID_ARGUMENT, changing nothing and keeping the plan", async () => {
      await seed("erin", [...Object.values(DREAMY), ...UNSURE]);
      const before = await texts("erin");
      const reply = await plan("erin");
      const planId = reply.planId;
      const key = keyOf(conflictOf(reply));
      expect(reply.plan.review.length).toBeGreaterThan(0);
      const reviewKey = keyOf(reply.plan.review[0]?.proposal as ConflictAction);
      const refusals: Body[] = [
        { conflicts: { [key]: "B" } },
        { planId: 42 },
        { planId, conflicts: { [key]: "C" } },
        { planId, conflicts: ["B"] },
        { planId, conflicts: { "not-an-id:nor-this": "A" } },
        // A review item's conflict is the plan's only once it is accepted.
        { planId, conflicts: { [reviewKey]: "A" } },
        { planId, accept: [reply.plan.review.length] },
        { planId, accept: [-1] },
        { planId, accept: [0.5] },
        { planId, accept: 0 },
        { planId, include: ["merge", "explode"] },
        { planId, include: "merge" },
      ];
      for (const body of refusals) {
        const response = await post("/lucid/v1/dream/apply", body);
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(response.body, JSON.stringify(body)).toMatchObject({
          code: "INVALID_ARGUMENT",
          detail: expect.any(String),
        });
      }
      expect(await texts("erin")).toEqual(before);
      expect(
        ((await server.call("/lucid/v1/dream/runs?user_id=erin")).body as { runs: Body[] }).runs,
      ).toEqual([]);
      // A refused apply leaves the plan kept: it still applies once.
      const applied = await post("/lucid/v1/dream/apply", { planId, include: ["delete"] });
      expect(applied.status, JSON.stringify(applied.body)).toBe(200);
      expect(applied.body).toMatchObject({
        applied: true,
        counts: { pruned: 1, merged: 0, conflictsResolved: 0 },
      });
    });

    it("refuses to undo a run whose memory changed since (409 UNDO_CONFLICT); force undoes it", async () => {
      await seed("gus", Object.values(DREAMY));
      const before = await texts("gus");
      const reply = await plan("gus");
      const merge = reply.plan.actions.find((action) => action.kind === "merge");
      if (merge?.kind !== "merge") throw new Error("expected a merge");
      const applied = await post("/lucid/v1/dream/apply", { planId: reply.planId });
      const runId = (applied.body as { runId: string }).runId;
      expect(applied.status).toBe(200);
      await server.memory.update(merge.keep, "Gus swims 2 km every evening.");

      const refused = await post(`/lucid/v1/dream/runs/${runId}/undo`, {});
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        code: "UNDO_CONFLICT",
        detail: expect.stringContaining('Send {"force": true}'),
        details: { changed: [merge.keep] },
      });
      expect((refused.body as Body).detail).not.toContain("--force");
      expect((await server.memory.get(merge.keep))?.memory).toBe("Gus swims 2 km every evening.");
      const shown = (await server.call(`/lucid/v1/dream/runs/${runId}`)).body as { run: Body };
      expect(shown.run.undoneAt).toBeNull();

      const forced = await post(`/lucid/v1/dream/runs/${runId}/undo`, { force: true });
      expect(forced.status, JSON.stringify(forced.body)).toBe(200);
      expect(await texts("gus")).toEqual(before);
      const again = await post(`/lucid/v1/dream/runs/${runId}/undo`, { force: true });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: "ALREADY_UNDONE" });
    });

    it("leaves the actions a person declined, by their index in the plan; refuses an index it does not have", async () => {
      await seed("ivy", Object.values(DREAMY));
      const reply = await plan("ivy");
      const prune = reply.plan.actions.findIndex((action) => action.kind === "delete");
      expect(prune).toBeGreaterThanOrEqual(0);
      const refused = await post("/lucid/v1/dream/apply", {
        planId: reply.planId,
        decline: [reply.plan.actions.length],
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: "INVALID_ARGUMENT" });
      // Refused before anything ran: the plan is still kept.
      const applied = await post("/lucid/v1/dream/apply", { planId: reply.planId, decline: [prune] });
      expect(applied.status, JSON.stringify(applied.body)).toBe(200);
      expect(applied.body).toMatchObject({ counts: { pruned: 0 } });
      expect(Object.values(await texts("ivy"))).toContain(DREAMY.noise);
    });

    it("applies a plan once when two requests apply it at the same time", async () => {
      await seed("jon", Object.values(DREAMY));
      const reply = await plan("jon");
      const prune = reply.plan.actions.findIndex((action) => action.kind === "delete");
      // The first declines the prune; the second, had it run, would have applied it.
      const [first, second] = await Promise.all([
        post("/lucid/v1/dream/apply", { planId: reply.planId, decline: [prune] }),
        post("/lucid/v1/dream/apply", { planId: reply.planId }),
      ]);
      const statuses = [first.status, second.status].sort();
      expect(statuses[0]).toBe(200);
      expect([404, 409]).toContain(statuses[1]);
      const applied = first.status === 200 ? first : second;
      const ran = (await server.call("/lucid/v1/dream/runs?user_id=jon")).body as { runs: Body[] };
      expect(ran.runs).toHaveLength(1);
      const noiseKept = Object.values(await texts("jon")).includes(DREAMY.noise);
      expect(noiseKept).toBe(applied === first);
    });

    it("answers 404 RUN_NOT_FOUND for an unknown run", async () => {
      for (const [method, path] of [
        ["GET", "/lucid/v1/dream/runs/dream-00000000T000000-none"],
        ["POST", "/lucid/v1/dream/runs/dream-00000000T000000-none/undo"],
      ] as const) {
        const response = await server.call(path, { method });
        expect(response.status, path).toBe(404);
        expect(response.body).toMatchObject({ code: "RUN_NOT_FOUND" });
      }
    });

    it("answers the gate of a scope, and asks for a scope where none is named or defaulted (400 SCOPE_REQUIRED)", async () => {
      await seed("hugo", ["Hugo collects vintage fountain pens"]);
      const gate = await server.call("/lucid/v1/dream/gate?user_id=hugo");
      expect(gate.status).toBe(200);
      expect(gate.body).toMatchObject({ eligible: false, memories: 1, thresholds: expect.any(Object) });
      for (const [method, path, body] of [
        ["POST", "/lucid/v1/dream/plan", {}],
        ["GET", "/lucid/v1/dream/gate", undefined],
      ] as const) {
        const response = await server.call(path, { method, ...(body === undefined ? {} : { body }) });
        expect(response.status, path).toBe(400);
        expect(response.body).toMatchObject({
          code: "SCOPE_REQUIRED",
          detail: expect.stringContaining("in the request (the body, or the query of a GET or DELETE)"),
        });
        expect((response.body as Body).detail).not.toContain("--user");
      }
    });
  });

  describe("scan", () => {
    const token = createFakeSecrets(11)["github-pat"]?.() ?? "";
    let secretId: string;

    beforeAll(async () => {
      expect(token.length).toBeGreaterThan(20);
      await seed("ines", ["Ines drinks green tea every morning"]);
      // Another writer of the same store, allowing what the server's policy would redact.
      const writer = await openMemory({
        path: join(server.home, "lucid.db"),
        embedder: wordEmbedder(),
        policy: { secrets: { onAdd: "allow" } },
      });
      const added = await writer.add(`The deploy token is ${token}`, { userId: "ines" });
      secretId = added.results[0]?.id as string;
      await writer.close();
      expect((await server.memory.get(secretId))?.memory).toContain(token);
    });

    it("finds a stored credential in the scope, by memory and field, never sending its value", async () => {
      const scanned = await post("/lucid/v1/scan", { user_id: "ines" });
      expect(scanned.status).toBe(200);
      const body = scanned.body as { scanned: number; findings: Body[] };
      expect(body.scanned).toBe(2);
      expect(body.findings).toEqual([
        expect.objectContaining({
          id: secretId,
          field: "text",
          user_id: "ines",
          preview: `${token.slice(0, 4)}…`,
        }),
      ]);
      expect(JSON.stringify(scanned.body)).not.toContain(token);
      const clean = await post("/lucid/v1/scan", { user_id: "hugo" });
      expect(clean.body).toEqual({ scanned: 1, findings: [], injections: [] });
    });

    it("masks the credential in a dream plan's texts", async () => {
      const reply = await plan("ines");
      expect(reply.memories[secretId]).toBeDefined();
      expect(JSON.stringify(reply)).not.toContain(token);
    });

    it("masks it in every Mem0 route that sends stored text: get, list, search, history, events", async () => {
      for (const [method, path, body] of [
        ["GET", `/v1/memories/${secretId}/`, undefined],
        ["GET", `/v1/memories/${secretId}/history/`, undefined],
        ["POST", "/v3/memories/", { filters: { user_id: "ines" } }],
        ["POST", "/v2/memories/", { filters: { user_id: "ines" } }],
        ["POST", "/v3/memories/search/", { query: "deploy token", filters: { user_id: "ines" } }],
        ["POST", "/v2/memories/search/", { query: "deploy token", filters: { user_id: "ines" } }],
      ] as const) {
        const response = await server.call(path, { method, ...(body === undefined ? {} : { body }) });
        expect(response.status, path).toBe(200);
        const sent = JSON.stringify(response.body);
        expect(sent, path).toContain("The deploy token is");
        expect(sent, path).not.toContain(token);
      }
      // An add that stored it (a policy allowing credentials) answers masked too, and so does its event.
      const allowing = await startTestServer({ policy: { secrets: { onAdd: "allow" } } });
      try {
        const added = await allowing.call("/v3/memories/add/", {
          method: "POST",
          body: { messages: `Ines's second token is ${token}`, user_id: "ines", infer: false },
        });
        expect(added.status).toBe(200);
        expect(JSON.stringify(added.body)).not.toContain(token);
        const events = await allowing.call("/v1/events/");
        expect(JSON.stringify(events.body)).toContain("second token");
        expect(JSON.stringify(events.body)).not.toContain(token);
      } finally {
        await allowing.close();
      }
    });
  });

  describe("export and import", () => {
    const lines = (text: string) =>
      text
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as Body);
    /** The export's text as sent (the test client would parse a one-line export as JSON). */
    const exportOf = async (userId: string) =>
      (await fetch(`${server.url}/lucid/v1/export?user_id=${userId}`)).text();
    const importNdjson = (path: string, body: string) =>
      server.call(path, { method: "POST", body, headers: { "Content-Type": "application/x-ndjson" } });

    beforeAll(async () => {
      await seed("ivan", ["Ivan plays the bassoon", "Ivan lives in Tartu"]);
      await seed("judy", ["Judy plays the oboe"]);
    });

    it("exports a scope's memories only, as NDJSON", async () => {
      const exported = await server.call("/lucid/v1/export?user_id=ivan");
      expect(exported.status).toBe(200);
      expect(exported.headers.get("content-type")).toMatch(/^application\/x-ndjson/u);
      expect(typeof exported.body).toBe("string");
      const records = lines(exported.body as string);
      expect(records.map((record) => record.text).sort()).toEqual([
        "Ivan lives in Tartu",
        "Ivan plays the bassoon",
      ]);
      expect(records.every((record) => record.user_id === "ivan" && typeof record.id === "string")).toBe(
        true,
      );
    });

    it("imports an export into another user's scope, and replaces or skips a record by its id", async () => {
      const exported = await exportOf("ivan");
      const stripped = lines(exported)
        .map(({ id: _id, user_id: _user, agent_id: _agent, app_id: _app, run_id: _run, ...rest }) =>
          JSON.stringify(rest),
        )
        .join("\n");
      const imported = await importNdjson("/lucid/v1/import?user_id=carol", `${stripped}\n`);
      expect(imported.status, JSON.stringify(imported.body)).toBe(200);
      expect(imported.body).toMatchObject({ imported: 2, failed: 0 });
      expect(Object.values(await texts("carol")).sort()).toEqual([
        "Ivan lives in Tartu",
        "Ivan plays the bassoon",
      ]);
      expect(Object.values(await texts("ivan"))).toHaveLength(2);

      const [first] = lines(exported);
      const changed = JSON.stringify({ ...first, text: "Ivan plays the contrabassoon" });
      const skipped = await importNdjson("/lucid/v1/import?user_id=ivan", changed);
      expect(skipped.status, JSON.stringify(skipped.body)).toBe(200);
      expect(skipped.body).toMatchObject({ imported: 0, skipped: 1 });
      expect((await server.memory.get(first?.id as string))?.memory).toBe(first?.text);
      const replaced = await importNdjson("/lucid/v1/import?user_id=ivan&on_conflict=replace", changed);
      expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
      expect(replaced.body).toMatchObject({ replaced: 1 });
      expect((await server.memory.get(first?.id as string))?.memory).toBe("Ivan plays the contrabassoon");
    });

    it("imports records that each name their scope without a scope on the request, as `lucid import backup.jsonl` does", async () => {
      // The request's scope is only for records naming none; these all name judy.
      const exported = await exportOf("judy");
      const restored = lines(exported).map(({ id: _id, ...rest }) =>
        JSON.stringify({ ...rest, text: "Judy restores oboes" }),
      );
      const imported = await importNdjson("/lucid/v1/import", `${restored.join("\n")}\n`);
      expect(imported.status, JSON.stringify(imported.body)).toBe(200);
      expect(imported.body).toMatchObject({ imported: 1, failed: 0 });
      expect(Object.values(await texts("judy")).sort()).toEqual([
        "Judy plays the oboe",
        "Judy restores oboes",
      ]);
    });

    it("imports a JSON array", async () => {
      const imported = await post("/lucid/v1/import?user_id=lena", [{ text: "Lena sails a dinghy" }]);
      expect(imported.status, JSON.stringify(imported.body)).toBe(200);
      expect(Object.values(await texts("lena"))).toEqual(["Lena sails a dinghy"]);
    });

    it("refuses a body with a line that is not JSON, a record that cannot be a memory, an empty body and an unknown on_conflict (400), importing nothing", async () => {
      for (const [path, body] of [
        ["/lucid/v1/import?user_id=kate", '{"text": "Kate keeps bees"}\nnot json\n'],
        ["/lucid/v1/import?user_id=kate", '{"text": "Kate keeps bees"}\n"a string"\n'],
        ["/lucid/v1/import?user_id=kate", ""],
        ["/lucid/v1/import?user_id=kate", "\n  \n"],
        ["/lucid/v1/import?user_id=kate&on_conflict=merge", '{"text": "Kate keeps bees"}\n'],
        // Records that parse but cannot be memories: checked before anything is written.
        ["/lucid/v1/import?user_id=kate", '[{"text": "Kate keeps bees"}, {"nope": 1}]'],
        ["/lucid/v1/import?user_id=kate", '{"text": "Kate keeps bees"}\n{"text": 5}\n'],
        ["/lucid/v1/import?user_id=kate", '{"text": "Kate keeps bees"}\n{"text": "   "}\n'],
        [
          "/lucid/v1/import?user_id=kate",
          '{"text": "Kate keeps bees"}\n{"text": "Kate sails", "created_at": "soon"}\n',
        ],
      ] as const) {
        const response = await importNdjson(path, body);
        expect(response.status, JSON.stringify(body)).toBe(400);
        expect(response.body).toMatchObject({ code: "INVALID_ARGUMENT" });
      }
      expect(await texts("kate")).toEqual({});
      const refused = await importNdjson(
        "/lucid/v1/import?user_id=kate",
        '{"text": "Kate keeps bees"}\n{"text": 5}\n',
      );
      expect(refused.body).toMatchObject({
        detail: expect.stringContaining("1 of 2 records cannot be imported, so none was"),
        details: { failures: [expect.objectContaining({ index: 1 })] },
      });
    });
  });

  it("says what the server is: its version, no key, no workspace", async () => {
    const info = await server.call("/lucid/v1/info");
    expect(info.status).toBe(200);
    expect(info.body).toEqual({
      version: PACKAGE_VERSION,
      keysRequired: false,
      bound: null,
      defaults: {},
      workspace: null,
      workspaceScope: null,
      llm: false,
    });
  });

  it.each([
    ["GET", "/lucid/v1/sleep/status"],
    ["POST", "/lucid/v1/sleep/promote"],
    ["GET", "/lucid/v1/sleep/explain?target=memory/2026-11-04.md%23L3-L3"],
    ["POST", "/lucid/v1/sleep/rollback"],
    ["POST", "/lucid/v1/sleep/preview"],
    ["GET", "/lucid/v1/sleep/diary"],
  ] as const)("answers %s %s without a workspace with 404 WORKSPACE_NOT_FOUND", async (method, path) => {
    const response = await server.call(path, { method, ...(method === "POST" ? { body: {} } : {}) });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: "WORKSPACE_NOT_FOUND", detail: expect.any(String) });
  });
});

describe("Lucid's sleep routes on a workspace", () => {
  const FIXTURE = fileURLToPath(new URL("../fixtures/sleep-workspace/", import.meta.url));
  const expected = JSON.parse(readFileSync(join(FIXTURE, "expected.json"), "utf8")) as {
    now: string;
    promoted: string[];
  };
  let server: TestServer;
  let dir: string;
  let original: Buffer;
  const memoryFile = () => readFileSync(join(dir, "MEMORY.md"));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "lucid-http-sleep-"));
    cpSync(FIXTURE, dir, { recursive: true });
    original = readFileSync(join(dir, "MEMORY.md"));
    server = await startTestServer({ workspace: dir });
    // The fixture's searches, recorded as the agent's: what makes its ranges promote.
    const replay = await server.memory
      .workspace(dir)
      .recordLog(readFileSync(join(dir, "search-log.jsonl"), "utf8"));
    expect(replay.errors).toEqual([]);
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("names the workspace in info", async () => {
    expect((await server.call("/lucid/v1/info")).body).toMatchObject({
      workspace: dir,
      workspaceScope: { agent_id: "main" },
    });
  });

  it("shows the status, previews a promotion with MEMORY.md before and after, and explains a candidate, writing nothing", async () => {
    const status = await server.call(`/lucid/v1/sleep/status?now=${expected.now}`);
    expect(status.status).toBe(200);
    const wouldPromote = (status.body as { wouldPromote: { address: string }[] }).wouldPromote;
    expect(wouldPromote.map((candidate) => candidate.address)).toEqual(expected.promoted);

    const preview = await server.call("/lucid/v1/sleep/promote", {
      method: "POST",
      body: { now: expected.now },
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const result = preview.body as {
      applied: boolean;
      runId: string | null;
      candidates: { key: string; address: string; snippet: string }[];
      promoted: { key: string; marker: string }[];
      memoryFileDiff: { before: string; after: string };
    };
    expect(result).toMatchObject({ applied: false, runId: null });
    expect(result.candidates.map((candidate) => candidate.address)).toEqual(expected.promoted);
    expect(result.promoted).toHaveLength(expected.promoted.length);
    expect(result.memoryFileDiff.before).toBe(original.toString("utf8"));
    expect(result.memoryFileDiff.after.startsWith(result.memoryFileDiff.before)).toBe(true);
    for (const entry of result.promoted) expect(result.memoryFileDiff.after).toContain(entry.marker);
    const first = result.candidates[0];
    const firstLine = first?.snippet.split("\n")[0]?.replace(/^[-*]\s+/u, "") ?? "";
    expect(firstLine.length).toBeGreaterThan(10);
    expect(result.memoryFileDiff.before).not.toContain(firstLine);
    expect(result.memoryFileDiff.after).toContain(firstLine);
    expect(memoryFile().equals(original)).toBe(true);

    const explained = await server.call(
      `/lucid/v1/sleep/explain?target=${encodeURIComponent(first?.key ?? "")}&now=${expected.now}`,
    );
    expect(explained.status, JSON.stringify(explained.body)).toBe(200);
    expect(explained.body).toMatchObject({
      key: first?.key,
      address: first?.address,
      rank: 1,
      promotedAt: null,
    });
    const missing = await server.call("/lucid/v1/sleep/explain");
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(memoryFile().equals(original)).toBe(true);
  });

  it("promotes into MEMORY.md as the preview said, and rolls it back byte for byte", async () => {
    const promoted = await server.call("/lucid/v1/sleep/promote", {
      method: "POST",
      body: { now: expected.now, apply: true },
    });
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
    const result = promoted.body as { applied: boolean; runId: string; memoryFileDiff: { after: string } };
    expect(result.applied).toBe(true);
    expect(result.runId).toMatch(/^sleep-/u);
    expect(memoryFile().toString("utf8")).toBe(result.memoryFileDiff.after);
    expect(memoryFile().equals(original)).toBe(false);
    const stored = await server.memory.getAll({ agentId: "main" });
    expect(stored.results).toHaveLength(expected.promoted.length);

    const rolledBack = await server.call("/lucid/v1/sleep/rollback", {
      method: "POST",
      body: { runId: result.runId },
    });
    expect(rolledBack.status, JSON.stringify(rolledBack.body)).toBe(200);
    expect(rolledBack.body).toMatchObject({
      runId: result.runId,
      restored: true,
      removedMemories: expected.promoted.length,
    });
    expect(memoryFile().equals(original)).toBe(true);
    expect((await server.memory.getAll({ agentId: "main" })).results).toEqual([]);
  });

  it("reads the Dream Diary and previews a sweep, writing nothing", async () => {
    const diary = await server.call("/lucid/v1/sleep/diary");
    expect(diary.status).toBe(200);
    const read = diary.body as { path: string; exists: boolean; text: string };
    expect(read.path.endsWith("DREAMS.md")).toBe(true);
    expect(read.exists).toBe(existsSync(read.path));
    const preview = await server.call("/lucid/v1/sleep/preview", {
      method: "POST",
      body: { now: expected.now },
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body).toMatchObject({ applied: false, promotion: null });
    expect((preview.body as { candidates: unknown[] }).candidates.length).toBeGreaterThan(0);
    expect(memoryFile().equals(original)).toBe(true);
    expect(existsSync(read.path)).toBe(read.exists);
  });
});
