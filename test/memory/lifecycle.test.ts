import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalEmbedder } from "../../src/embed/local/local-embedder.js";
import { type Memory, openMemory } from "../../src/index.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("lifecycle");
let memory: Memory;

beforeAll(async () => {
  memory = await openMemory({ path: files.path(), embedder: createLocalEmbedder() });
});
afterAll(async () => {
  await memory.close();
});

async function addOne(text: string, userId = "alice", metadata?: Record<string, unknown>): Promise<string> {
  const { results } = await memory.add(text, { userId, metadata });
  return results[0]?.id ?? "";
}

describe("getAll", () => {
  it("pages through every memory with a total, newest first", async () => {
    for (let index = 0; index < 25; index++) {
      await memory.add(`Paged fact ${index}`, {
        userId: "pager",
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, index)),
      });
    }
    const first = await memory.getAll({ filters: { user_id: "pager" }, pageSize: 10 });
    expect(first).toMatchObject({ total: 25, page: 1, pageSize: 10, hasMore: true });
    expect(first.results[0]?.memory).toBe("Paged fact 24");
    const third = await memory.getAll({ filters: { user_id: "pager" }, pageSize: 10, page: 3 });
    expect(third.results.map((item) => item.memory)).toEqual(
      ["4", "3", "2", "1", "0"].map((n) => `Paged fact ${n}`),
    );
    expect(third.hasMore).toBe(false);
    const everything = await memory.getAll({ userId: "pager" });
    expect(everything.results).toHaveLength(25);
  });
});

describe("update", () => {
  it("re-embeds new text, keeps createdAt, relinks entities and records history", async () => {
    const id = await addOne("User lives in Boston", "mover", { source: "chat" });
    const before = await memory.get(id);
    const { result } = await memory.update(id, "User lives in Denver");
    expect(result).toMatchObject({ id, memory: "User lives in Denver", createdAt: before?.createdAt });
    expect(result.metadata).toEqual({ source: "chat" });

    const found = await memory.search("Denver", { filters: { user_id: "mover" }, explain: true });
    expect(found.results[0]?.id).toBe(id);
    expect(found.results[0]?.score_details?.matchedBy).toContain("entity");
    const stale = await memory.search("Boston", {
      filters: { user_id: "mover" },
      explain: true,
      threshold: 0,
    });
    expect(stale.results[0]?.score_details?.matchedBy ?? []).not.toContain("entity");

    const history = await memory.history(id);
    expect(history.map((row) => [row.action, row.previous_value, row.new_value])).toEqual([
      ["ADD", null, "User lives in Boston"],
      ["UPDATE", "User lives in Boston", "User lives in Denver"],
    ]);
  });

  it("merges metadata, removes keys set to null, and may change category", async () => {
    const id = await addOne("Team standup at 10", "meta", { a: 1, b: 2 });
    const { result } = await memory.update(id, { metadata: { b: null, c: 3, category: "operational" } });
    expect(result.metadata).toEqual({ a: 1, c: 3, category: "operational" });
    expect(result.memory).toBe("Team standup at 10");
  });

  it("fails with MEMORY_NOT_FOUND for an unknown id and needs a change", async () => {
    await expect(memory.update("missing-id", "x")).rejects.toMatchObject({ code: "MEMORY_NOT_FOUND" });
    const id = await addOne("Unchanged fact", "meta");
    await expect(memory.update(id, {})).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });
});

