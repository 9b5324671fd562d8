import { describe, expect, it } from "vitest";
import { idsMissingSimilarity, idsWorthScoring, rankCandidates } from "../../src/search/rank.js";

/** A small seeded generator, so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe("idsWorthScoring", () => {
  it("never changes the top K: skipping candidates that cannot reach it is exact", () => {
    const next = random(42);
    for (let trial = 0; trial < 300; trial++) {
      const pool = 10;
      const topK = 1 + Math.floor(next() * 5);
      const similarity = new Map<string, number>(Array.from({ length: 40 }, (_, i) => [`m${i}`, next()]));
      const byDense = [...similarity].sort((a, b) => b[1] - a[1]).slice(0, pool);
      const dense = byDense.map(([id, value]) => ({ id, similarity: value }));
      const keyword = [...similarity.keys()]
        .filter(() => next() < 0.4)
        .map((id) => ({ id, bm25: next() * 12 }));
      const entity = [...similarity.keys()]
        .filter(() => next() < 0.1)
        .map((id) => ({ id, key: "k", linkCount: 1 + Math.floor(next() * 50) }));
      const base = { dense, keyword, entity, termCount: 3, denseUsed: true };
      const all = idsMissingSimilarity(base);
      const full = rankCandidates({
        ...base,
        extraSimilarity: new Map(all.map((id) => [id, similarity.get(id) ?? 0])),
      });
      const worth = idsWorthScoring(base, topK, pool);
      const pruned = rankCandidates({
        ...base,
        extraSimilarity: new Map(worth.map((id) => [id, similarity.get(id) ?? 0])),
      });
      expect(pruned.slice(0, topK).map((c) => [c.id, c.score.final])).toEqual(
        full.slice(0, topK).map((c) => [c.id, c.score.final]),
      );
    }
  });

  it("stays exact with threads: the thread prior sees every threaded candidate", () => {
    const next = random(7);
    for (let trial = 0; trial < 300; trial++) {
      const pool = 10;
      const topK = 1 + Math.floor(next() * 5);
      const similarity = new Map<string, number>(Array.from({ length: 40 }, (_, i) => [`m${i}`, next()]));
      const facts = new Map(
        [...similarity.keys()].map((id, i) => [
          id,
          i % 2 === 0
            ? { thread: `t${i % 3}`, speaker: next() < 0.3, date: false, time: next() < 0.2 }
            : { speaker: next() < 0.3, date: next() < 0.2, time: false },
        ]),
      );
      const dense = [...similarity]
        .sort((a, b) => b[1] - a[1])
        .slice(0, pool)
        .map(([id, value]) => ({ id, similarity: value }));
      const keyword = [...similarity.keys()]
        .filter(() => next() < 0.4)
        .map((id) => ({ id, bm25: next() * 12 }));
      const context = [...similarity.keys()]
        .filter(() => next() < 0.2)
        .map((id) => ({ id, bm25: next() * 8 }));
      const query = { speakers: true, dates: true, timeQuestion: true };
      const base = { dense, keyword, context, entity: [], termCount: 3, denseUsed: true, query, facts };
      const all = idsMissingSimilarity(base);
      const full = rankCandidates({
        ...base,
        extraSimilarity: new Map(all.map((id) => [id, similarity.get(id) ?? 0])),
      });
      const worth = idsWorthScoring(base, topK, pool);
      const pruned = rankCandidates({
        ...base,
        extraSimilarity: new Map(worth.map((id) => [id, similarity.get(id) ?? 0])),
      });
      expect(pruned.slice(0, topK).map((c) => [c.id, c.score.final])).toEqual(
        full.slice(0, topK).map((c) => [c.id, c.score.final]),
      );
    }
  });

  it("skips a keyword-only candidate that cannot reach the top K, and keeps one that can", () => {
    const dense = [
      { id: "a", similarity: 0.9 },
      { id: "b", similarity: 0.8 },
    ];
    const base = { dense, entity: [], termCount: 1, denseUsed: true };
    const weak = idsWorthScoring(
      {
        ...base,
        keyword: [
          { id: "a", bm25: 9 },
          { id: "z", bm25: 0.1 },
        ],
      },
      1,
      2,
    );
    expect(weak).toEqual([]);
    const strong = idsWorthScoring({ ...base, keyword: [{ id: "z", bm25: 12 }] }, 1, 2);
    expect(strong).toEqual(["z"]);
  });
});
