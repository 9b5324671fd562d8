import { expect } from "vitest";
import { parseFilters } from "../../../src/filters/parse-filters.js";
import type { Visibility } from "../../../src/store/ports/memories.js";
import { type ContractPart, newMemory, vector } from "./harness.js";

const filter = (input: Record<string, unknown>) => parseFilters(input);

/** The memories sub-port. */
export const memoriesPart: ContractPart = {
  name: "memories",
  cases(it, store) {
    it("stores a memory and reads it back exactly", async () => {
      const memory = newMemory({
        text: "User prefers tabs",
        agent_id: "coder",
        category: "preference",
        metadata: { source: "chat", nested: { level: 2 }, tags: ["a", "b"] },
        expiresAt: "2030-01-01T00:00:00.000Z",
      });
      await store().insertMemory(memory);
      const { embedding: _embedding, entities: _entities, ...row } = memory;
      expect(await store().getMemory(memory.id)).toEqual(row);
      expect(await store().getMemory("no-such-id")).toBeNull();
      const embeddings = await store().getEmbeddings([memory.id, "unknown"]);
      expect([...embeddings.keys()]).toEqual([memory.id]);
      expect(Array.from(embeddings.get(memory.id) ?? [])).toEqual([1, 0, 0, 0]);
    });
    it("returns several memories in the order asked, skipping unknown ids", async () => {
      const a = newMemory({ text: "a" });
      const b = newMemory({ text: "b" });
      await store().insertMemory(a);
      await store().insertMemory(b);
      const rows = await store().getMemories([b.id, "missing", a.id]);
      expect(rows.map((row) => row.id)).toEqual([b.id, a.id]);
    });
    it("finds the ids that start with a prefix, in id order, within the limit", async () => {
      for (const id of ["abc12345-1", "abc12345-2", "abc12346-1", "abd00000-1"]) {
        await store().insertMemory(newMemory({ id, text: `memory ${id}` }));
      }
      expect(await store().idsWithPrefix("abc12345", 10)).toEqual(["abc12345-1", "abc12345-2"]);
      expect(await store().idsWithPrefix("abc1234", 1)).toEqual(["abc12345-1"]);
      expect(await store().idsWithPrefix("abd00000-1", 10)).toEqual(["abd00000-1"]);
      expect(await store().idsWithPrefix("zzz", 10)).toEqual([]);
    });
    it("finds a memory by hash only in exactly the same scope", async () => {
      const memory = newMemory({ text: "same", user_id: "alice", agent_id: "coder" });
      await store().insertMemory(memory);
      expect((await store().findByHash({ user_id: "alice", agent_id: "coder" }, memory.hash))?.id).toBe(
        memory.id,
      );
      expect(await store().findByHash({ user_id: "alice" }, memory.hash)).toBeNull();
      expect(await store().findByHash({ user_id: "bob", agent_id: "coder" }, memory.hash)).toBeNull();
    });
    it("lists newest first with a total and real pagination", async () => {
      for (let day = 1; day <= 7; day++) {
        const at = `2026-01-0${day}T00:00:00.000Z`;
        await store().insertMemory(newMemory({ text: `day ${day}`, createdAt: at, updatedAt: at }));
      }
      await store().insertMemory(newMemory({ text: "bob's", user_id: "bob" }));
      const first = await store().listMemories({ filter: filter({ user_id: "alice" }), limit: 3, offset: 0 });
      expect(first.total).toBe(7);
      expect(first.rows.map((row) => row.text)).toEqual(["day 7", "day 6", "day 5"]);
      const last = await store().listMemories({ filter: filter({ user_id: "alice" }), limit: 3, offset: 6 });
      expect(last.rows.map((row) => row.text)).toEqual(["day 1"]);
      expect(last.total).toBe(7);
    });
    it("applies metadata filters in list", async () => {
      await store().insertMemory(
        newMemory({ text: "x", category: "preference", metadata: { importance: 0.9 } }),
      );
      await store().insertMemory(
        newMemory({ text: "y", category: "project", metadata: { importance: 0.4 } }),
      );
      await store().insertMemory(
        newMemory({ text: "z", category: "preference", metadata: { importance: 0.2 } }),
      );
      const { rows } = await store().listMemories({
        filter: filter({ user_id: "alice", category: "preference", importance: { gte: 0.5 } }),
        limit: 10,
        offset: 0,
      });
      expect(rows.map((row) => row.text)).toEqual(["x"]);
    });
    it("hides expired memories from reads that ask for visibility, and shows them otherwise", async () => {
      const visibility: Visibility = {
        now: "2026-06-01T00:00:00.000Z",
        ttlDaysByCategory: { operational: 7 },
      };
      await store().insertMemory(
        newMemory({ text: "old op", category: "operational", createdAt: "2026-05-01T00:00:00.000Z" }),
      );
      await store().insertMemory(
        newMemory({ text: "new op", category: "operational", createdAt: "2026-05-30T00:00:00.000Z" }),
      );
      await store().insertMemory(newMemory({ text: "dated", expiresAt: "2026-05-31T00:00:00.000Z" }));
      await store().insertMemory(
        newMemory({ text: "forever", category: "identity", createdAt: "2020-01-01T00:00:00.000Z" }),
      );
      await store().insertMemory(newMemory({ text: "uncategorised", createdAt: "2020-01-01T00:00:00.000Z" }));
      const scope = filter({ user_id: "alice" });
      const visible = await store().listMemories({
        filter: scope,
        visibleAt: visibility,
        limit: 10,
        offset: 0,
      });
      expect(visible.rows.map((row) => row.text).sort()).toEqual(["forever", "new op", "uncategorised"]);
      const all = await store().listMemories({ filter: scope, limit: 10, offset: 0 });
      expect(all.total).toBe(5);
      const dense = await store().searchDense({
        filter: scope,
        visibleAt: visibility,
        vector: vector(1, 0, 0, 0),
        k: 10,
      });
      expect(dense).toHaveLength(3);
    });
    it("updates text, vector and entity links together, keeping scope and creation time", async () => {
      const memory = newMemory({
        text: "Lives in Boston",
        entities: [{ key: "boston", name: "Boston", type: "name" }],
      });
      await store().insertMemory(memory);
      await store().updateMemory(memory.id, {
        text: "Lives in Denver",
        hash: "hash-denver",
        category: "identity",
        metadata: { moved: true },
        updatedAt: "2026-02-01T00:00:00.000Z",
        expiresAt: null,
        embedding: vector(0, 0, 1, 0),
        entities: [{ key: "denver", name: "Denver", type: "name" }],
      });
      const row = await store().getMemory(memory.id);
      expect(row).toMatchObject({
        text: "Lives in Denver",
        hash: "hash-denver",
        category: "identity",
        metadata: { moved: true },
        user_id: "alice",
        createdAt: memory.createdAt,
        updatedAt: "2026-02-01T00:00:00.000Z",
      });
      const scope = filter({ user_id: "alice" });
      expect(await store().searchEntities({ filter: scope, keys: ["boston"], limit: 5 })).toEqual([]);
      expect(
        (await store().searchEntities({ filter: scope, keys: ["denver"], limit: 5 })).map((hit) => hit.id),
      ).toEqual([memory.id]);
      expect(await store().searchKeyword({ filter: scope, terms: ["boston"], k: 5 })).toEqual([]);
      const dense = await store().searchDense({ filter: scope, vector: vector(0, 0, 1, 0), k: 1 });
      expect(dense[0]?.similarity).toBeCloseTo(1, 5);
    });
    it("deletes a memory from every index", async () => {
      const memory = newMemory({
        text: "Boston trip",
        entities: [{ key: "boston", name: "Boston", type: "name" }],
      });
      await store().insertMemory(memory);
      await store().deleteMemory(memory.id);
      const scope = filter({ user_id: "alice" });
      expect(await store().getMemory(memory.id)).toBeNull();
      expect(await store().searchDense({ filter: scope, vector: vector(1, 0, 0, 0), k: 5 })).toEqual([]);
      expect(await store().searchKeyword({ filter: scope, terms: ["boston"], k: 5 })).toEqual([]);
      expect(await store().searchEntities({ filter: scope, keys: ["boston"], limit: 5 })).toEqual([]);
      expect((await store().getEmbeddings([memory.id])).size).toBe(0);
    });
    it("lists oldest first on request", async () => {
      for (const day of [3, 1, 2]) {
        const at = `2026-01-0${day}T00:00:00.000Z`;
        await store().insertMemory(newMemory({ text: `day ${day}`, createdAt: at, updatedAt: at }));
      }
      const { rows } = await store().listMemories({
        filter: filter({ user_id: "alice" }),
        limit: 5,
        offset: 0,
        order: "oldest",
      });
      expect(rows.map((row) => row.text)).toEqual(["day 1", "day 2", "day 3"]);
    });
  },
};
