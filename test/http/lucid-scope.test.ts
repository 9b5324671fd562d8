/**
 * Lucid's own routes behind keys: a key bound to alice can never plan, gate, list, scan, export or
 * import bob's scope (403), never see or undo bob's dream runs nor apply bob's plans (the 404 of an
 * unknown id), never import over bob's memories; sleep is only for a key whose scope holds the
 * workspace's; and every Lucid route wants a key, while the API's description and the page do not.
 */
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunRecord } from "../../src/store/ports/runs.js";
import { startTestServer, type TestServer } from "./rest-server.js";

type Body = Record<string, unknown>;

const FIXTURE = fileURLToPath(new URL("../fixtures/sleep-workspace/", import.meta.url));
const NOW = (JSON.parse(readFileSync(join(FIXTURE, "expected.json"), "utf8")) as { now: string }).now;
/** What the planner turns into a prune, a merge and a conflict (see lucid-routes.test.ts). */
const DREAMY = [
  "ok thanks",
  "ledger-service deploys to Fly.io.",
  "ledger-service deploys to AWS ECS.",
  "User runs 5 km every morning.",
  "Every morning the user goes for a 5 km run.",
];

const LUCID_ROUTES = [
  ["GET", "/lucid/v1/info"],
  ["POST", "/lucid/v1/scan"],
  ["GET", "/lucid/v1/export?user_id=alice"],
  ["POST", "/lucid/v1/import?user_id=alice"],
  ["POST", "/lucid/v1/dream/plan"],
  ["POST", "/lucid/v1/dream/apply"],
  ["GET", "/lucid/v1/dream/runs"],
  ["GET", "/lucid/v1/dream/runs/dream-1"],
  ["POST", "/lucid/v1/dream/runs/dream-1/undo"],
  ["GET", "/lucid/v1/dream/gate"],
  ["GET", "/lucid/v1/sleep/status"],
  ["POST", "/lucid/v1/sleep/promote"],
  ["GET", "/lucid/v1/sleep/explain?target=x"],
  ["POST", "/lucid/v1/sleep/rollback"],
  ["POST", "/lucid/v1/sleep/preview"],
  ["GET", "/lucid/v1/sleep/diary"],
] as const;

