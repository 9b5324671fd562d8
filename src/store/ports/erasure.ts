/**
 * The erasure sub-port: taking a value out of what the store keeps besides the memories themselves
 * — history, session messages, the runs' recorded plans and preimages — and forgetting a memory's
 * traces altogether. A dream that removes a credential scrubs it from history and messages with
 * this; `purge` and `dream --purge-secrets` also rewrite the preimages undo would restore.
 *
 * @module
 */

import type { MemoryPreimage } from "./runs.js";

/** A value to take out, and what replaces it (`[REDACTED:<kind>]`). */
export interface ValueScrub {
  readonly value: string;
  readonly replacement: string;
}

export interface ScrubTargets {
  /** The history rows of these memories. */
  readonly memoryIds: readonly string[];
  /** The messages of these session scopes (`scopeKey`s). */
  readonly sessionScopes: readonly string[];
}

/** The preimage one run keeps of a memory (`before.row.id`). */
export interface StoredPreimage {
  readonly runId: string;
  readonly before: MemoryPreimage;
}

export interface PreimageQuery {
  /** Only preimages kept by these runs. */
  readonly runIds: readonly string[];
  /** Only this memory's. */
  readonly memoryId?: string;
  /** Only preimages in which one of these values occurs (in the text or metadata). */
  readonly containing?: readonly string[];
}

export interface ErasurePort {
  /** Replaces every occurrence of each value, in the given order; rows changed, per kind. */
  scrubValues(
    values: readonly ValueScrub[],
    targets: ScrubTargets,
  ): Promise<{ readonly history: number; readonly messages: number }>;
  /** The ids of the runs recorded for one of these scope keys or that touched one of these memories. */
  runsTouching(query: {
    readonly scopeKeys: readonly string[];
    readonly memoryIds: readonly string[];
  }): Promise<string[]>;
  /** Replaces each value in the recorded plans of these runs; plans changed. */
  scrubRunPlans(values: readonly ValueScrub[], runIds: readonly string[]): Promise<number>;
  /** Preimages, oldest run first. */
  listPreimages(query: PreimageQuery): Promise<StoredPreimage[]>;
  /** Replaces the preimage run `runId` keeps of the memory `before.row.id`. */
  replacePreimage(runId: string, before: MemoryPreimage): Promise<void>;
  /**
   * Deletes a memory's history and every run's record of it (a run then neither restores nor
   * removes it on undo). The memory itself is deleted through the write path, not here.
   */
  forgetTraces(memoryId: string): Promise<{ readonly history: number; readonly runs: number }>;
}
