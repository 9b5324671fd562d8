/**
 * A `DreamSnapshot` from rows and vectors already in memory: the pure half of loading one, and
 * how tests and benchmarks make snapshots without a store.
 *
 * @module
 */

import { ownerKey, type Scope } from "../core/scope.js";
import type { MemoryRow } from "../store/ports/memories.js";
import { createPartitionedIndex, type PartitionedIndex } from "./neighbours/partitioned-index.js";
import { createVectorSet, rowVector, type VectorSet } from "./neighbours/vector-set.js";
import type { DreamSnapshot, Neighbour, SnapshotMemory } from "./snapshot.js";

export interface SnapshotInput {
  readonly scope: Scope;
  /** The plan's clock, ISO-8601. */
  readonly now: string;
  readonly rows: readonly MemoryRow[];
  /** Stored vectors by memory id; a memory without one simply has no neighbours. */
  readonly vectors: ReadonlyMap<string, Float32Array>;
  /** Scopes up to this size get exact neighbours (default `EXACT_LIMIT`). */
  readonly exactLimit?: number;
}

// Mem0's pin skill marks pinned memories with this text prefix while its dream skill checks
// `metadata.pinned`; Lucid honours both, so a memory pinned either way is safe.
const PINNED_PREFIX = "[PINNED]";

/**
 * Orders rows oldest first (then by id), packs their vectors, and indexes them for neighbour
 * lookups: a memory's neighbours are memories of its own owner only (its full stored scope), so no
 * analyser pairs two owners' memories. Neighbour lists are computed on first request and cached.
 *
 * @example
 * const snapshot = buildSnapshot({ scope: { user_id: "alice" }, now: "2026-11-30T00:00:00.000Z", rows, vectors });
 * snapshot.neighbours(rows[0].id, 5); // => [{ id, similarity }, …]
 */
export function buildSnapshot(input: SnapshotInput): DreamSnapshot {
  const rows = [...input.rows].sort(snapshotOrder);
  const first = rows.map((row) => input.vectors.get(row.id)).find((vector) => vector !== undefined);
  const set = createVectorSet(
    rows.map((row) => input.vectors.get(row.id)),
    first?.length ?? 0,
  );
  return packedSnapshot({ scope: input.scope, now: input.now, rows, set, exactLimit: input.exactLimit });
}

/** Oldest first, then by id: the order of `snapshot.memories`. */
export function snapshotOrder(a: MemoryRow, b: MemoryRow): number {
  return compare(a.createdAt, b.createdAt) || compare(a.id, b.id);
}

/** A snapshot over rows already in `snapshotOrder` whose vectors are row `i` of `set`. */
export function packedSnapshot(input: {
  scope: Scope;
  now: string;
  rows: readonly MemoryRow[];
  set: VectorSet;
  exactLimit?: number | undefined;
}): DreamSnapshot {
  const { set } = input;
  const memories = input.rows.map(toSnapshotMemory);
  const rowOf = new Map(memories.map((memory, row) => [memory.id, row]));
  let index: PartitionedIndex | undefined;
  const cache = new Map<number, readonly Neighbour[]>();

  return {
    scope: input.scope,
    now: input.now,
    memories,
    byId: (id) => {
      const row = rowOf.get(id);
      return row === undefined ? undefined : memories[row];
    },
    embedding: (id) => {
      const row = rowOf.get(id);
      return row === undefined ? undefined : rowVector(set, row);
    },
    neighbours(id, k) {
      const row = rowOf.get(id);
      if (row === undefined || k <= 0) return [];
      index ??= createPartitionedIndex(set, memories.map(ownerKey), { exactLimit: input.exactLimit });
      const cached = cache.get(row);
      if (cached !== undefined && cached.length >= Math.min(k, index.peers(row))) return cached.slice(0, k);
      const found = index.search(row, k).map((hit) => ({
        id: (memories[hit.row] as SnapshotMemory).id,
        similarity: hit.score,
      }));
      cache.set(row, found);
      return found;
    },
  };
}

function toSnapshotMemory(row: MemoryRow): SnapshotMemory {
  const { pinned, confidence } = row.metadata;
  return {
    ...row,
    pinned: pinned === true || row.text.trimStart().startsWith(PINNED_PREFIX),
    confidence: typeof confidence === "number" && confidence >= 0 && confidence <= 1 ? confidence : null,
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
