import { describe, expect, it } from "vitest";
import {
  type Candidates,
  idsMissingSimilarity,
  idsWorthScoring,
  rankCandidates,
} from "../../src/search/rank.js";

/** A small seeded generator, so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** The top K with only the candidates worth scoring given a similarity equals the top K with all of them. */
function expectExactPruning(
  base: Omit<Candidates, "extraSimilarity">,
  similarity: ReadonlyMap<string, number>,
  topK: number,
  pool: number,
): void {
  const withSimilarity = (ids: readonly string[]) =>
    rankCandidates({ ...base, extraSimilarity: new Map(ids.map((id) => [id, similarity.get(id) ?? 0])) });
  const full = withSimilarity(idsMissingSimilarity(base));
  const pruned = withSimilarity(idsWorthScoring(base, topK, pool));
  expect(pruned.slice(0, topK).map((c) => [c.id, c.score.final])).toEqual(
    full.slice(0, topK).map((c) => [c.id, c.score.final]),
  );
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
      expectExactPruning(base, similarity, topK, pool);
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
      const query = { speakers: true, dates: true, timeQuestion: true };
      const base = { dense, keyword, entity: [], termCount: 3, denseUsed: true, query, facts };
      expectExactPruning(base, similarity, topK, pool);
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
