/**
 * Exact nearest neighbours by brute force, for small scopes and as the reference the approximate
 * index is measured against. Analysers ask for the neighbours of nearly every memory, so the
 * first query computes every pair once (n²/2 dot products, each feeding both rows' lists) and
 * later queries read the lists.
 *
 * @module
 */

import type { NeighbourIndex } from "./neighbour-index.js";
import { type Scored, TopK } from "./top-k.js";
import { dot, type VectorSet } from "./vector-set.js";

/** Neighbours kept per row by the all-pairs pass; a larger `k` falls back to one row's scan. */
const KEPT = 32;

/**
 * @example
 * const index = createExactIndex(createVectorSet(vectors, 512));
 * index.search(0, 5); // => [{ row: 7, score: 0.93 }, …]
 */
export function createExactIndex(set: VectorSet): NeighbourIndex {
  let lists: Scored[][] | undefined;
  return {
    kind: "exact",
    search(row: number, k: number): Scored[] {
      if (set.present[row] !== 1 || k <= 0) return [];
      if (k > KEPT) return scanRow(set, row, k);
      lists ??= allPairs(set);
      return (lists[row] ?? []).slice(0, k);
    },
  };
}

function scanRow(set: VectorSet, row: number, k: number): Scored[] {
  const top = new TopK(k);
  for (let other = 0; other < set.count; other++) {
    if (other !== row && set.present[other] === 1) top.push(other, dot(set, row, other));
  }
  return top.result();
}

function allPairs(set: VectorSet): Scored[][] {
  const tops = Array.from({ length: set.count }, () => new TopK(KEPT));
  for (let a = 0; a < set.count; a++) {
    if (set.present[a] !== 1) continue;
    const topA = tops[a] as TopK;
    for (let b = a + 1; b < set.count; b++) {
      if (set.present[b] !== 1) continue;
      const score = dot(set, a, b);
      topA.push(b, score);
      (tops[b] as TopK).push(a, score);
    }
  }
  return tops.map((top) => top.result());
}
