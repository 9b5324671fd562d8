/**
 * Loading one scope's memories from a store into a `DreamSnapshot`: every memory, expired ones
 * included (expiry is one of the things a dream acts on), with the vectors the store already
 * holds — a dream never re-embeds anything.
 *
 * Vectors are written straight into one packed `Float32Array` as pages arrive, so a 100k × 512-d
 * scope peaks at about one copy of its vectors (200 MB), not two.
 *
 * @module
 */

import type { Scope } from "../core/scope.js";
import { scopeFilter } from "../filters/scope-of-filters.js";
import type { MemoryRow } from "../store/ports/memories.js";
import type { MemoryStore } from "../store/store.js";
import { packedSnapshot, snapshotOrder } from "./build-snapshot.js";
import {
  createVectorSet,
  emptyVectorSet,
  rowVector,
  type VectorSet,
  writeVector,
} from "./neighbours/vector-set.js";
import type { DreamSnapshot } from "./snapshot.js";

export interface LoadSnapshotOptions {
  readonly scope: Scope;
  /** The plan's clock, ISO-8601. */
  readonly now: string;
  /** Rows (and vectors) read per store call. Default 1000. */
  readonly pageSize?: number;
  readonly exactLimit?: number;
}

/**
 * Pages through the scope oldest first, fetching each page's vectors in one batch.
 *
 * @example
 * const snapshot = await loadSnapshot(store, { scope: { user_id: "alice" }, now: new Date().toISOString() });
 * snapshot.memories.length; // every memory of alice, expired ones too
 */
export async function loadSnapshot(store: MemoryStore, options: LoadSnapshotOptions): Promise<DreamSnapshot> {
  return packedSnapshot(await loadSnapshotData(store, options));
}

/** What a snapshot is made of: rows in snapshot order, and row `i`'s vector in row `i` of `set`. */
export interface SnapshotData {
  readonly scope: Scope;
  readonly now: string;
  readonly rows: readonly MemoryRow[];
  readonly set: VectorSet;
  readonly exactLimit?: number | undefined;
}

/** The rows and packed vectors of a scope, as `loadSnapshot` reads them (plain data: it can cross to a worker). */
export async function loadSnapshotData(
  store: MemoryStore,
  options: LoadSnapshotOptions,
): Promise<SnapshotData> {
  const pageSize = options.pageSize ?? 1000;
  const filter = scopeFilter(options.scope);
  const rows: MemoryRow[] = [];
  let set: VectorSet | undefined;
  let capacity = 0;
  for (let offset = 0; ; offset += pageSize) {
    const page = await store.listMemories({ filter, limit: pageSize, offset, order: "oldest" });
    if (page.rows.length === 0) break;
    const embeddings = await store.getEmbeddings(page.rows.map((row) => row.id));
    for (const row of page.rows) {
      const vector = embeddings.get(row.id);
      if (vector !== undefined && set === undefined) {
        // Sized from the first page's total; grown if rows were added while paging.
        capacity = Math.max(page.total, rows.length + page.rows.length);
        set = emptyVectorSet(capacity, vector.length);
      }
      if (set !== undefined && rows.length >= capacity) {
        capacity = Math.max(capacity * 2, rows.length + 1);
        set = grow(set, capacity);
      }
      if (vector !== undefined && set !== undefined) writeVector(set, rows.length, vector);
      rows.push(row);
    }
    if (page.rows.length < pageSize) break;
  }
  const packed = set === undefined ? emptyVectorSet(rows.length, 0) : trim(set, rows.length);
  const base = { scope: options.scope, now: options.now, exactLimit: options.exactLimit };
  if (isSorted(rows)) return { ...base, rows, set: packed };
  // The store orders ids by its own collation; if that differs from JavaScript's, re-sort.
  const order = rows.map((row, index) => ({ row, index })).sort((a, b) => snapshotOrder(a.row, b.row));
  return {
    ...base,
    rows: order.map(({ row }) => row),
    set: createVectorSet(
      order.map(({ index }) => rowVector(packed, index)),
      packed.dimension,
    ),
  };
}

function isSorted(rows: readonly MemoryRow[]): boolean {
  for (let index = 1; index < rows.length; index++) {
    if (snapshotOrder(rows[index - 1] as MemoryRow, rows[index] as MemoryRow) > 0) return false;
  }
  return true;
}

function grow(set: VectorSet, count: number): VectorSet {
  const bigger = emptyVectorSet(count, set.dimension);
  bigger.data.set(set.data);
  bigger.present.set(set.present);
  return bigger;
}

/** A view of the first `count` rows (no copy). */
function trim(set: VectorSet, count: number): VectorSet {
  return {
    count,
    dimension: set.dimension,
    data: set.data.subarray(0, count * set.dimension),
    present: set.present.subarray(0, count),
  };
}
