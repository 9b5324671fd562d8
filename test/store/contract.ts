/**
 * The MemoryStore contract: what every backend must do, run against each real database.
 *
 * Usage: `describeStore("sqlite", async () => createSqliteStore({ path }))`.
 */

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FilterNode } from "../../src/filters/filter.js";
import { parseFilters } from "../../src/filters/parse-filters.js";
import type { MemoryStore, NewMemory, Visibility } from "../../src/store/store.js";

export const DIMENSION = 4;

export function vector(...values: number[]): Float32Array {
  return new Float32Array(values);
}

let counter = 0;

export function newMemory(overrides: Partial<NewMemory> & { text: string }): NewMemory {
  counter++;
  return {
    id: `mem-${String(counter).padStart(4, "0")}`,
    hash: `hash-of-${overrides.text}`,
    user_id: "alice",
    agent_id: null,
    app_id: null,
    run_id: null,
    category: null,
    metadata: {},
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    expiresAt: null,
    embedding: vector(1, 0, 0, 0),
    entities: [],
    ...overrides,
  };
}

const filter = (input: Record<string, unknown>): FilterNode => parseFilters(input);

export function describeStore(name: string, makeStore: () => Promise<MemoryStore>): void {
  describe(`MemoryStore contract: ${name}`, () => {
    let store: MemoryStore;

    beforeEach(async () => {
      store = await makeStore();
      await store.bindEmbedder({ id: "test-embedder", dimension: DIMENSION });
    });
    afterEach(async () => {
      await store.close();
    });

    it("stores a memory and reads it back exactly", async () => {
      const memory = newMemory({
        text: "User prefers tabs",
        agent_id: "coder",
        category: "preference",
        metadata: { source: "chat", nested: { level: 2 }, tags: ["a", "b"] },
        expiresAt: "2030-01-01T00:00:00.000Z",
      });
      await store.insertMemory(memory);
      const { embedding: _embedding, entities: _entities, ...row } = memory;
      expect(await store.getMemory(memory.id)).toEqual(row);
      expect(await store.getMemory("no-such-id")).toBeNull();
      const embeddings = await store.getEmbeddings([memory.id, "unknown"]);
      expect([...embeddings.keys()]).toEqual([memory.id]);
      expect(Array.from(embeddings.get(memory.id) ?? [])).toEqual([1, 0, 0, 0]);
    });

    it("returns several memories in the order asked, skipping unknown ids", async () => {
      const a = newMemory({ text: "a" });
      const b = newMemory({ text: "b" });
      await store.insertMemory(a);
      await store.insertMemory(b);
      const rows = await store.getMemories([b.id, "missing", a.id]);
      expect(rows.map((row) => row.id)).toEqual([b.id, a.id]);
    });

    it("finds a memory by hash only in exactly the same scope", async () => {
      const memory = newMemory({ text: "same", user_id: "alice", agent_id: "coder" });
      await store.insertMemory(memory);
      expect((await store.findByHash({ user_id: "alice", agent_id: "coder" }, memory.hash))?.id).toBe(
        memory.id,
      );
      expect(await store.findByHash({ user_id: "alice" }, memory.hash)).toBeNull();
      expect(await store.findByHash({ user_id: "bob", agent_id: "coder" }, memory.hash)).toBeNull();
    });

    it("lists newest first with a total and real pagination", async () => {
      for (let day = 1; day <= 7; day++) {
        const at = `2026-01-0${day}T00:00:00.000Z`;
        await store.insertMemory(newMemory({ text: `day ${day}`, createdAt: at, updatedAt: at }));
      }
      await store.insertMemory(newMemory({ text: "bob's", user_id: "bob" }));
      const first = await store.listMemories({ filter: filter({ user_id: "alice" }), limit: 3, offset: 0 });
      expect(first.total).toBe(7);
      expect(first.rows.map((row) => row.text)).toEqual(["day 7", "day 6", "day 5"]);
      const last = await store.listMemories({ filter: filter({ user_id: "alice" }), limit: 3, offset: 6 });
      expect(last.rows.map((row) => row.text)).toEqual(["day 1"]);
      expect(last.total).toBe(7);
    });

    it("applies metadata filters in list", async () => {
      await store.insertMemory(
        newMemory({ text: "x", category: "preference", metadata: { importance: 0.9 } }),
      );
      await store.insertMemory(newMemory({ text: "y", category: "project", metadata: { importance: 0.4 } }));
      await store.insertMemory(
        newMemory({ text: "z", category: "preference", metadata: { importance: 0.2 } }),
      );
      const { rows } = await store.listMemories({
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
      await store.insertMemory(
        newMemory({ text: "old op", category: "operational", createdAt: "2026-05-01T00:00:00.000Z" }),
      );
      await store.insertMemory(
        newMemory({ text: "new op", category: "operational", createdAt: "2026-05-30T00:00:00.000Z" }),
      );
      await store.insertMemory(newMemory({ text: "dated", expiresAt: "2026-05-31T00:00:00.000Z" }));
      await store.insertMemory(
        newMemory({ text: "forever", category: "identity", createdAt: "2020-01-01T00:00:00.000Z" }),
      );
      await store.insertMemory(newMemory({ text: "uncategorised", createdAt: "2020-01-01T00:00:00.000Z" }));
      const scope = filter({ user_id: "alice" });
      const visible = await store.listMemories({
        filter: scope,
        visibleAt: visibility,
        limit: 10,
        offset: 0,
      });
      expect(visible.rows.map((row) => row.text).sort()).toEqual(["forever", "new op", "uncategorised"]);
      const all = await store.listMemories({ filter: scope, limit: 10, offset: 0 });
      expect(all.total).toBe(5);
      const dense = await store.searchDense({
        filter: scope,
        visibleAt: visibility,
        vector: vector(1, 0, 0, 0),
        k: 10,
      });
      expect(dense).toHaveLength(3);
    });

    it("ranks dense hits by cosine similarity within the scope", async () => {
      const near = newMemory({ text: "near", embedding: vector(1, 0.1, 0, 0) });
      const far = newMemory({ text: "far", embedding: vector(0, 1, 0, 0) });
      const other = newMemory({ text: "other user", user_id: "bob", embedding: vector(1, 0, 0, 0) });
      for (const memory of [far, near, other]) await store.insertMemory(memory);
      const hits = await store.searchDense({
        filter: filter({ user_id: "alice" }),
        vector: vector(1, 0, 0, 0),
        k: 5,
      });
      expect(hits.map((hit) => hit.id)).toEqual([near.id, far.id]);
      expect(hits[0]?.similarity).toBeCloseTo(0.995, 2);
      expect(hits[1]?.similarity).toBeCloseTo(0, 5);
      const top1 = await store.searchDense({
        filter: filter({ user_id: "alice" }),
        vector: vector(1, 0, 0, 0),
        k: 1,
      });
      expect(top1.map((hit) => hit.id)).toEqual([near.id]);
    });

    it("applies metadata filters and non-user scopes to dense search", async () => {
      const tagged = newMemory({
        text: "tagged",
        metadata: { topic: "food" },
        embedding: vector(0, 1, 0, 0),
      });
      const untagged = newMemory({ text: "untagged", embedding: vector(1, 0, 0, 0) });
      const agents = newMemory({
        text: "agent",
        user_id: null,
        agent_id: "coder",
        embedding: vector(1, 0, 0, 0),
      });
      for (const memory of [tagged, untagged, agents]) await store.insertMemory(memory);
      const byTopic = await store.searchDense({
        filter: filter({ user_id: "alice", topic: "food" }),
        vector: vector(1, 0, 0, 0),
        k: 5,
      });
      expect(byTopic.map((hit) => hit.id)).toEqual([tagged.id]);
      const byAgent = await store.searchDense({
        filter: filter({ agent_id: "coder" }),
        vector: vector(1, 0, 0, 0),
        k: 5,
      });
      expect(byAgent.map((hit) => hit.id)).toEqual([agents.id]);
    });

    it("finds keyword hits with stemming, best BM25 first, within the filter", async () => {
      const both = newMemory({ text: "Caroline went hiking and camping in the mountains" });
      const one = newMemory({ text: "Melanie likes camping trips" });
      const none = newMemory({ text: "Quarterly revenue grew" });
      const bobs = newMemory({ text: "Bob hikes every weekend", user_id: "bob" });
      for (const memory of [both, one, none, bobs]) await store.insertMemory(memory);
      const hits = await store.searchKeyword({
        filter: filter({ user_id: "alice" }),
        terms: ["hike", "camping"],
        k: 10,
      });
      expect(hits.map((hit) => hit.id)).toEqual([both.id, one.id]);
      expect(hits[0]?.bm25).toBeGreaterThan(hits[1]?.bm25 ?? Number.POSITIVE_INFINITY);
      expect(await store.searchKeyword({ filter: filter({ user_id: "alice" }), terms: [], k: 10 })).toEqual(
        [],
      );
      const quoted = await store.searchKeyword({
        filter: filter({ user_id: "alice" }),
        terms: ['say "hi" OR'],
        k: 10,
      });
      expect(quoted).toEqual([]);
    });

    it("finds memories linked to an entity, with how many memories share it", async () => {
      const entity = { key: "boston", name: "Boston", type: "name" };
      const a = newMemory({ text: "Trip to Boston", entities: [entity] });
      const b = newMemory({
        text: "Boston marathon",
        entities: [entity, { key: "marathon", name: "Marathon", type: "name" }],
      });
      const bob = newMemory({ text: "Bob in Boston", user_id: "bob", entities: [entity] });
      for (const memory of [a, b, bob]) await store.insertMemory(memory);
      const hits = await store.searchEntities({
        filter: filter({ user_id: "alice" }),
        keys: ["boston"],
        limit: 10,
      });
      expect(hits.map((hit) => hit.id).sort()).toEqual([a.id, b.id].sort());
      expect(hits.every((hit) => hit.linkCount === 2 && hit.key === "boston")).toBe(true);
    });

    it("updates text, vector and entity links together, keeping scope and creation time", async () => {
      const memory = newMemory({
        text: "Lives in Boston",
        entities: [{ key: "boston", name: "Boston", type: "name" }],
      });
      await store.insertMemory(memory);
      await store.updateMemory(memory.id, {
        text: "Lives in Denver",
        hash: "hash-denver",
        category: "identity",
        metadata: { moved: true },
        updatedAt: "2026-02-01T00:00:00.000Z",
        expiresAt: null,
        embedding: vector(0, 0, 1, 0),
        entities: [{ key: "denver", name: "Denver", type: "name" }],
      });
      const row = await store.getMemory(memory.id);
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
      expect(await store.searchEntities({ filter: scope, keys: ["boston"], limit: 5 })).toEqual([]);
      expect(
        (await store.searchEntities({ filter: scope, keys: ["denver"], limit: 5 })).map((hit) => hit.id),
      ).toEqual([memory.id]);
      expect(await store.searchKeyword({ filter: scope, terms: ["boston"], k: 5 })).toEqual([]);
      const dense = await store.searchDense({ filter: scope, vector: vector(0, 0, 1, 0), k: 1 });
      expect(dense[0]?.similarity).toBeCloseTo(1, 5);
    });

    it("deletes a memory from every index", async () => {
      const memory = newMemory({
        text: "Boston trip",
        entities: [{ key: "boston", name: "Boston", type: "name" }],
      });
      await store.insertMemory(memory);
      await store.deleteMemory(memory.id);
      const scope = filter({ user_id: "alice" });
      expect(await store.getMemory(memory.id)).toBeNull();
      expect(await store.searchDense({ filter: scope, vector: vector(1, 0, 0, 0), k: 5 })).toEqual([]);
      expect(await store.searchKeyword({ filter: scope, terms: ["boston"], k: 5 })).toEqual([]);
      expect(await store.searchEntities({ filter: scope, keys: ["boston"], limit: 5 })).toEqual([]);
      expect((await store.getEmbeddings([memory.id])).size).toBe(0);
    });

    it("commits a transaction's writes together", async () => {
      await store.transaction(async (tx) => {
        await tx.insertMemory(newMemory({ text: "one" }));
        await tx.insertMemory(newMemory({ text: "two" }));
      });
      expect(
        (await store.listMemories({ filter: filter({ user_id: "alice" }), limit: 10, offset: 0 })).total,
      ).toBe(2);
    });

    it("rolls back every write of a failed transaction", async () => {
      const kept = newMemory({ text: "kept" });
      await store.insertMemory(kept);
      await expect(
        store.transaction(async (tx) => {
          await tx.insertMemory(newMemory({ text: "lost" }));
          await tx.deleteMemory(kept.id);
          await tx.addHistory({
            memoryId: kept.id,
            action: "DELETE",
            previousValue: "kept",
            newValue: null,
            actor: "user",
            createdAt: "2026-01-01T00:00:00.000Z",
          });
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      const { rows } = await store.listMemories({
        filter: filter({ user_id: "alice" }),
        limit: 10,
        offset: 0,
      });
      expect(rows.map((row) => row.text)).toEqual(["kept"]);
      expect(await store.listHistory(kept.id)).toEqual([]);
      expect(
        await store.searchKeyword({ filter: filter({ user_id: "alice" }), terms: ["lost"], k: 5 }),
      ).toEqual([]);
    });

    it("rolls back only the inner part of a failed nested transaction", async () => {
      await store.transaction(async (tx) => {
        await tx.insertMemory(newMemory({ text: "outer" }));
        await expect(
          store.transaction(async (inner) => {
            await inner.insertMemory(newMemory({ text: "inner" }));
            throw new Error("inner failure");
          }),
        ).rejects.toThrow("inner failure");
      });
      const { rows } = await store.listMemories({
        filter: filter({ user_id: "alice" }),
        limit: 10,
        offset: 0,
      });
      expect(rows.map((row) => row.text)).toEqual(["outer"]);
    });

    it("serialises concurrent calls without interleaving a transaction", async () => {
      const writes = Array.from({ length: 20 }, (_, index) =>
        store.transaction(async (tx) => {
          await tx.insertMemory(newMemory({ text: `concurrent ${index}` }));
          await new Promise((resolve) => setTimeout(resolve, 1));
          await tx.insertMemory(newMemory({ text: `concurrent ${index} second` }));
        }),
      );
      await Promise.all(writes);
      expect(
        (await store.listMemories({ filter: filter({ user_id: "alice" }), limit: 1, offset: 0 })).total,
      ).toBe(40);
    });

    it("keeps history rows in order", async () => {
      const base = { memoryId: "m1", actor: "user", createdAt: "2026-01-01T00:00:00.000Z" };
      await store.addHistory({ ...base, action: "ADD", previousValue: null, newValue: "a" });
      await store.addHistory({ ...base, action: "UPDATE", previousValue: "a", newValue: "b" });
      await store.addHistory({ ...base, action: "DELETE", previousValue: "b", newValue: null });
      const rows = await store.listHistory("m1");
      expect(rows.map((row) => [row.action, row.previousValue, row.newValue])).toEqual([
        ["ADD", null, "a"],
        ["UPDATE", "a", "b"],
        ["DELETE", "b", null],
      ]);
      expect(await store.listHistory("m2")).toEqual([]);
    });

    it("keeps only the newest messages of a session", async () => {
      const message = (content: string) => ({
        role: "user",
        content,
        name: null,
        createdAt: "2026-01-01T00:00:00.000Z",
      });
      await store.addMessages("user_id=alice", [message("1"), message("2"), message("3")], 2);
      await store.addMessages("user_id=alice", [message("4")], 2);
      await store.addMessages("user_id=bob", [message("b")], 2);
      expect((await store.listMessages("user_id=alice")).map((row) => row.content)).toEqual(["3", "4"]);
      expect((await store.listMessages("user_id=bob")).map((row) => row.content)).toEqual(["b"]);
    });

    it("remembers its embedder and refuses another", async () => {
      expect(await store.embedderStamp()).toEqual({ id: "test-embedder", dimension: DIMENSION });
      await store.bindEmbedder({ id: "test-embedder", dimension: DIMENSION });
      await expect(store.bindEmbedder({ id: "other", dimension: DIMENSION })).rejects.toMatchObject({
        code: "EMBEDDER_MISMATCH",
      });
      await expect(store.bindEmbedder({ id: "test-embedder", dimension: 8 })).rejects.toMatchObject({
        code: "EMBEDDER_MISMATCH",
      });
    });

    it("resets to empty and accepts a new embedder", async () => {
      await store.insertMemory(
        newMemory({ text: "gone", entities: [{ key: "x1", name: "X1", type: "name" }] }),
      );
      await store.addHistory({
        memoryId: "m",
        action: "ADD",
        previousValue: null,
        newValue: "gone",
        actor: "user",
        createdAt: "2026-01-01T00:00:00.000Z",
      });
      await store.reset();
      expect(await store.embedderStamp()).toBeNull();
      await store.bindEmbedder({ id: "other", dimension: 2 });
      expect(
        (await store.listMemories({ filter: filter({ user_id: "alice" }), limit: 5, offset: 0 })).total,
      ).toBe(0);
      expect(await store.listHistory("m")).toEqual([]);
      await store.insertMemory(newMemory({ text: "fresh", embedding: vector(1, 0) }));
      expect(
        await store.searchDense({ filter: filter({ user_id: "alice" }), vector: vector(1, 0), k: 1 }),
      ).toHaveLength(1);
    });

    it("lists oldest first on request", async () => {
      for (const day of [3, 1, 2]) {
        const at = `2026-01-0${day}T00:00:00.000Z`;
        await store.insertMemory(newMemory({ text: `day ${day}`, createdAt: at, updatedAt: at }));
      }
      const { rows } = await store.listMemories({
        filter: filter({ user_id: "alice" }),
        limit: 5,
        offset: 0,
        order: "oldest",
      });
      expect(rows.map((row) => row.text)).toEqual(["day 1", "day 2", "day 3"]);
    });

    it("counts memories by scope and category, and the expired ones", async () => {
      await store.insertMemory(newMemory({ text: "a", category: "preference" }));
      await store.insertMemory(
        newMemory({
          text: "b",
          agent_id: "ops",
          category: "operational",
          createdAt: "2026-01-01T00:00:00.000Z",
        }),
      );
      await store.insertMemory(newMemory({ text: "c", user_id: "bob" }));
      const stats = await store.stats({
        now: "2026-02-01T00:00:00.000Z",
        ttlDaysByCategory: { operational: 7 },
      });
      expect(stats).toMatchObject({
        total: 3,
        expired: 1,
        byScope: { user_id: { alice: 2, bob: 1 }, agent_id: { ops: 1 }, app_id: {}, run_id: {} },
        byCategory: { "": 1, operational: 1, preference: 1 },
      });
    });

    it("switches embedders by re-embedding every memory, then swapping in one step", async () => {
      const a = newMemory({ text: "first" });
      const b = newMemory({ text: "second", agent_id: "coder" });
      await store.insertMemory(a);
      await store.insertMemory(b);
      expect(await store.listUnembedded(10)).toEqual([]);
      await store.beginReembed({ id: "next-model", dimension: 2 });
      expect(await store.pendingReembed()).toEqual({
        target: { id: "next-model", dimension: 2 },
        remaining: 2,
      });
      expect((await store.listUnembedded(1)).map((row) => row.id)).toEqual([a.id]);
      await store.writeReembedded([{ id: a.id, embedding: vector(0, 1) }]);
      await expect(store.finishReembed()).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      // Until the swap, search still uses the old vectors.
      expect(
        await store.searchDense({ filter: filter({ user_id: "alice" }), vector: vector(1, 0, 0, 0), k: 5 }),
      ).toHaveLength(2);
      await store.beginReembed({ id: "next-model", dimension: 2 }); // resumes, keeps progress
      expect((await store.listUnembedded(10)).map((row) => row.id)).toEqual([b.id]);
      await store.writeReembedded([{ id: b.id, embedding: vector(1, 0) }]);
      await store.finishReembed();
      expect(await store.embedderStamp()).toEqual({ id: "next-model", dimension: 2 });
      expect(await store.pendingReembed()).toBeNull();
      const hits = await store.searchDense({
        filter: filter({ agent_id: "coder" }),
        vector: vector(1, 0),
        k: 5,
      });
      expect(hits.map((hit) => hit.id)).toEqual([b.id]);
      expect(hits[0]?.similarity).toBeCloseTo(1, 5);
    });

    it("records dream runs with preimages, newest first, and marks them undone", async () => {
      const memory = newMemory({ text: "before", entities: [{ key: "x1", name: "X1", type: "name" }] });
      await store.insertMemory(memory);
      const { embedding, entities, ...row } = memory;
      expect(await store.getEntityLinks(memory.id)).toEqual([{ key: "x1", name: "X1", type: "name" }]);
      const run = (id: string, scopeKey: string) => ({
        id,
        scopeKey,
        scope: { user_id: "alice" },
        mode: "auto",
        plan: { version: 1, actions: [] },
        decisions: { conflicts: {} },
        outcome: { merged: 0 },
        startedAt: "2026-01-01T00:00:00.000Z",
        committedAt: "2026-01-01T00:00:01.000Z",
        undoneAt: null,
      });
      await store.insertDreamRun(run("run-1", "user_id=alice"), [
        {
          memoryId: memory.id,
          before: { row, embedding, entities },
          after: { hash: "h2", updatedAt: "2026-01-02T00:00:00.000Z" },
        },
        { memoryId: "created-1", before: null, after: { hash: "h3", updatedAt: "2026-01-02T00:00:00.000Z" } },
      ]);
      await store.insertDreamRun(run("run-2", "user_id=bob"), []);
      const stored = await store.getDreamRun("run-1");
      expect(stored?.run).toEqual(run("run-1", "user_id=alice"));
      expect(stored?.memories).toEqual([
        { memoryId: "created-1", before: null, after: { hash: "h3", updatedAt: "2026-01-02T00:00:00.000Z" } },
        {
          memoryId: memory.id,
          before: { row, embedding, entities },
          after: { hash: "h2", updatedAt: "2026-01-02T00:00:00.000Z" },
        },
      ]);
      expect((await store.listDreamRuns(null, 10)).map((r) => r.id)).toEqual(["run-2", "run-1"]);
      expect((await store.listDreamRuns("user_id=alice", 10)).map((r) => r.id)).toEqual(["run-1"]);
      await store.markDreamRunUndone("run-1", "2026-01-03T00:00:00.000Z");
      expect((await store.getDreamRun("run-1"))?.run.undoneAt).toBe("2026-01-03T00:00:00.000Z");
      expect(await store.getDreamRun("missing")).toBeNull();
    });

    it("counts each interactive session once and restarts the count on completion", async () => {
      const key = "user_id=alice";
      expect(await store.dreamGateState(key)).toEqual({
        lastConsolidatedAt: null,
        sessionsSince: 0,
        lastSessionId: null,
      });
      expect(await store.recordSession(key, "s1", "user", "2026-01-01T00:00:00.000Z")).toBe(true);
      expect(await store.recordSession(key, "s2", "user", "2026-01-01T01:00:00.000Z")).toBe(true);
      expect(await store.recordSession(key, "s1", "user", "2026-01-01T02:00:00.000Z")).toBe(false);
      expect(await store.dreamGateState(key)).toEqual({
        lastConsolidatedAt: null,
        sessionsSince: 2,
        lastSessionId: "s2",
      });
      expect((await store.dreamGateState("user_id=bob")).sessionsSince).toBe(0);
      await store.recordDreamCompletion(key, "2026-01-02T00:00:00.000Z");
      expect(await store.dreamGateState(key)).toEqual({
        lastConsolidatedAt: "2026-01-02T00:00:00.000Z",
        sessionsSince: 0,
        lastSessionId: null,
      });
      expect(await store.recordSession(key, "s1", "user", "2026-01-02T01:00:00.000Z")).toBe(true);
    });

    it("leases a scope to one holder at a time until it expires or is released", async () => {
      const key = "user_id=alice";
      const a = { holder: "a", host: "host-a", pid: 1 };
      const b = { holder: "b", host: "host-b", pid: 2 };
      const hour = 3_600_000;
      expect(await store.acquireLease(key, a, "2026-01-01T00:00:00.000Z", hour)).toMatchObject({
        acquired: true,
      });
      expect(await store.acquireLease(key, b, "2026-01-01T00:30:00.000Z", hour)).toEqual({
        acquired: false,
        heldBy: { ...a, acquiredAt: "2026-01-01T00:00:00.000Z", expiresAt: "2026-01-01T01:00:00.000Z" },
      });
      expect(await store.acquireLease("user_id=bob", b, "2026-01-01T00:30:00.000Z", hour)).toMatchObject({
        acquired: true,
      });
      expect(await store.acquireLease(key, a, "2026-01-01T00:40:00.000Z", hour)).toMatchObject({
        acquired: true,
      });
      expect(await store.acquireLease(key, b, "2026-01-01T01:40:00.000Z", hour)).toMatchObject({
        acquired: true,
      });
      await store.releaseLease(key, "a");
      expect(await store.acquireLease(key, a, "2026-01-01T01:41:00.000Z", hour)).toMatchObject({
        acquired: false,
      });
      await store.releaseLease(key, "b");
      expect(await store.acquireLease(key, a, "2026-01-01T01:42:00.000Z", hour)).toMatchObject({
        acquired: true,
      });
    });

    it("fails with STORE_CLOSED after close", async () => {
      await store.close();
      await expect(store.getMemory("x")).rejects.toMatchObject({ code: "STORE_CLOSED" });
      store = await makeStore();
    });
  });
}
