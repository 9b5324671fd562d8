/**
 * The maintenance sub-port: what the store holds as a whole — its embedder, re-embedding to another
 * one, counts for `status`, and `reset`. Never called inside a transaction.
 *
 * @module
 */

import type { ScopeKey } from "../../core/scope.js";
import type { MemoryRow, Visibility } from "./memories.js";

/** The embedder a store was written with. */
export interface EmbedderStamp {
  readonly id: string;
  readonly dimension: number;
}

export interface StoreStats {
  readonly total: number;
  /** Memories hidden by the visibility rule given to `stats`. */
  readonly expired: number;
  /** Memories per value of each scope key (memories without the key are not counted under it). */
  readonly byScope: Readonly<Record<ScopeKey, Readonly<Record<string, number>>>>;
  /** Memories per category; uncategorised ones are counted under `""`. */
  readonly byCategory: Readonly<Record<string, number>>;
  /** Bytes on disk, or null when the store has no file. */
  readonly sizeBytes: number | null;
}

/** A vector to store for a memory during re-embedding. */
export interface MemoryVector {
  readonly id: string;
  /** The hash of the text the vector was computed for: a memory whose text changed since is skipped. */
  readonly hash: string;
  readonly embedding: Float32Array;
}

export interface MaintenancePort {
  stats(visibility: Visibility): Promise<StoreStats>;
  /**
   * Records the embedder on first use; afterwards refuses a different one with
   * `EMBEDDER_MISMATCH`, since vectors of two models cannot be compared.
   */
  bindEmbedder(stamp: EmbedderStamp): Promise<void>;
  /**
   * Re-embedding, step 1: prepares vectors for `target` beside the current ones. Resumes a run
   * for the same target; a run for another target is discarded.
   */
  beginReembed(target: EmbedderStamp): Promise<void>;
  /** The embedder a re-embedding run is filling vectors for, and how many memories still lack one. */
  pendingReembed(): Promise<{ target: EmbedderStamp; remaining: number } | null>;
  /** Re-embedding, step 2: memories that have no vector for the pending embedder yet, oldest first. */
  listUnembedded(limit: number): Promise<MemoryRow[]>;
  /**
   * Re-embedding, step 3: stores vectors for the pending embedder, atomically — except for a memory
   * whose text changed since it was listed (its hash differs): it stays unembedded, for the next round.
   */
  writeReembedded(vectors: readonly MemoryVector[]): Promise<void>;
  /**
   * Re-embedding, step 4: once every memory has a new vector, makes them the store's vectors and
   * `target` its embedder, in one transaction. Fails if any memory still lacks one.
   */
  finishReembed(): Promise<void>;
  /** Deletes every memory, history row, entity, message and run, and forgets the embedder. */
  reset(): Promise<void>;
  /**
   * Makes what was deleted or overwritten unrecoverable from the store's files: indexes merged
   * without deleted entries, free space dropped, the write-ahead log emptied. Slow on a large store;
   * `purge` calls it. `complete` is false when another connection kept part of the log alive (it
   * is emptied when the last one closes).
   */
  compact(): Promise<{ readonly complete: boolean }>;
}
