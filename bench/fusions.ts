/**
 * Fusion formulas for the offline experiments, over a question's simulated candidate lists. Each
 * returns the candidate union ordered best first; the current engine formula is
 * `weightedSum({ semantic: 1, bm25: 1, entity: 1 })`.
 *
 * @module
 */

import type { CandidateSignals } from "./fusion-candidates.js";

/** `candidatePool(20)` in src/memory/search.ts: max(topK · 4, 60). */
export const POOL = 80;

export interface Lists {
  readonly dense: readonly CandidateSignals[];
  readonly keyword: readonly CandidateSignals[];
  readonly entity: readonly CandidateSignals[];
  /** Every candidate of the three lists, once. */
  readonly union: readonly CandidateSignals[];
}

/** Orders a question's candidate union, best first. */
export type Fusion = (lists: Lists) => readonly CandidateSignals[];

export interface Weights {
  readonly semantic: number;
  readonly bm25: number;
  readonly entity: number;
}

const byId = (a: CandidateSignals, b: CandidateSignals) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function simulatePool(candidates: readonly CandidateSignals[], pool: number): Lists {
  const dense = [...candidates].sort((a, b) => b.semantic - a.semantic || byId(a, b)).slice(0, pool);
  const keyword = candidates
    .filter((c) => c.bm25 > 0)
    .sort((a, b) => b.bm25 - a.bm25 || a.words - b.words || a.order - b.order)
    .slice(0, pool);
  // The store orders entity hits by link count (fewest first, i.e. largest boost), then id.
  const entity = candidates
    .filter((c) => c.entity > 0)
    .sort((a, b) => b.entity - a.entity || byId(a, b))
    .slice(0, pool);
  const union = [...new Map([...dense, ...keyword, ...entity].map((c) => [c.id, c])).values()];
  return { dense, keyword, entity, union };
}

/** A weighted sum of the signals; bm25 and entity count only for members of their generator's list, as in the engine. */
export function weightedSum(weights: Weights): Fusion {
  return (lists) => {
    const keyword = new Set(lists.keyword.map((c) => c.id));
    const entity = new Set(lists.entity.map((c) => c.id));
    const score = (c: CandidateSignals) =>
      weights.semantic * c.semantic +
      (keyword.has(c.id) ? weights.bm25 * c.bm25 : 0) +
      (entity.has(c.id) ? weights.entity * c.entity : 0);
    return sortBy(lists.union, score);
  };
}

/** Weighted sum after per-query normalisation: semantic min–max over the candidates, bm25 divided by the best. */
export function normalisedSum(weights: Weights): Fusion {
  return (lists) => {
    const semantics = lists.union.map((c) => c.semantic);
    const low = Math.min(...semantics);
    const span = Math.max(...semantics) - low || 1;
    const topBm25 = Math.max(0, ...lists.keyword.map((c) => c.bm25)) || 1;
    const keyword = new Set(lists.keyword.map((c) => c.id));
    const entity = new Set(lists.entity.map((c) => c.id));
    const score = (c: CandidateSignals) =>
      (weights.semantic * (c.semantic - low)) / span +
      (keyword.has(c.id) ? (weights.bm25 * c.bm25) / topBm25 : 0) +
      (entity.has(c.id) ? weights.entity * c.entity : 0);
    return sortBy(lists.union, score);
  };
}

/** Reciprocal rank fusion: Σ weight / (k + rank) over the lists a candidate appears in (rank from 1). */
export function reciprocalRank(k: number, use: { dense: number; keyword: number; entity: number }): Fusion {
  return (lists) => {
    const scores = new Map<string, number>();
    for (const [name, weight] of Object.entries(use) as [keyof typeof use, number][]) {
      if (weight === 0) continue;
      lists[name].forEach((c, index) => {
        scores.set(c.id, (scores.get(c.id) ?? 0) + weight / (k + index + 1));
      });
    }
    return sortBy(lists.union, (c) => scores.get(c.id) ?? 0);
  };
}

function sortBy(
  candidates: readonly CandidateSignals[],
  score: (c: CandidateSignals) => number,
): CandidateSignals[] {
  const scored = candidates.map((c) => ({ c, s: score(c) }));
  scored.sort((a, b) => b.s - a.s || b.c.semantic - a.c.semantic || byId(a.c, b.c));
  return scored.map((entry) => entry.c);
}
