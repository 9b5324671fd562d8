import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalEmbedder } from "../../src/embed/local/local-embedder.js";
import { type Memory, openMemory } from "../../src/index.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("add");
const embedder = createLocalEmbedder();
let memory: Memory;

beforeAll(async () => {
  memory = await openMemory({ path: files.path(), embedder });
});
afterAll(async () => {
  await memory.close();
});

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

describe("add", () => {
  it("stores a string verbatim with its scope, metadata and timestamps", async () => {
    const { results } = await memory.add("User prefers TypeScript for backend services", {
      userId: "alice",
      appId: "billing",
      metadata: { source: "chat", confidence: 0.9, pinned: true },
    });
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      event: "ADD",
      memory: "User prefers TypeScript for backend services",
    });
    const item = await memory.get(results[0]?.id ?? "");
    expect(item).toMatchObject({
      memory: "User prefers TypeScript for backend services",
      user_id: "alice",
      app_id: "billing",
      metadata: { source: "chat", confidence: 0.9, pinned: true },
    });
    expect(item?.agent_id).toBeUndefined();
    expect(item?.createdAt).toBe(item?.updatedAt);
    expect(item?.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("stores each non-system message of a conversation as its own memory", async () => {
    const { results } = await memory.add(
      [
        { role: "system", content: "You are a helpful assistant." },
        { role: "user", content: "I adopted a cat named Miso." },
        { role: "assistant", content: "Miso is a lovely name for a cat." },
      ],
      { userId: "conv-user" },
    );
    expect(results.map((result) => result.memory)).toEqual([
      "I adopted a cat named Miso.",
      "Miso is a lovely name for a cat.",
    ]);
    const all = await memory.getAll({ filters: { user_id: "conv-user" } });
    expect(all.total).toBe(2);
  });

  it("never modifies the caller's options, filters or metadata", async () => {
    const options = deepFreeze({
      filters: { user_id: "frozen" },
      metadata: { tags: ["a"], nested: { x: 1 }, user_id: "spoof" },
      category: "preference",
    });
    const messages = deepFreeze([{ role: "user", content: "Frozen inputs stay frozen" }]);
    const { results } = await memory.add(messages, options);
    expect(results[0]?.event).toBe("ADD");
    const item = await memory.get(results[0]?.id ?? "");
    // Identity keys in metadata cannot move a memory to another scope.
    expect(item).toMatchObject({
      user_id: "frozen",
      metadata: { tags: ["a"], nested: { x: 1 }, category: "preference" },
    });
    expect(item?.metadata.user_id).toBeUndefined();
  });

  it("does not store the same normalised text twice in one scope", async () => {
    const first = await memory.add("User drinks oat milk.", { userId: "dup" });
    const again = await memory.add("  user drinks OAT milk ", { userId: "dup" });
    expect(again.results).toEqual([expect.objectContaining({ id: first.results[0]?.id, event: "NONE" })]);
    const elsewhere = await memory.add("User drinks oat milk.", { userId: "dup", agentId: "barista" });
    expect(elsewhere.results[0]?.event).toBe("ADD");
    const inOneCall = await memory.add(
      [
        { role: "user", content: "Same line" },
        { role: "user", content: "same line." },
      ],
      { userId: "dup" },
    );
    expect(inOneCall.results).toHaveLength(1);
    expect((await memory.getAll({ filters: { user_id: "dup" } })).total).toBe(3);
  });

  it("keeps import-style ids and timestamps", async () => {
    await memory.add("Imported from Mem0", {
      userId: "importer",
      id: "mem0-import-1",
      createdAt: "2024-03-01T10:00:00Z",
      updatedAt: "2024-04-01T10:00:00Z",
    });
    const item = await memory.get("mem0-import-1");
    expect(item).toMatchObject({
      createdAt: "2024-03-01T10:00:00.000Z",
      updatedAt: "2024-04-01T10:00:00.000Z",
    });
    await expect(
      memory.add("Another text", { userId: "importer", id: "mem0-import-1" }),
    ).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });

  it("files memories by category from the option, metadata.category or metadata.type", async () => {
    const explicit = await memory.add("Deploys go to Fly.io", { userId: "cat", category: "decision" });
    const fromMetadata = await memory.add("Use pnpm", { userId: "cat", metadata: { category: "rule" } });
    const fromType = await memory.add("Sprint ends Friday", { userId: "cat", metadata: { type: "project" } });
    const freeType = await memory.add("A note", { userId: "cat", metadata: { type: "note" } });
    const categoryOf = async (id: string | undefined) => (await memory.get(id ?? ""))?.metadata.category;
    expect(await categoryOf(explicit.results[0]?.id)).toBe("decision");
    expect(await categoryOf(fromMetadata.results[0]?.id)).toBe("rule");
    expect(await categoryOf(fromType.results[0]?.id)).toBe("project");
    expect(await categoryOf(freeType.results[0]?.id)).toBeUndefined();
  });

  it("stores a category the policy does not define as a label, with no TTL (Mem0's quickstart)", async () => {
    const added = await memory.add([{ role: "user", content: "I loved Dune and Arrival" }], {
      userId: "cat",
      metadata: { category: "movie_recommendations" },
    });
    const id = added.results[0]?.id ?? "";
    expect(added.results[0]?.metadata).toMatchObject({ category: "movie_recommendations" });
    expect((await memory.get(id))?.metadata.category).toBe("movie_recommendations");
    const listed = await memory.getAll({ filters: { user_id: "cat", category: "movie_recommendations" } });
    expect(listed.results.map((item) => item.id)).toEqual([id]);
    // No TTL applies: a memory of 2001 in such a category is still visible.
    await memory.importMemories([
      {
        id: "old-label",
        text: "Saw Amélie twice",
        user_id: "cat",
        category: "movie_recommendations",
        createdAt: "2001-06-01T00:00:00Z",
      },
    ]);
    expect(
      (await memory.getAll({ filters: { user_id: "cat", category: "movie_recommendations" } })).results.map(
        (item) => item.id,
      ),
    ).toContain("old-label");
  });

  it("refuses an undefined category with policy.strictCategories, and a blank one always", async () => {
    const strict = await openMemory({ path: ":memory:", policy: { strictCategories: true } });
    await expect(strict.add("Typo", { userId: "cat", category: "preferance" })).rejects.toMatchObject({
      code: "UNKNOWN_CATEGORY",
      message: expect.stringContaining("policy.strictCategories is on"),
    });
    expect((await strict.add("Known", { userId: "cat", category: "preference" })).results).toHaveLength(1);
    await strict.close();
    await expect(memory.add("Blank", { userId: "cat", category: "  " })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });

  it("refuses infer: true without an LLM", async () => {
    await expect(memory.add("Extract me", { userId: "alice", infer: true })).rejects.toMatchObject({
      code: "LLM_NOT_CONFIGURED",
    });
  });
});
