import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalEmbedder } from "../../src/embed/local/local-embedder.js";
import { type Memory, openMemory } from "../../src/index.js";
import { SCHEMA_VERSION } from "../../src/store/sqlite/sqlite-schema.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("forget-status");

describe("forget", () => {
  let memory: Memory;
  beforeAll(async () => {
    memory = await openMemory({ path: files.path(), embedder: createLocalEmbedder() });
    for (const text of [
      "Alice has a dog named Poppy",
      "Alice is allergic to peanuts",
      "Alice prefers TypeScript for backend services",
      "Alice prefers TypeScript for frontend work too",
    ]) {
      await memory.add(text, { userId: "alice" });
    }
  });
  afterAll(async () => {
    await memory.close();
  });

  it("deletes a clear best match", async () => {
    const result = await memory.forget("the dog Poppy", { filters: { user_id: "alice" } });
    expect(result.deleted?.memory).toBe("Alice has a dog named Poppy");
    expect(result.candidates[0]?.id).toBe(result.deleted?.id);
    expect(await memory.get(result.deleted?.id ?? "")).toBeNull();
  });

  it("deletes nothing and lists candidates when two memories match about equally", async () => {
    const result = await memory.forget("Alice prefers TypeScript", { filters: { user_id: "alice" } });
    expect(result.deleted).toBeNull();
    expect(
      result.candidates
        .slice(0, 2)
        .map((item) => item.memory)
        .sort(),
    ).toEqual([
      "Alice prefers TypeScript for backend services",
      "Alice prefers TypeScript for frontend work too",
    ]);
    expect((await memory.getAll({ filters: { user_id: "alice" } })).total).toBe(3);
  });

  it("never deletes for a query that names nothing, even the only memory it resembles", async () => {
    // A lone memory that "the important thing" reaches above the 0.4 bar: the score alone used to delete it.
    await memory.add("This is important to the user", { userId: "rita" });
    for (const query of ["the important thing", "something important", "that", "it"]) {
      const result = await memory.forget(query, { filters: { user_id: "rita" } });
      expect(result.deleted, query).toBeNull();
    }
    expect((await memory.getAll({ filters: { user_id: "rita" } })).total).toBe(1);
    const named = await memory.forget("important to the user", { filters: { user_id: "rita" } });
    expect(named.deleted?.memory).toBe("This is important to the user");
  });

  it("deletes nothing when nothing matches well", async () => {
    const result = await memory.forget("quarterly revenue projections", { filters: { user_id: "alice" } });
    expect(result.deleted).toBeNull();
    expect((await memory.getAll({ filters: { user_id: "alice" } })).total).toBe(3);
  });
});

describe("status and reembed", () => {
  const first = scriptedEmbedder(3, (text) => [1, text.length % 3, 0], "model-a");
  const second = scriptedEmbedder(4, (text) => [0, 0, 1, text.length % 4], "model-b");

  it("reports location, embedder and counts by scope and category", async () => {
    const now = { value: new Date("2026-06-01T00:00:00Z") };
    const path = files.path();
    const memory = await openMemory({ path, embedder: first, clock: { now: () => now.value } });
    await memory.add("Alice fact", { userId: "alice", category: "preference" });
    await memory.add("Alice ops", { userId: "alice", agentId: "ops", category: "operational" });
    await memory.add("Bob fact", { userId: "bob" });
    now.value = new Date("2026-07-01T00:00:00Z");
    const status = await memory.status();
    expect(status).toMatchObject({
      location: path,
      schemaVersion: SCHEMA_VERSION,
      embedder: { id: "model-a", dimension: 3 },
      pendingEmbedder: null,
      total: 3,
      expired: 1,
      byScope: { user_id: { alice: 2, bob: 1 }, agent_id: { ops: 1 }, app_id: {}, run_id: {} },
      byCategory: { "": 1, operational: 1, preference: 1 },
    });
    expect(status.sizeBytes).toBeGreaterThan(0);
    await memory.close();
  });

  it("switches a store to another embedder, resumably", async () => {
    const path = files.path();
    const memory = await openMemory({ path, embedder: first });
    for (let index = 0; index < 7; index++)
      await memory.add(`Fact number ${index} about kayaks`, { userId: "u" });
    await memory.close();

    await expect(openMemory({ path, embedder: second })).rejects.toMatchObject({ code: "EMBEDDER_MISMATCH" });
    const switching = await openMemory({ path, embedder: second, allowEmbedderChange: true });
    expect((await switching.status()).pendingEmbedder).toEqual({ id: "model-b", dimension: 4 });
    await expect(switching.add("new", { userId: "u" })).rejects.toMatchObject({ code: "EMBEDDER_MISMATCH" });
    await expect(switching.search("kayaks", { filters: { user_id: "u" } })).rejects.toMatchObject({
      code: "EMBEDDER_MISMATCH",
    });

    // An interrupted run: the embedder fails after the first batch.
    let calls = 0;
    const flaky = scriptedEmbedder(
      4,
      (text) => {
        calls++;
        if (calls > 3) throw new Error("embedding service went away");
        return [0, 0, 1, text.length % 4];
      },
      "model-b",
    );
    const interrupted = await openMemory({ path, embedder: flaky, allowEmbedderChange: true });
    await expect(interrupted.reembed({ batchSize: 3 })).rejects.toThrow("went away");
    await interrupted.close();
    await switching.close();

    const resumed = await openMemory({ path, embedder: second, allowEmbedderChange: true });
    const progress: { done: number; total: number }[] = [];
    const result = await resumed.reembed({ batchSize: 3, onProgress: (step) => progress.push(step) });
    expect(result).toEqual({ reembedded: 4, total: 7 });
    expect(progress.at(-1)).toEqual({ done: 7, total: 7 });
    expect((await resumed.status()).embedder).toEqual({ id: "model-b", dimension: 4 });
    const found = await resumed.search("kayaks", { filters: { user_id: "u" }, threshold: 0 });
    expect(found.results).toHaveLength(7);
    await resumed.add("added after the switch", { userId: "u" });
    await resumed.close();

    const reopened = await openMemory({ path, embedder: second });
    expect((await reopened.getAll({ filters: { user_id: "u" } })).total).toBe(8);
    await reopened.close();
  });
});
