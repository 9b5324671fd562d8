/**
 * Nearest neighbours among a snapshot's vectors: exact for small scopes, an inverted-file index
 * over random projections for large ones. Both answer the same question; the approximate one
 * may miss a neighbour (its recall is measured in bench/dream.ts).
 *
 * @module
 */

import { createExactIndex } from "./exact-index.js";
import { createIvfIndex } from "./ivf-index.js";
import type { Scored } from "./top-k.js";
import type { VectorSet } from "./vector-set.js";

export interface NeighbourIndex {
  readonly kind: "exact" | "ivf";
  /** Up to `k` other rows most similar to `row`, best first (ties: lower row first). */
  search(row: number, k: number): Scored[];
}

/**
 * Exact search costs one dot product per memory per query: at ~1 billion multiply-adds a second
 * (2 cores, plain JS), every neighbour list of 2,000 memories × 512-d (2M pairs) takes about 1 s. Past that
 * the approximate index is used.
 */
export const EXACT_LIMIT = 2000;

/**
 * Picks the index for the set's size.
 *
 * @example
 * const index = createNeighbourIndex(createVectorSet(vectors, 512));
 * index.search(0, 10);
 */
export function createNeighbourIndex(set: VectorSet, options: { exactLimit?: number } = {}): NeighbourIndex {
  return set.count <= (options.exactLimit ?? EXACT_LIMIT) ? createExactIndex(set) : createIvfIndex(set);
}