describe("delete, deleteAll, history and reset", () => {
  it("deletes one memory and keeps its history", async () => {
    const id = await addOne("Temporary fact", "deleter");
    expect(await memory.delete(id)).toEqual({ message: "Memory deleted successfully!" });
    expect(await memory.get(id)).toBeNull();
    const history = await memory.history(id);
    expect(history.at(-1)).toMatchObject({
      action: "DELETE",
      previous_value: "Temporary fact",
      new_value: null,
      is_deleted: 1,
    });
    await expect(memory.delete(id)).rejects.toMatchObject({ code: "MEMORY_NOT_FOUND" });
  });

  it("deletes a whole scope and nothing else, and requires a scope", async () => {
    await addOne("Scope one A", "wipe");
    await addOne("Scope one B", "wipe");
    await addOne("Keep me", "keep");
    await expect(memory.deleteAll({})).rejects.toMatchObject({ code: "SCOPE_REQUIRED" });
    expect(await memory.deleteAll({ userId: "wipe" })).toEqual({
      message: "Memories deleted successfully!",
      deleted: 2,
    });
    expect((await memory.getAll({ filters: { user_id: "wipe" } })).total).toBe(0);
    expect((await memory.getAll({ filters: { user_id: "keep" } })).total).toBe(1);
  });

  it("normalises scope ids in reads and deletes as add does", async () => {
    const id = await addOne("Padded scope", "pad");
    expect((await memory.getAll({ filters: { user_id: "  pad  " } })).results.map((item) => item.id)).toEqual(
      [id],
    );
    expect((await memory.getAll({ userId: " pad" })).total).toBe(1);
    expect((await memory.getAll({ filters: { userId: "pad" } })).total).toBe(1);
    expect((await memory.getAll({ filters: { user_id: { eq: " pad " } } })).total).toBe(1);
    expect(
      (await memory.search("Padded", { filters: { user_id: "pad " } })).results.map((item) => item.id),
    ).toEqual([id]);
    await expect(memory.getAll({ filters: { user_id: "alice smith" } })).rejects.toMatchObject({
      code: "INVALID_FILTER",
    });
    await expect(memory.search("x", { userId: "   " })).rejects.toMatchObject({ code: "INVALID_FILTER" });
    expect(await memory.deleteAll({ userId: "  pad  " })).toEqual({
      message: "Memories deleted successfully!",
      deleted: 1,
    });
    expect(await memory.deleteAll({ userId: "pad" })).toEqual({
      message: "No memories matched; nothing was deleted.",
      deleted: 0,
    });
  });

  it("refuses one scope key given twice with different values", async () => {
    await expect(memory.getAll({ userId: "alice", filters: { user_id: "bob" } })).rejects.toMatchObject({
      code: "INVALID_FILTER",
      message: expect.stringContaining("two different user_id scopes"),
    });
    await expect(memory.deleteAll({ filters: { user_id: "alice", userId: "bob" } })).rejects.toMatchObject({
      code: "INVALID_FILTER",
    });
    // The same id twice is one scope.
    await expect(memory.getAll({ userId: "alice", filters: { user_id: " alice" } })).resolves.toBeDefined();
  });

  it("resets everything and stays usable", async () => {
    const local = await openMemory({ path: files.path(), embedder: createLocalEmbedder() });
    const id = (await local.add("Before reset", { userId: "r" })).results[0]?.id ?? "";
    await local.reset();
    expect(await local.get(id)).toBeNull();
    expect(await local.history(id)).toEqual([]);
    await local.add("After reset", { userId: "r" });
    expect((await local.search("after", { filters: { user_id: "r" } })).results[0]?.memory).toBe(
      "After reset",
    );
    await local.close();
    await expect(local.get(id)).rejects.toMatchObject({ code: "STORE_CLOSED" });
  });
});

describe("categories through updates", () => {
  it("keeps the category when metadata changes without naming one, and moves it when it does", async () => {
    const { results } = await memory.add("Prefers window seats", { userId: "cats", category: "preference" });
    const id = results[0]?.id ?? "";
    expect((await memory.update(id, { metadata: { pinned: true } })).result.metadata).toEqual({
      category: "preference",
      pinned: true,
    });
    expect((await memory.update(id, { metadata: { type: "decision" } })).result.metadata.category).toBe(
      "decision",
    );
    expect((await memory.update(id, { metadata: { type: "note" } })).result.metadata.category).toBe(
      "decision",
    );
    expect(
      (await memory.update(id, { metadata: { category: null } })).result.metadata.category,
    ).toBeUndefined();
    // A category the policy does not define is a label, as in Mem0.
    expect((await memory.update(id, { metadata: { category: "solo" } })).result.metadata.category).toBe(
      "solo",
    );
  });
});
