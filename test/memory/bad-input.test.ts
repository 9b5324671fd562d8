import { writeFileSync } from "node:fs";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Embedder } from "../../src/embed/embedder.js";
import { createOpenAICompatibleEmbedder, type Memory, openMemory } from "../../src/index.js";
import { startFakeEmbeddingServer } from "../helpers/fake-openai-server.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("bad-input");
const embedder = scriptedEmbedder(3, (text) => [text.length % 7, 1, text.includes("a") ? 1 : 0]);

/** Every memory of a user, expired ones included: the "nothing was written" check. */
async function count(memory: Memory, userId: string): Promise<number> {
  return (await memory.getAll({ filters: { user_id: userId }, showExpired: true })).total;
}

describe("bad input is a LucidError and writes nothing", () => {
  let memory: Memory;
  beforeAll(async () => {
    memory = await openMemory({ path: files.path(), embedder, maxTextBytes: 64 });
  });
  afterAll(async () => {
    await memory.close();
  });

  it("refuses empty and whitespace text", async () => {
    await expect(memory.add("", { userId: "u" })).rejects.toMatchObject({ code: "EMPTY_TEXT" });
    await expect(memory.add(" \n\t ", { userId: "u" })).rejects.toMatchObject({ code: "EMPTY_TEXT" });
    await expect(memory.add([], { userId: "u" })).rejects.toMatchObject({ code: "EMPTY_TEXT" });
    await expect(memory.add([{ role: "system", content: "rules" }], { userId: "u" })).rejects.toMatchObject({
      code: "EMPTY_TEXT",
    });
    await expect(memory.search("  ", { filters: { user_id: "u" } })).rejects.toMatchObject({
      code: "EMPTY_TEXT",
      message: expect.stringContaining("The search query is empty"),
    });
    await expect(memory.search("q".repeat(40_000), { filters: { user_id: "u" } })).rejects.toMatchObject({
      code: "TEXT_TOO_LONG",
      message: expect.stringMatching(/^The search query is 40000 bytes/),
    });
    expect(await count(memory, "u")).toBe(0);
  });

  it("refuses text over the configured limit, even as one message of many", async () => {
    await expect(memory.add("x".repeat(65), { userId: "u" })).rejects.toMatchObject({
      code: "TEXT_TOO_LONG",
    });
    await expect(
      memory.add(
        [
          { role: "user", content: "short and fine" },
          { role: "user", content: "é".repeat(33) },
        ],
        { userId: "u" },
      ),
    ).rejects.toMatchObject({ code: "TEXT_TOO_LONG" });
    expect(await count(memory, "u")).toBe(0);
  });

  it('refuses "*" as a memory\'s scope id: filters read it as "any", so the memory could not be found again', async () => {
    for (const scope of [{ userId: "*" }, { userId: "u", agentId: "*" }]) {
      await expect(memory.add("Stored under a wildcard", scope)).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
        message: expect.stringContaining('cannot be "*"'),
      });
    }
    const imported = await memory.importMemories([{ text: "Imported under a wildcard", user_id: "*" }]);
    expect(imported).toMatchObject({ imported: 0, failed: 1 });
    expect(await count(memory, "u")).toBe(0);
  });

  it("requires a scope for add, search, getAll and deleteAll", async () => {
    await expect(memory.add("no scope")).rejects.toMatchObject({ code: "SCOPE_REQUIRED" });
    await expect(memory.search("anything")).rejects.toMatchObject({ code: "SCOPE_REQUIRED" });
    await expect(memory.search("anything", { filters: { category: "rule" } })).rejects.toMatchObject({
      code: "SCOPE_REQUIRED",
    });
    await expect(memory.getAll()).rejects.toMatchObject({ code: "SCOPE_REQUIRED" });
    await expect(memory.deleteAll({})).rejects.toMatchObject({ code: "SCOPE_REQUIRED" });
  });

  it("refuses unknown filter operators and malformed filters", async () => {
    await expect(
      memory.search("q", { filters: { user_id: "u", category: { like: "x%" } } }),
    ).rejects.toMatchObject({ code: "UNKNOWN_FILTER_OPERATOR" });
    await expect(memory.search("q", { filters: { user_id: "u", OR: [] } })).rejects.toMatchObject({
      code: "INVALID_FILTER",
    });
    await expect(memory.getAll({ filters: { user_id: "u", "bad key!": 1 } })).rejects.toMatchObject({
      code: "INVALID_FILTER",
    });
    await expect(
      memory.search("q", { filters: "user_id = 'u'" as unknown as Record<string, unknown> }),
    ).rejects.toMatchObject({ code: "INVALID_FILTER" });
  });

  it("refuses bad options", async () => {
    await expect(memory.search("q", { filters: { user_id: "u" }, topK: -1 })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    await expect(memory.search("q", { filters: { user_id: "u" }, threshold: 2 })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    await expect(memory.getAll({ filters: { user_id: "u" }, page: 0 })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    await expect(memory.add("text", { userId: "has space" })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    await expect(memory.add("text", { userId: "u", createdAt: "not a date" })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    expect(await count(memory, "u")).toBe(0);
  });

  it("treats an unknown id as missing: null from get, MEMORY_NOT_FOUND from update and delete", async () => {
    expect(await memory.get("does-not-exist")).toBeNull();
    await expect(memory.update("does-not-exist", "x")).rejects.toMatchObject({ code: "MEMORY_NOT_FOUND" });
    await expect(memory.delete("does-not-exist")).rejects.toMatchObject({ code: "MEMORY_NOT_FOUND" });
    expect(await memory.history("does-not-exist")).toEqual([]);
  });
});

describe("embedders that misbehave", () => {
  it("refuses vectors of the wrong dimension and writes nothing", async () => {
    const liar: Embedder = { id: "liar", dimension: 4, embed: async (texts) => texts.map(() => [1, 2, 3]) };
    const memory = await openMemory({ path: files.path(), embedder: liar });
    await expect(memory.add("fact", { userId: "u" })).rejects.toMatchObject({
      code: "EMBEDDING_DIMENSION_MISMATCH",
    });
    expect(await count(memory, "u")).toBe(0);
    await memory.close();
  });

  it("refuses an object that is not an embedder", async () => {
    const notAnEmbedder = { dimension: 3 } as unknown as Embedder;
    await expect(openMemory({ path: files.path(), embedder: notAnEmbedder })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });

  it("refuses to open a store with a different embedder than wrote it", async () => {
    const path = files.path();
    const first = await openMemory({ path, embedder });
    await first.add("written with the scripted embedder", { userId: "u" });
    await first.close();
    const other = scriptedEmbedder(3, () => [1, 0, 0], "another-model");
    await expect(openMemory({ path, embedder: other })).rejects.toMatchObject({ code: "EMBEDDER_MISMATCH" });
    const wider = scriptedEmbedder(5, () => [1, 0, 0, 0, 0], embedder.id);
    await expect(openMemory({ path, embedder: wider })).rejects.toMatchObject({ code: "EMBEDDER_MISMATCH" });
  });

  it("works end to end with an OpenAI-compatible server on loopback", async () => {
    const server = await startFakeEmbeddingServer({ dimension: 8 });
    try {
      const remote = createOpenAICompatibleEmbedder({
        baseURL: server.baseURL,
        model: "fake-embed",
        dimension: 8,
      });
      const memory = await openMemory({ path: files.path(), embedder: remote });
      await memory.add("Remote embedded fact about kayaks", { userId: "u" });
      const { results } = await memory.search("kayaks", { filters: { user_id: "u" }, threshold: 0 });
      expect(results[0]?.memory).toBe("Remote embedded fact about kayaks");
      expect(server.requests.length).toBeGreaterThanOrEqual(2);
      await memory.close();
    } finally {
      await server.close();
    }
  });
});

describe("stores that cannot be written", () => {
  it("fails with STORE_BUSY while another process holds the lock, and writes nothing", async () => {
    const path = files.path();
    const memory = await openMemory({ path, embedder, busyTimeoutMs: 50 });
    const other = new Database(path);
    other.exec("begin immediate");
    try {
      await expect(memory.add("blocked write", { userId: "u" })).rejects.toMatchObject({
        code: "STORE_BUSY",
      });
    } finally {
      other.exec("rollback");
      other.close();
    }
    expect(await count(memory, "u")).toBe(0);
    await memory.add("after the lock", { userId: "u" });
    expect(await count(memory, "u")).toBe(1);
    await memory.close();
  });

  it("fails with STORE_READ_ONLY on a read-only open, and reads still work", async () => {
    const path = files.path();
    const writer = await openMemory({ path, embedder });
    await writer.add("already here", { userId: "u" });
    await writer.close();
    const reader = await openMemory({ path, embedder, readOnly: true });
    await expect(reader.add("new", { userId: "u" })).rejects.toMatchObject({ code: "STORE_READ_ONLY" });
    expect((await reader.search("already", { filters: { user_id: "u" } })).results).toHaveLength(1);
    expect(await count(reader, "u")).toBe(1);
    await reader.close();
  });

  it("refuses a corrupt file with STORE_CORRUPT", async () => {
    const path = files.path();
    writeFileSync(path, "this is not a database, it is a shopping list\n".repeat(200));
    await expect(openMemory({ path, embedder })).rejects.toMatchObject({ code: "STORE_CORRUPT" });
  });
});
