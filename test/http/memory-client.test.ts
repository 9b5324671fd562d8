/**
 * The real `mem0ai` MemoryClient (3.3.1 and 3.0.7) against `lucid serve` on loopback, every method
 * the server supports round-tripped, as a Mem0 user would call them.
 */
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { describeWithMem0Clients, type Mem0Client, type MemoryClientLike } from "../helpers/mem0-clients.js";
import { startTestServer, type TestServer } from "./rest-server.js";

describeWithMem0Clients("MemoryClient against lucid serve", (load) => {
  let mem0: Mem0Client;
  let server: TestServer & { keys: string[] };
  let alice: MemoryClientLike;

  beforeAll(async () => {
    mem0 = await load();
    server = await startTestServer({ keys: [{ user_id: "alice" }] });
    alice = new mem0.MemoryClient({ apiKey: server.keys[0] as string, host: server.url });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await server.close();
  });

  it("pings, and gets and updates the project the ping names", async () => {
    await expect(alice.ping()).resolves.toBeUndefined();
    const project = await alice.getProject({ fields: ["custom_categories", "custom_instructions"] });
    expect(project).toEqual({ customCategories: [], customInstructions: null });
    await alice.updateProject({ custom_instructions: "Keep food preferences." });
    expect(await alice.getProject({ fields: ["custom_instructions"] })).toEqual({
      customInstructions: "Keep food preferences.",
    });
  });

  it("adds, lists, searches, gets, updates, shows history, deletes, then 404s", async () => {
    const added = (await alice.add([{ role: "user", content: "Alice drinks green tea every morning" }], {
      user_id: "alice",
      metadata: { source: "chat" },
    })) as unknown as {
      status: string;
      eventId: string;
      results: { id: string; memory: string; event: string; data: { memory: string } }[];
    };
    expect(added.status).toBe("SUCCEEDED");
    expect(added.eventId).toMatch(/^evt_/);
    expect(added.results).toHaveLength(1);
    const [first] = added.results;
    const id = first?.id as string;
    expect(first).toMatchObject({
      memory: "Alice drinks green tea every morning",
      event: "ADD",
      data: { memory: "Alice drinks green tea every morning" },
    });

    const all = await alice.getAll({ filters: { user_id: "alice" }, page: 1, pageSize: 10 });
    expect(all).toMatchObject({ count: 1, next: null, previous: null });
    expect((all.results as { id: string }[]).map((memory) => memory.id)).toEqual([id]);

    const found = await alice.search("green tea", { filters: { user_id: "alice" }, topK: 5 });
    expect(found.results[0]).toMatchObject({ id, userId: "alice", metadata: { source: "chat" } });
    expect(found.results[0]?.score).toBeGreaterThan(0);

    const got = await alice.get(id);
    expect(got).toMatchObject({ id, memory: "Alice drinks green tea every morning", userId: "alice" });
    expect(typeof got.createdAt).toBe("string");

    await alice.update(id, { text: "Alice drinks oolong tea every morning", metadata: { mood: "calm" } });
    expect(await alice.get(id)).toMatchObject({
      memory: "Alice drinks oolong tea every morning",
      metadata: { source: "chat", mood: "calm" },
    });

    const history = await alice.history(id);
    expect(history.map((row) => row.event)).toEqual(["ADD", "UPDATE"]);
    expect(history[1]).toMatchObject({
      memoryId: id,
      oldMemory: "Alice drinks green tea every morning",
      newMemory: "Alice drinks oolong tea every morning",
    });

    expect((await alice.delete(id)).message).toEqual(expect.any(String));
    await expect(alice.get(id)).rejects.toBeInstanceOf(mem0.errors.MemoryNotFoundError);
  });

  it("refuses getAll with a top-level user id on the client side, as Mem0 does", async () => {
    await expect(alice.getAll({ user_id: "alice" })).rejects.toThrow();
  });

  it("batch-updates and batch-deletes", async () => {
    const added = (await alice.add(
      [
        { role: "user", content: "Alice lives in Lisbon" },
        { role: "user", content: "Alice works as a pilot" },
      ],
      { user_id: "alice" },
    )) as unknown as { results: { id: string }[] };
    const ids = added.results.map((result) => result.id);
    expect(ids).toHaveLength(2);
    await alice.batchUpdate([{ memoryId: ids[0] as string, text: "Alice lives in Porto" }]);
    expect((await alice.get(ids[0] as string)).memory).toBe("Alice lives in Porto");
    await alice.batchDelete(ids);
    for (const id of ids) await expect(alice.get(id)).rejects.toBeInstanceOf(mem0.errors.MemoryNotFoundError);
  });

  it("deletes all of a scope's memories, and refuses deleteAll without options", async () => {
    await alice.add([{ role: "user", content: "Alice owns a red bicycle" }], {
      user_id: "alice",
      agent_id: "coach",
    });
    await alice.add([{ role: "user", content: "Alice plays the cello" }], { user_id: "alice" });
    await expect(alice.deleteAll()).rejects.toBeInstanceOf(mem0.errors.ValidationError);
    await alice.deleteAll({ user_id: "alice", agent_id: "coach" });
    const left = await alice.getAll({ filters: { user_id: "alice" } });
    expect((left.results as { memory: string }[]).map((memory) => memory.memory)).toEqual([
      "Alice plays the cello",
    ]);
    await alice.deleteAll({ user_id: "alice" });
    expect(await alice.getAll({ filters: { user_id: "alice" } })).toMatchObject({ count: 0 });
  });

  it("lists entities, and deletes them", async () => {
    await alice.add([{ role: "user", content: "Alice prefers window seats" }], {
      user_id: "alice",
      agent_id: "travel",
    });
    const users = await alice.users();
    const results = users.results as { name: string; type: string; totalMemories: number }[];
    expect(results).toEqual([
      expect.objectContaining({ name: "alice", type: "user", totalMemories: 1 }),
      expect.objectContaining({ name: "travel", type: "agent", totalMemories: 1 }),
    ]);
    expect(users.count).toBe(2);
    await alice.deleteUsers({ agentId: "travel" });
    expect(await alice.getAll({ filters: { user_id: "alice" } })).toMatchObject({ count: 0 });
    await alice.add([{ role: "user", content: "Alice collects stamps" }], { user_id: "alice" });
    await alice.deleteUser({ entity_type: "user", entity_id: "alice" as unknown as number });
    expect(await alice.getAll({ filters: { user_id: "alice" } })).toMatchObject({ count: 0 });
    await alice.add([{ role: "user", content: "Alice bakes bread" }], { user_id: "alice" });
    await alice.deleteUsers();
    expect(await alice.getAll({ filters: { user_id: "alice" } })).toMatchObject({ count: 0 });
  });

  it("maps a bad key to AuthenticationError", async () => {
    // The client logs its failed construction ping; that line is expected here.
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const stranger = new mem0.MemoryClient({ apiKey: "lucid_not-a-key", host: server.url });
    await expect(stranger.getAll({ filters: { user_id: "alice" } })).rejects.toBeInstanceOf(
      mem0.errors.AuthenticationError,
    );
  });

  it("maps a body over the limit to MemoryQuotaExceededError and a spent rate to RateLimitError", async () => {
    const limited = await startTestServer({
      keys: [{ user_id: "alice" }],
      maxBodyBytes: 1024,
      rateLimit: { perSecond: 0.01, burst: 4 },
    });
    try {
      const client = new mem0.MemoryClient({ apiKey: limited.keys[0] as string, host: limited.url });
      await expect(
        client.add([{ role: "user", content: "x".repeat(5000) }], { user_id: "alice" }),
      ).rejects.toBeInstanceOf(mem0.errors.MemoryQuotaExceededError);
      const outcomes: unknown[] = [];
      for (let i = 0; i < 5; i++)
        outcomes.push(await client.get("no-such-id").catch((error: unknown) => error));
      expect(outcomes.at(-1)).toBeInstanceOf(mem0.errors.RateLimitError);
    } finally {
      await limited.close();
    }
  });

  it("records feedback on a memory as its metadata, and clears it", async () => {
    const added = (await alice.add([{ role: "user", content: "Alice collects vinyl records" }], {
      user_id: "alice",
    })) as unknown as { results: { id: string }[] };
    const id = added.results[0]?.id as string;
    const recorded = await alice.feedback({ memoryId: id, feedback: "NEGATIVE", feedbackReason: "outdated" });
    expect(recorded.message).toBe("Feedback recorded.");
    // Read from the store: 3.0.7 camelizes the metadata keys it returns.
    expect((await server.memory.get(id))?.metadata).toMatchObject({
      feedback: "NEGATIVE",
      feedback_reason: "outdated",
    });
    await alice.feedback({ memoryId: id, feedback: null });
    expect((await server.memory.get(id))?.metadata).not.toHaveProperty("feedback");
    await expect(alice.feedback({ memoryId: id, feedback: "MEH" })).rejects.toBeInstanceOf(
      mem0.errors.ValidationError,
    );
    await expect(
      alice.feedback({ memoryId: "00000000-0000-4000-8000-000000000000", feedback: "POSITIVE" }),
    ).rejects.toBeInstanceOf(mem0.errors.MemoryNotFoundError);
  });

  it("answers the platform features Lucid does not serve (webhooks, exports) with a 404 naming the route", async () => {
    await expect(alice.getWebhooks()).rejects.toThrow(/not a route of this server/);
    await expect(alice.createMemoryExport({ schema: {}, filters: { user_id: "alice" } })).rejects.toThrow(
      /not a route of this server/,
    );
  });

  it("maps a scope the key is not bound to to AuthenticationError (403)", async () => {
    await expect(
      alice.add([{ role: "user", content: "Bob likes jazz" }], { user_id: "bob" }),
    ).rejects.toBeInstanceOf(mem0.errors.AuthenticationError);
    await expect(alice.search("jazz", { filters: { user_id: "bob" } })).rejects.toBeInstanceOf(
      mem0.errors.AuthenticationError,
    );
    await expect(alice.deleteAll({ user_id: "bob" })).rejects.toBeInstanceOf(mem0.errors.AuthenticationError);
  });
});