describe("Lucid's routes and the key's scope", () => {
  let server: TestServer & { keys: string[] };
  let dir: string;
  let alice: string;
  let bob: string;
  let main: string;
  let bobId: string;
  let bobRun: string;
  let bobPlan: string;
  let aliceRun: string;

  const as = (key: string, method: string, path: string, body?: unknown) =>
    server.call(path, { method, key, ...(body === undefined ? {} : { body }) });

  async function texts(userId: string): Promise<Record<string, string>> {
    const { results } = await server.memory.getAll({ userId, showExpired: true, pageSize: 1000 });
    return Object.fromEntries(results.map((item) => [item.id, item.memory]));
  }

  /** A plan of the key's scope, and its id. */
  async function planAs(key: string): Promise<string> {
    const planned = await as(key, "POST", "/lucid/v1/dream/plan", {});
    expect(planned.status, JSON.stringify(planned.body)).toBe(200);
    return (planned.body as { planId: string }).planId;
  }

  async function applyAs(key: string, planId: string): Promise<string> {
    const applied = await as(key, "POST", "/lucid/v1/dream/apply", { planId });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    return (applied.body as { runId: string }).runId;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "lucid-http-scope-ws-"));
    cpSync(FIXTURE, dir, { recursive: true });
    server = await startTestServer({
      keys: [{ user_id: "alice" }, { user_id: "bob" }, { agent_id: "main" }],
      workspace: dir,
      uiDir: join(dir, "no-ui-here"),
      // Every Lucid route is asked without a key: past the default ten, the address would be throttled.
      failureLimit: null,
    });
    [alice, bob, main] = server.keys as [string, string, string];
    const replay = await server.memory
      .workspace(dir)
      .recordLog(readFileSync(join(dir, "search-log.jsonl"), "utf8"));
    expect(replay.errors).toEqual([]);
    for (const text of DREAMY) {
      await server.memory.add(text, { userId: "alice" });
      await server.memory.add(text.replace("User", "Bob"), { userId: "bob" });
    }
    // A memory of bob's no dream touches.
    bobId = (await server.memory.add("Bob collects stamps", { userId: "bob" })).results[0]?.id as string;
    bobRun = await applyAs(bob, await planAs(bob));
    aliceRun = await applyAs(alice, await planAs(alice));
    // Bob's memories again, and a plan of them kept for bob's key.
    for (const text of ["Bob prefers tea.", "Bob drinks tea every afternoon.", "thanks!"]) {
      await server.memory.add(text, { userId: "bob" });
    }
    bobPlan = await planAs(bob);
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ["POST", "/lucid/v1/dream/plan", { user_id: "bob" }],
    ["GET", "/lucid/v1/dream/gate?user_id=bob", undefined],
    ["GET", "/lucid/v1/dream/runs?user_id=bob", undefined],
    ["POST", "/lucid/v1/scan", { user_id: "bob" }],
    ["GET", "/lucid/v1/export?user_id=bob", undefined],
    ["POST", "/lucid/v1/import?user_id=bob", '{"text": "Bob hates tea"}\n'],
  ] as const)(
    "refuses alice's key %s %s naming bob with 403 SCOPE_NOT_ALLOWED",
    async (method, path, body) => {
      const before = await texts("bob");
      const response = await as(alice, method, path, body);
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: "SCOPE_NOT_ALLOWED", detail: expect.any(String) });
      expect(await texts("bob")).toEqual(before);
    },
  );

  it("acts in the key's scope when the request names none", async () => {
    const exported = await fetch(`${server.url}/lucid/v1/export`, {
      headers: { Authorization: `Token ${alice}` },
    });
    expect(exported.status).toBe(200);
    const records = (await exported.text())
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Body);
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((record) => record.user_id === "alice")).toBe(true);
    const scanned = await as(alice, "POST", "/lucid/v1/scan", {});
    expect(scanned.body).toMatchObject({ scanned: records.length });
    const info = await as(alice, "GET", "/lucid/v1/info");
    expect(info.body).toMatchObject({ keysRequired: true, bound: { user_id: "alice" }, defaults: {} });
    // Alice may not use the workspace (it promotes into agent_id=main): she is not told where it is.
    expect(info.body).toMatchObject({ workspace: null, workspaceScope: null });
    const mains = await as(main, "GET", "/lucid/v1/info");
    expect(mains.body).toMatchObject({ workspace: realpathSync(dir), workspaceScope: { agent_id: "main" } });
  });

  it("shows and undoes bob's run only for bob: alice's key gets 404 RUN_NOT_FOUND and the run stays", async () => {
    for (const [method, path] of [
      ["GET", `/lucid/v1/dream/runs/${bobRun}`],
      ["POST", `/lucid/v1/dream/runs/${bobRun}/undo`],
    ] as const) {
      const response = await as(alice, method, path, method === "POST" ? { force: true } : undefined);
      expect(response.status, path).toBe(404);
      expect(response.body).toMatchObject({ code: "RUN_NOT_FOUND" });
    }
    const shown = await as(bob, "GET", `/lucid/v1/dream/runs/${bobRun}`);
    expect(shown.status).toBe(200);
    expect((shown.body as { run: Body }).run).toMatchObject({ id: bobRun, undoneAt: null });
    const own = await as(alice, "GET", `/lucid/v1/dream/runs/${aliceRun}`);
    expect(own.status).toBe(200);
  });

  it("lists only the key's runs", async () => {
    const listed = await as(alice, "GET", "/lucid/v1/dream/runs");
    expect(listed.status).toBe(200);
    const ids = (listed.body as { runs: Body[] }).runs.map((run) => run.id);
    expect(ids).toEqual([aliceRun]);
    const bobs = (await as(bob, "GET", "/lucid/v1/dream/runs")).body as { runs: Body[] };
    expect(bobs.runs.map((run) => run.id)).toEqual([bobRun]);
    const named = (await as(alice, "GET", "/lucid/v1/dream/runs?user_id=alice")).body as { runs: Body[] };
    expect(named.runs.map((run) => run.id)).toEqual([aliceRun]);
  });

  it("applies bob's plan only for bob: alice's key gets 404 PLAN_NOT_FOUND and nothing changes", async () => {
    const before = await texts("bob");
    const response = await as(alice, "POST", "/lucid/v1/dream/apply", { planId: bobPlan });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: "PLAN_NOT_FOUND" });
    expect(await texts("bob")).toEqual(before);
    const runs = (await as(bob, "GET", "/lucid/v1/dream/runs")).body as { runs: Body[] };
    expect(runs.runs.map((run) => run.id)).toEqual([bobRun]);
  });

  it("refuses an import with alice's key of a record naming bob, or carrying the id of bob's memory (403)", async () => {
    const bobBefore = await texts("bob");
    const aliceBefore = await texts("alice");
    for (const [path, record] of [
      ["/lucid/v1/import", { text: "Bob hates tea", user_id: "bob" }],
      ["/lucid/v1/import?on_conflict=replace", { id: bobId, text: "Alice owns this now" }],
      ["/lucid/v1/import?on_conflict=replace", { id: bobId, text: "Alice owns this now", user_id: "alice" }],
      ["/lucid/v1/import", { id: bobId, text: "Alice owns this now" }],
    ] as const) {
      const response = await server.call(path, {
        method: "POST",
        key: alice,
        body: `${JSON.stringify({ text: "Alice likes kites" })}\n${JSON.stringify(record)}\n`,
        headers: { "Content-Type": "application/x-ndjson" },
      });
      expect(response.status, JSON.stringify(record)).toBe(403);
      expect(response.body).toMatchObject({ code: "SCOPE_NOT_ALLOWED" });
    }
    expect(await texts("bob")).toEqual(bobBefore);
    expect(await server.memory.get(bobId)).toMatchObject({ user_id: "bob", memory: "Bob collects stamps" });
    expect(await texts("alice")).toEqual(aliceBefore);
  });

  it("imports a record naming no scope into the key's", async () => {
    const response = await server.call("/lucid/v1/import", {
      method: "POST",
      key: alice,
      body: '{"text": "Alice flies kites on Sundays"}\n',
      headers: { "Content-Type": "application/x-ndjson" },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(Object.values(await texts("alice"))).toContain("Alice flies kites on Sundays");
  });

  it("never lets another key's undo overwrite a memory alice imported under an id its dream deleted", async () => {
    const dave = await server.key({ user_id: "dave" });
    const noise = (await server.memory.add("ok thanks", { userId: "dave" })).results[0]?.id as string;
    await server.memory.add("Dave restores old clocks", { userId: "dave" });
    const runId = await applyAs(dave, await planAs(dave));
    expect(await server.memory.get(noise)).toBeNull();
    // The id is free now: alice may import a memory under it.
    const imported = await server.call("/lucid/v1/import", {
      method: "POST",
      key: alice,
      body: `${JSON.stringify({ id: noise, text: "Alice keeps a diary in Welsh" })}\n`,
      headers: { "Content-Type": "application/x-ndjson" },
    });
    expect([200, 403]).toContain(imported.status);
    const before = await server.memory.get(noise);
    await as(dave, "POST", `/lucid/v1/dream/runs/${runId}/undo`, { force: true });
    const after = await server.memory.get(noise);
    // Refusing the id is one fix; once alice's memory holds it, it stays hers, as she wrote it.
    if (imported.status === 403) expect(after?.user_id).toBe("dave");
    else expect(after).toEqual(before);
  });

  describe("sleep, for a workspace promoting into agent_id=main", () => {
    const SLEEP_ROUTES = [
      ["GET", `/lucid/v1/sleep/status?now=${NOW}`, undefined],
      ["POST", "/lucid/v1/sleep/promote", { now: NOW }],
      ["GET", "/lucid/v1/sleep/explain?target=memory/2026-11-05.md%23L9-L9", undefined],
      ["POST", "/lucid/v1/sleep/rollback", {}],
      ["POST", "/lucid/v1/sleep/preview", { now: NOW }],
      ["GET", "/lucid/v1/sleep/diary", undefined],
    ] as const;

    it.each(SLEEP_ROUTES)(
      "refuses alice's key %s %s with 403 SCOPE_NOT_ALLOWED",
      async (method, path, body) => {
        const response = await as(alice, method, path, body);
        expect(response.status).toBe(403);
        expect(response.body).toMatchObject({ code: "SCOPE_NOT_ALLOWED" });
      },
    );

    it("serves the key bound to agent_id=main", async () => {
      const original = readFileSync(join(dir, "MEMORY.md"));
      for (const [method, path, body] of SLEEP_ROUTES.filter(([, path]) => !path.includes("rollback"))) {
        const response = await as(main, method, path, body);
        expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200);
      }
      const promoted = await as(main, "POST", "/lucid/v1/sleep/promote", { now: NOW, apply: true });
      expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
      const runId = (promoted.body as { runId: string }).runId;
      expect(runId).toMatch(/^sleep-/u);
      const refused = await as(alice, "POST", "/lucid/v1/sleep/rollback", { runId });
      expect(refused.status).toBe(403);
      expect(readFileSync(join(dir, "MEMORY.md")).equals(original)).toBe(false);
      const rolledBack = await as(main, "POST", "/lucid/v1/sleep/rollback", { runId });
      expect(rolledBack.status, JSON.stringify(rolledBack.body)).toBe(200);
      expect(readFileSync(join(dir, "MEMORY.md")).equals(original)).toBe(true);
    });
  });

  it.each(LUCID_ROUTES)("answers %s %s without a key with 401", async (method, path) => {
    const response = await server.call(path, { method, ...(method === "POST" ? { body: {} } : {}) });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: "UNAUTHORIZED" });
    expect(response.headers.get("www-authenticate")).toMatch(/^Token/u);
  });

  it("serves the API's description and the page without a key", async () => {
    const document = await server.call("/openapi.json");
    expect(document.status).toBe(200);
    expect(document.body).toMatchObject({ openapi: expect.stringMatching(/^3\.1\./u) });
    // The uiDir holds no build: the "not built" page, still without a key.
    const page = await server.call("/");
    expect(page.status).toBe(503);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/u);
  });
});

