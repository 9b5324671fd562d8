/**
 * A key bound to alice can never read or change bob's memories, through any route, whatever the
 * body, the query, the filters or the id say: naming bob is 403, an id of bob's is the 404 of a
 * missing id, and filters that try to widen the scope find only alice's memories.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./rest-server.js";

type Body = Record<string, unknown>;

describe("REST API scope isolation", () => {
  let server: TestServer & { keys: string[] };
  let alice: string;
  let bob: string;
  let bobId: string;
  let bobEvent: string;
  let aliceId: string;

  const asAlice = (path: string, method = "GET", body?: unknown) =>
    server.call(path, { method, key: alice, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    server = await startTestServer({ keys: [{ user_id: "alice" }, { user_id: "bob" }] });
    [alice, bob] = server.keys as [string, string];
    const bobAdd = await server.call("/v3/memories/add/", {
      method: "POST",
      key: bob,
      body: { messages: [{ role: "user", content: "Bob keeps a jazz record collection" }], user_id: "bob" },
    });
    const added = bobAdd.body as { event_id: string; results: { id: string }[] };
    bobId = added.results[0]?.id as string;
    bobEvent = added.event_id;
    const aliceAdd = await asAlice("/v3/memories/add/", "POST", {
      messages: [{ role: "user", content: "Alice keeps a jazz playlist" }],
    });
    aliceId = (aliceAdd.body as { results: { id: string }[] }).results[0]?.id as string;
  });
  afterAll(async () => {
    await server.close();
  });

  it("adds into the key's scope when the body names none", async () => {
    expect((await server.memory.get(aliceId))?.user_id).toBe("alice");
  });

  it.each([
    ["POST", "/v3/memories/add/", { messages: "Bob hates jazz", user_id: "bob" }],
    ["POST", "/v1/memories/", { messages: "Bob hates jazz", user_id: "bob" }],
    ["POST", "/v3/memories/search/", { query: "jazz", filters: { user_id: "bob" } }],
    ["POST", "/v3/memories/search/", { query: "jazz", user_id: "bob" }],
    ["POST", "/v3/memories/search/", { query: "jazz", filters: { AND: [{ user_id: "bob" }] } }],
    ["POST", "/v2/memories/search/", { query: "jazz", filters: { user_id: "bob" } }],
    ["POST", "/v3/memories/", { filters: { user_id: "bob" } }],
    ["POST", "/v3/memories/", { filters: { AND: [{ user_id: "bob" }, { agent_id: "x" }] } }],
    ["POST", "/v2/memories/", { filters: { user_id: "bob" } }],
    ["DELETE", "/v1/memories/?user_id=bob", undefined],
    ["DELETE", "/v2/entities/user/bob/", undefined],
    ["DELETE", "/v1/entities/user/bob/", undefined],
  ] as const)("refuses %s %s naming bob with 403", async (method, path, body) => {
    const response = await asAlice(path, method, body);
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({
      code: "SCOPE_NOT_ALLOWED",
      // What a REST client can do, not a flag `lucid serve` does not have.
      detail: expect.stringContaining("use an API key bound to that scope"),
    });
    expect((response.body as { detail: string }).detail).not.toContain("--any-scope");
  });

  it.each([
    [
      "POST",
      "/v3/memories/search/",
      { query: "jazz", filters: { OR: [{ user_id: "bob" }, { user_id: "alice" }] } },
      true,
    ],
    ["POST", "/v3/memories/search/", { query: "jazz", filters: { user_id: "*" } }, true],
    ["POST", "/v3/memories/search/", { query: "jazz", filters: { user_id: { in: ["bob", "alice"] } } }, true],
    ["POST", "/v3/memories/search/", { query: "jazz", filters: { NOT: { user_id: "alice" } } }, false],
    [
      "POST",
      "/v2/memories/search/",
      { query: "jazz", filters: { OR: [{ user_id: "bob" }, { user_id: "carol" }] } },
      false,
    ],
    ["POST", "/v3/memories/", { filters: { OR: [{ user_id: "bob" }, { user_id: "alice" }] } }, true],
    ["POST", "/v3/memories/", { filters: { memory_ids: [bobIdLater()] } }, false],
    ["POST", "/v2/memories/", { filters: { user_id: { ne: "alice" } } }, false],
  ] as const)(
    "finds only alice's memories when %s %s filters try to widen the scope",
    async (method, path, body, findsAlice) => {
      const fixed = JSON.parse(JSON.stringify(body).replace("BOB_ID", bobId)) as Body;
      const response = await asAlice(path, method, fixed);
      expect(response.status).toBe(200);
      const results = (
        Array.isArray(response.body) ? response.body : (response.body as { results: Body[] }).results
      ) as Body[];
      expect(results.every((memory) => memory.user_id === "alice")).toBe(true);
      expect(results.map((memory) => memory.id)).not.toContain(bobId);
      expect(results.map((memory) => memory.id).includes(aliceId)).toBe(findsAlice);
    },
  );

  it.each([
    ["GET", "/v1/memories/ID/", undefined],
    ["PUT", "/v1/memories/ID/", { text: "Bob hates jazz" }],
    ["DELETE", "/v1/memories/ID/", undefined],
    ["GET", "/v1/memories/ID/history/", undefined],
    ["PUT", "/v1/batch/", { memories: [{ memory_id: "ID", text: "Bob hates jazz" }] }],
    ["DELETE", "/v1/batch/", { memories: [{ memory_id: "ID" }] }],
    ["POST", "/v1/feedback/", { memory_id: "ID", feedback: "VERY_NEGATIVE" }],
  ] as const)(
    "answers %s %s with bob's id exactly as with a missing id (404)",
    async (method, path, body) => {
      const withId = (id: string) =>
        JSON.parse(JSON.stringify(body ?? null).replaceAll("ID", id)) ?? undefined;
      const foreign = await asAlice(path.replace("ID", bobId), method, withId(bobId));
      const missing = await asAlice(path.replace("ID", "no-such-id"), method, withId("no-such-id"));
      expect(foreign.status).toBe(404);
      expect(missing.status).toBe(404);
      expect((foreign.body as Body).code).toBe("MEMORY_NOT_FOUND");
      expect((foreign.body as { detail: string }).detail.replace(bobId, "X")).toBe(
        (missing.body as { detail: string }).detail.replace("no-such-id", "X"),
      );
    },
  );

  it("keeps an agent-bound key inside its agent", async () => {
    const coder = await server.key({ user_id: "alice", agent_id: "coder" });
    expect((await server.call(`/v1/memories/${aliceId}/`, { key: coder })).status).toBe(404);
    const list = await server.call("/v3/memories/", { method: "POST", key: coder, body: {} });
    expect(list.body).toMatchObject({ count: 0 });
    const other = await server.call("/v3/memories/", {
      method: "POST",
      key: coder,
      body: { filters: { agent_id: "planner" } },
    });
    expect(other.status).toBe(403);
  });

  it("lists only the key's entities and events, and hides another scope's event", async () => {
    const entities = await asAlice("/v1/entities/");
    expect((entities.body as { results: Body[] }).results.map((entity) => entity.name)).toEqual(["alice"]);
    const events = await asAlice("/v1/events/");
    const listed = (events.body as { results: Body[] }).results;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.map((event) => event.id)).not.toContain(bobEvent);
    expect((await asAlice(`/v1/event/${bobEvent}/`)).status).toBe(404);
    expect((await server.call(`/v1/event/${bobEvent}/`, { key: bob })).status).toBe(200);
  });

  it("left bob's memory as it was", async () => {
    const item = await server.memory.get(bobId);
    expect(item).toMatchObject({ memory: "Bob keeps a jazz record collection", user_id: "bob" });
    expect((await server.memory.history(bobId)).map((row) => row.action)).toEqual(["ADD"]);
  });
});

/** it.each tables are built before beforeAll runs: bob's id is put in when the case runs. */
function bobIdLater(): string {
  return "BOB_ID";
}
