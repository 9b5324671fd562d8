/**
 * Requests that once got past the REST API's rules or crashed it: the server's default scope
 * leaking into a key's requests, a batch repeating an id, filters nested to the stack's limit, a
 * page past any store, a 5xx telling a caller the store's path, one key's project settings or
 * events reaching another's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./rest-server.js";

type Body = Record<string, unknown>;

describe("REST API hardening", () => {
  let server: TestServer & { keys: string[] };
  let alice: string;
  let bob: string;

  const as = (key: string, path: string, method = "GET", body?: unknown) =>
    server.call(path, { method, key, ...(body === undefined ? {} : { body }) });
  const add = async (key: string, text: string) =>
    (
      (await as(key, "/v3/memories/add/", "POST", { messages: [{ role: "user", content: text }] })).body as {
        results: { id: string }[];
      }
    ).results[0]?.id as string;

  beforeAll(async () => {
    // The operator's own defaults: a key's requests must not take them on.
    server = await startTestServer({
      keys: [{ user_id: "alice" }, { user_id: "bob" }],
      defaults: { userId: "operator", agentId: "claude" },
    });
    [alice, bob] = server.keys as [string, string];
  });
  afterAll(async () => {
    await server.close();
  });

  it("keeps the server's default scope out of a key's adds and reads", async () => {
    const id = await add(alice, "Alice sails on Sundays");
    const got = (await as(alice, `/v1/memories/${id}/`)).body as Body;
    expect(got.user_id).toBe("alice");
    expect(got.agent_id ?? null).toBeNull();
    const listed = (await as(alice, "/v3/memories/", "POST", {})).body as { count: number };
    expect(listed.count).toBe(1);
  });

  it("refuses a batch that repeats an id, changing nothing", async () => {
    const id = await add(alice, "Alice grows basil");
    const refused = await as(alice, "/v1/batch/", "DELETE", {
      memories: [{ memory_id: id }, { memory_id: id }],
    });
    expect(refused.status).toBe(400);
    expect((refused.body as Body).detail).toMatch(/repeats the id/);
    expect((await as(alice, `/v1/memories/${id}/`)).status).toBe(200);
  });

  it("refuses filters nested deeper than any client writes, instead of overflowing the stack", async () => {
    // Written out by hand: JSON.stringify itself recurses.
    const depth = 5_000;
    const filters = `${'{"AND":['.repeat(depth)}{"user_id":"alice"}${"]}".repeat(depth)}`;
    const refused = await as(alice, "/v3/memories/", "POST", `{"filters":${filters}}`);
    expect(refused.status).toBe(400);
    expect((refused.body as Body).code).toBe("INVALID_FILTER");
  });

  it("refuses a page past any store, and a date that is not one", async () => {
    expect((await as(alice, "/v3/memories/?page=100000000000000000000", "POST", {})).status).toBe(400);
    const badDate = await as(alice, "/v3/memories/", "POST", { start_date: "garbage" });
    expect(badDate.status).toBe(400);
  });

  it("reads a number in a time filter as Unix seconds, and refuses a bound that is no date", async () => {
    await add(alice, "Alice plays chess by mail");
    const list = (filters: unknown) => as(alice, "/v3/memories/", "POST", { filters });
    const count = async (filters: unknown) => ((await list(filters)).body as { count: number }).count;
    const all = await count({ user_id: "alice" });
    expect(all).toBeGreaterThan(0);
    const now = Math.floor(Date.now() / 1000);
    expect(await count({ timestamp: { gte: now - 3600 } })).toBe(all);
    expect(await count({ created_at: { lt: now - 3600 } })).toBe(0);
    expect(await count({ timestamp: { gte: 4102444800 } })).toBe(0); // 2100
    expect(await count({ updated_at: { gte: "2000-01-01T00:00:00+01:00" } })).toBe(all);
    for (const filters of [{ created_at: { gte: "nope" } }, { timestamp: { lt: "yesterday" } }]) {
      const refused = await list(filters);
      expect(refused.status, JSON.stringify(filters)).toBe(400);
      expect((refused.body as Body).code).toBe("INVALID_FILTER");
    }
  });

  it("reads no field name from an object's prototype", async () => {
    // A metadata field that happens to be called "constructor": no memory has it.
    const listed = await as(alice, "/v3/memories/", "POST", { filters: { constructor: "x" } });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ count: 0 });
    const path = "/api/v1/orgs/organizations/lucid/projects/local/?fields=__proto__&fields=constructor";
    const project = await as(alice, path);
    expect(project.status).toBe(200);
    expect(project.body).toEqual({});
  });

  it("keeps each key's project settings its own, and only the settings the clients write", async () => {
    const path = "/api/v1/orgs/organizations/lucid/projects/local/";
    const patched = await as(alice, path, "PATCH", { custom_instructions: "Only food preferences." });
    expect(patched.status).toBe(200);
    expect(((await as(alice, path)).body as Body).custom_instructions).toBe("Only food preferences.");
    expect(((await as(bob, path)).body as Body).custom_instructions).toBeNull();
    expect((await as(alice, path, "PATCH", { anything: "x".repeat(10) })).status).toBe(400);
  });

  it("keeps one key's events when another's fill the log", async () => {
    await add(bob, "Bob collects stamps");
    const bobEvents = ((await as(bob, "/v1/events/")).body as { results: { id: string }[] }).results;
    const bobEvent = bobEvents[0]?.id as string;
    for (let index = 0; index < 520; index++) {
      await as(alice, "/v3/memories/add/", "POST", {
        messages: [{ role: "user", content: `Alice note ${index}` }],
      });
    }
    expect((await as(bob, `/v1/event/${bobEvent}/`)).status).toBe(200);
  }, 120_000);
});