describe("a scope's runs among many", () => {
  it("lists alice's run however many runs other scopes recorded since", async () => {
    const server = await startTestServer({ keys: [{ user_id: "alice" }] });
    try {
      const [alice] = server.keys as [string];
      for (const text of DREAMY) await server.memory.add(text, { userId: "alice" });
      const planned = await server.call("/lucid/v1/dream/plan", { method: "POST", key: alice, body: {} });
      const { planId } = planned.body as { planId: string };
      const applied = await server.call("/lucid/v1/dream/apply", {
        method: "POST",
        key: alice,
        body: { planId },
      });
      const { runId } = applied.body as { runId: string };
      // More runs of another user than any listing would read to find hers.
      const { store } = await server.memory.ready();
      const found = await store.getRun(runId);
      await store.transaction(async (tx) => {
        for (let n = 0; n < 1500; n++) {
          await tx.insertRun(
            {
              ...(found?.run as RunRecord),
              id: `dream-zed-${n}`,
              scope: { user_id: "zed" },
              scopeKey: "user_id=zed",
            },
            [],
          );
        }
      });
      const listed = await server.call("/lucid/v1/dream/runs", { key: alice });
      expect(listed.status).toBe(200);
      expect((listed.body as { runs: Body[] }).runs.map((run) => run.id)).toEqual([runId]);
    } finally {
      await server.close();
    }
  });
});
