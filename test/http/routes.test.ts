/**
 * The routes MemoryClient does not call, raw: the v1 add and v2 search and list (bare arrays), the
 * events of adds, platform filters, pages; and what the transport refuses: no or a bad key (401), a
 * body over the limit (413), too many requests (429), a bare delete-everything (400), other pages
 * and hosts (403), and a non-loopback bind without keys.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventRegistry } from "../../src/edge/events.js";
import { startRestServer } from "../../src/http/server.js";
import { isLucidError } from "../../src/index.js";
import { startTestServer, type TestServer } from "./rest-server.js";

type Body = Record<string, unknown>;

describe("REST API routes", () => {
  let server: TestServer & { keys: string[] };
  let key: string;
  const post = (path: string, body: unknown) => server.call(path, { method: "POST", key, body });

  beforeAll(async () => {
    server = await startTestServer({ keys: [{ user_id: "alice" }] });
    key = server.keys[0] as string;
  });
  afterAll(async () => {
    await server.close();
  });

  it("serves every route with and without the trailing slash", async () => {
    for (const path of ["/v1/ping", "/v1/ping/", "/v1/entities", "/v1/events/"]) {
      expect((await server.call(path, { key })).status).toBe(200);
    }
    expect((await post("/v3/memories", {})).status).toBe(200);
    expect((await post("/v3/memories/search", { query: "x" })).status).toBe(200);
  });

  it("adds through v1 (an array), records the add as a SUCCEEDED event, lists and searches through v2 (bare arrays)", async () => {
    const added = await post("/v1/memories/", {
      messages: [{ role: "user", content: "Alice is allergic to peanuts" }],
      metadata: { source: "openclaw" },
    });
    expect(added.status).toBe(200);
    const [item] = added.body as Body[];
    expect(item).toMatchObject({
      memory: "Alice is allergic to peanuts",
      data: { memory: "Alice is allergic to peanuts" },
      event: "ADD",
      status: "SUCCEEDED",
      event_id: expect.stringMatching(/^evt_/),
    });
    const event = await server.call(`/v1/event/${item?.event_id as string}/`, { key });
    expect(event.body).toMatchObject({
      id: item?.event_id,
      event_type: "ADD",
      status: "SUCCEEDED",
      results: [expect.objectContaining({ id: item?.id, memory: "Alice is allergic to peanuts" })],
    });
    const events = await server.call("/v1/events/", { key });
    expect((events.body as { results: Body[] }).results.map((listed) => listed.id)).toContain(item?.event_id);

    const found = await post("/v2/memories/search/", { query: "peanuts allergy", top_k: 10, threshold: 0.1 });
    expect(Array.isArray(found.body)).toBe(true);
    expect((found.body as Body[])[0]).toMatchObject({
      id: item?.id,
      user_id: "alice",
      metadata: { source: "openclaw" },
    });
    const listed = await post("/v2/memories/?page=1&page_size=50", { filters: { user_id: "alice" } });
    expect((listed.body as Body[]).map((memory) => memory.id)).toContain(item?.id);
  });

  it("stores openclaw-mem0's deduced memories as given when infer is false", async () => {
    const added = await post("/v3/memories/add/", {
      messages: [{ role: "user", content: "I moved to Oslo last week, it is cold" }],
      infer: false,
      source: "OPENCLAW",
      deduced_memories: ["Alice lives in Oslo"],
    });
    expect((added.body as { results: Body[] }).results.map((result) => result.memory)).toEqual([
      "Alice lives in Oslo",
    ]);
  });

  it("refuses infer: true without a configured LLM, saying so (400, LLM_NOT_CONFIGURED)", async () => {
    const response = await post("/v3/memories/add/", { messages: "Alice likes kites", infer: true });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: "LLM_NOT_CONFIGURED", detail: expect.any(String) });
  });

  it("maps the platform's filters: memory_ids, metadata, categories, dates, AND / NOT", async () => {
    const add = async (content: string, extra: Body = {}) =>
      ((await post("/v3/memories/add/", { messages: content, ...extra })).body as { results: Body[] })
        .results[0]?.id as string;
    const tea = await add("Alice likes tea", { metadata: { source: "chat", category: "preference" } });
    const boat = await add("Alice owns a boat", { metadata: { source: "import" } });
    const ids = async (filters: unknown) =>
      ((await post("/v3/memories/", { filters })).body as { results: Body[] }).results.map(
        (memory) => memory.id,
      );
    expect(await ids({ memory_ids: { in: [tea, boat] } })).toEqual(expect.arrayContaining([tea, boat]));
    expect(await ids({ AND: [{ user_id: "alice" }, { metadata: { source: "import" } }] })).toEqual([boat]);
    expect(await ids({ categories: { in: ["preference"] } })).toEqual([tea]);
    expect(await ids({ categories: { contains: "preference" } })).toEqual([tea]);
    expect(
      await ids({ AND: [{ memory_ids: [tea, boat] }, { NOT: { metadata: { source: "chat" } } }] }),
    ).toEqual([boat]);
    expect(await ids({ AND: [{ created_at: { gte: "2000-01-01" } }, { memory_ids: [tea] }] })).toEqual([tea]);
    expect(await ids({ AND: [{ created_at: { lt: "2000-01-01" } }, { memory_ids: [tea] }] })).toEqual([]);
    const memory = await server.call(`/v1/memories/${tea}/`, { key });
    expect(memory.body).toMatchObject({ categories: ["preference"], metadata: { source: "chat" } });
    const refused = await post("/v3/memories/", { filters: { keywords: { contains: "tea" } } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "INVALID_FILTER" });
  });

  it("pages a list with next and previous links", async () => {
    for (const food of ["apples", "pears", "plums"])
      await post("/v3/memories/add/", { messages: `Alice buys ${food}` });
    const first = (await post("/v3/memories/?page=1&page_size=2", {})).body as {
      count: number;
      next: string;
      previous: null;
      results: Body[];
    };
    expect(first.results).toHaveLength(2);
    expect(first.previous).toBeNull();
    const next = new URL(first.next);
    expect(next.searchParams.get("page")).toBe("2");
    const second = (await post(`${next.pathname}${next.search}`, {})).body as {
      previous: string;
      results: Body[];
    };
    expect(second.previous).not.toBeNull();
    expect(second.results.map((memory) => memory.id)).not.toContain(first.results[0]?.id);
  });

  it("refuses a bare DELETE /v1/memories/ with 400, deleting nothing", async () => {
    const before = ((await post("/v3/memories/", {})).body as { count: number }).count;
    const response = await server.call("/v1/memories/", { method: "DELETE", key });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: "INVALID_ARGUMENT",
      detail: expect.stringContaining("user_id"),
    });
    expect(((await post("/v3/memories/", {})).body as { count: number }).count).toBe(before);
  });

  it("changes nothing of a batch update when one of its texts cannot be stored", async () => {
    const first = (await server.memory.add("Alice owns a cat named Tom", { userId: "alice" })).results[0]?.id;
    const second = (await server.memory.add("Alice rides a blue bike", { userId: "alice" })).results[0]?.id;
    const refused = await server.call("/v1/batch/", {
      method: "PUT",
      key,
      body: {
        memories: [
          { memory_id: first, text: "Alice owns a dog named Rex" },
          { memory_id: second, text: "   " },
        ],
      },
    });
    expect(refused.status).toBe(400);
    expect((await server.memory.get(first as string))?.memory).toBe("Alice owns a cat named Tom");
    expect((await server.memory.get(second as string))?.memory).toBe("Alice rides a blue bike");
  });

  it("answers bad input with {detail} and the kind's status", async () => {
    expect(await post("/v3/memories/search/", {})).toMatchObject({
      status: 400,
      body: { code: "INVALID_ARGUMENT" },
    });
    expect(await post("/v3/memories/search/", "{not json")).toMatchObject({ status: 400 });
    expect(await server.call("/v1/memories/x/", { method: "PUT", key, body: {} })).toMatchObject({
      status: 404,
    });
    expect(await server.call("/v1/batch/", { method: "PUT", key, body: {} })).toMatchObject({ status: 400 });
    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ memory_id: `m${i}` }));
    expect(
      await server.call("/v1/batch/", { method: "DELETE", key, body: { memories: tooMany } }),
    ).toMatchObject({
      status: 400,
    });
    expect(await server.call("/v9/nothing/", { key })).toMatchObject({
      status: 404,
      body: { detail: expect.any(String) },
    });
    expect(await server.call("/api/v1/orgs/organizations/other/projects/local/", { key })).toMatchObject({
      status: 400,
    });
  });

  it("needs a valid key once keys exist: 401 without one or with a bad one; Bearer works too", async () => {
    const none = await server.call("/v1/ping/");
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ code: "UNAUTHORIZED", detail: expect.stringContaining("Token") });
    expect((await server.call("/v1/ping/", { key: "lucid_wrong" })).status).toBe(401);
    expect((await server.call("/v1/ping/", { headers: { Authorization: `Bearer ${key}` } })).status).toBe(
      200,
    );
  });

  it("sees a key revoked while it runs", async () => {
    const { keysFileOf, readKeys, revokeKey } = await import("../../src/http/key-store.js");
    const temporary = await server.key({ user_id: "alice" });
    expect((await server.call("/v1/ping/", { key: temporary })).status).toBe(200);
    const records = await readKeys(keysFileOf(server.home));
    await revokeKey(keysFileOf(server.home), records[records.length - 1]?.id as string);
    expect((await server.call("/v1/ping/", { key: temporary })).status).toBe(401);
    expect((await server.call("/v1/ping/", { key })).status).toBe(200);
  });

  it("refuses a request from another web page", async () => {
    const response = await server.call("/v1/ping/", { key, headers: { Origin: "https://evil.example" } });
    expect(response.status).toBe(403);
  });
});

describe("REST API limits", () => {
  it("answers a body over the limit with 413", async () => {
    const server = await startTestServer({ keys: [{ user_id: "alice" }], maxBodyBytes: 2048 });
    try {
      const big = await server.call("/v3/memories/add/", {
        method: "POST",
        key: server.keys[0] as string,
        body: { messages: "x".repeat(10_000) },
      });
      expect(big.status).toBe(413);
      expect(big.body).toMatchObject({ code: "BODY_TOO_LARGE" });
      const small = await server.call("/v3/memories/add/", {
        method: "POST",
        key: server.keys[0] as string,
        body: { messages: "Alice sails" },
      });
      expect(small.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("answers a key past its rate with 429 and Retry-After, other keys unaffected", async () => {
    const server = await startTestServer({
      keys: [{ user_id: "alice" }, { user_id: "bob" }],
      rateLimit: { perSecond: 0.01, burst: 3 },
    });
    try {
      const [alice, bob] = server.keys as [string, string];
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await server.call("/v1/ping/", { key: alice })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const limited = await server.call("/v1/ping/", { key: alice });
      expect(limited.body).toMatchObject({ code: "RATE_LIMITED" });
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect((await server.call("/v1/ping/", { key: bob })).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe("REST API without keys", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ defaults: { userId: "local" } });
  });
  afterAll(async () => {
    await server.close();
  });

  it("serves this machine without a key, in the scope a request names or the default one", async () => {
    await server.call("/v3/memories/add/", {
      method: "POST",
      body: { messages: "Carol rides horses", user_id: "carol" },
    });
    await server.call("/v3/memories/add/", { method: "POST", body: { messages: "The default user skis" } });
    const carol = await server.call("/v3/memories/", {
      method: "POST",
      body: { filters: { user_id: "carol" } },
    });
    expect((carol.body as { results: Body[] }).results.map((memory) => memory.memory)).toEqual([
      "Carol rides horses",
    ]);
    const local = await server.call("/v3/memories/", { method: "POST", body: {} });
    expect((local.body as { results: Body[] }).results.map((memory) => memory.memory)).toEqual([
      "The default user skis",
    ]);
    const entities = await server.call("/v1/entities/");
    expect((entities.body as { results: Body[] }).results.map((entity) => entity.name)).toEqual([
      "carol",
      "local",
    ]);
  });

  it("refuses a Host that is not this machine (DNS rebinding)", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.url}/v1/ping/`, { headers: { Host: "evil.example" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it("refuses to listen on a non-loopback address while no key exists", async () => {
    const error = await startRestServer({
      memory: server.memory,
      events: new EventRegistry(),
      home: server.home,
      host: "0.0.0.0",
      port: 0,
    }).catch((caught: unknown) => caught);
    expect(isLucidError(error, "INVALID_ARGUMENT")).toBe(true);
    expect((error as Error).message).toContain("lucid keys create");
  });
});
