import { expect } from "vitest";
import { parseFilters } from "../../../src/filters/parse-filters.js";
import { type ContractPart, DIMENSION, newMemory, vector } from "./harness.js";

const filter = (input: Record<string, unknown>) => parseFilters(input);

/** The maintenance sub-port. */
export const maintenancePart: ContractPart = {
  name: "maintenance",
  cases(it, store, reopen) {
    it("skips a re-embedded vector whose memory's text changed since it was listed", async () => {
      const a = newMemory({ text: "before" });
      await store().insertMemory(a);
      await store().beginReembed({ id: "next-model", dimension: 2 });
      const [listed] = await store().listUnembedded(10);
      await store().updateMemory(a.id, {
        text: "after",
        hash: "hash-of-after",
        category: null,
        metadata: {},
        updatedAt: "2026-01-02T00:00:00.000Z",
        expiresAt: null,
        embedding: vector(0, 0, 1, 0),
        entities: [],
      });
      await store().writeReembedded([{ id: a.id, hash: listed?.hash ?? "", embedding: vector(0, 1) }]);
      expect((await store().listUnembedded(10)).map((row) => [row.id, row.text])).toEqual([[a.id, "after"]]);
    });

    it("remembers its embedder and refuses another", async () => {
      expect(await store().embedderStamp()).toEqual({ id: "test-embedder", dimension: DIMENSION });
      await store().bindEmbedder({ id: "test-embedder", dimension: DIMENSION });
      await expect(store().bindEmbedder({ id: "other", dimension: DIMENSION })).rejects.toMatchObject({
        code: "EMBEDDER_MISMATCH",
      });
      await expect(store().bindEmbedder({ id: "test-embedder", dimension: 8 })).rejects.toMatchObject({
        code: "EMBEDDER_MISMATCH",
      });
    });
    it("resets to empty and accepts a new embedder", async () => {
      await store().insertMemory(
        newMemory({ text: "gone", entities: [{ key: "x1", name: "X1", type: "name" }] }),
      );
      await store().addHistory({
        memoryId: "m",
        action: "ADD",
        previousValue: null,
        newValue: "gone",
        actor: "user",
        createdAt: "2026-01-01T00:00:00.000Z",
      });
      await store().reset();
      expect(await store().embedderStamp()).toBeNull();
      await store().bindEmbedder({ id: "other", dimension: 2 });
      expect(
        (await store().listMemories({ filter: filter({ user_id: "alice" }), limit: 5, offset: 0 })).total,
      ).toBe(0);
      expect(await store().listHistory("m")).toEqual([]);
      await store().insertMemory(newMemory({ text: "fresh", embedding: vector(1, 0) }));
      expect(
        await store().searchDense({ filter: filter({ user_id: "alice" }), vector: vector(1, 0), k: 1 }),
      ).toHaveLength(1);
    });
    it("counts memories by scope and category, and the expired ones", async () => {
      await store().insertMemory(newMemory({ text: "a", category: "preference" }));
      await store().insertMemory(
        newMemory({
          text: "b",
          agent_id: "ops",
          category: "operational",
          createdAt: "2026-01-01T00:00:00.000Z",
        }),
      );
      await store().insertMemory(newMemory({ text: "c", user_id: "bob" }));
      const stats = await store().stats({
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
      await store().insertMemory(a);
      await store().insertMemory(b);
      expect(await store().listUnembedded(10)).toEqual([]);
      await store().beginReembed({ id: "next-model", dimension: 2 });
      expect(await store().pendingReembed()).toEqual({
        target: { id: "next-model", dimension: 2 },
        remaining: 2,
      });
      expect((await store().listUnembedded(1)).map((row) => row.id)).toEqual([a.id]);
      await store().writeReembedded([{ id: a.id, hash: a.hash, embedding: vector(0, 1) }]);
      await expect(store().finishReembed()).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      // Until the swap, search still uses the old vectors.
      expect(
        await store().searchDense({ filter: filter({ user_id: "alice" }), vector: vector(1, 0, 0, 0), k: 5 }),
      ).toHaveLength(2);
      await store().beginReembed({ id: "next-model", dimension: 2 }); // resumes, keeps progress
      expect((await store().listUnembedded(10)).map((row) => row.id)).toEqual([b.id]);
      await store().writeReembedded([{ id: b.id, hash: b.hash, embedding: vector(1, 0) }]);
      await store().finishReembed();
      expect(await store().embedderStamp()).toEqual({ id: "next-model", dimension: 2 });
      expect(await store().pendingReembed()).toBeNull();
      const hits = await store().searchDense({
        filter: filter({ agent_id: "coder" }),
        vector: vector(1, 0),
        k: 5,
      });
      expect(hits.map((hit) => hit.id)).toEqual([b.id]);
      expect(hits[0]?.similarity).toBeCloseTo(1, 5);
    });
    it("fails with STORE_CLOSED after close", async () => {
      await store().close();
      await expect(store().getMemory("x")).rejects.toMatchObject({ code: "STORE_CLOSED" });
      await reopen();
    });
  },
};
