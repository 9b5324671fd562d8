/**
 * What analysers see: a read-only snapshot of one scope's memories, with their stored vectors and
 * a nearest-neighbour lookup. Analysers are pure functions of a snapshot and the policy.
 *
 * @module
 */

import type { Scope } from "../core/scope.js";
import type { MemoryRow } from "../store/ports/memories.js";

export interface SnapshotMemory extends MemoryRow {
  /** `metadata.pinned === true`: never merged, rewritten or pruned (a secret is still redacted). */
  readonly pinned: boolean;
  /** `metadata.confidence` when it is a number in [0, 1]. */
  readonly confidence: number | null;
}

export interface Neighbour {
  readonly id: string;
  readonly similarity: number;
}

export interface DreamSnapshot {
  readonly scope: Scope;
  /** ISO-8601: the plan's clock. */
  readonly now: string;
  readonly memories: readonly SnapshotMemory[];
  byId(id: string): SnapshotMemory | undefined;
  /** The stored vector of a memory (never recomputed). */
  embedding(id: string): Float32Array | undefined;
  /**
   * Up to `k` most similar memories of the snapshot to `id` (excluding itself), best first: only
   * memories of the same owner (full stored scope, `ownerKey`), so nothing pairs two owners.
   */
  neighbours(id: string, k: number): readonly Neighbour[];
}
