/**
 * The snapshots sub-port: reading many memories as one consistent snapshot — what a backup needs.
 * Writes that commit while the snapshot is read, by this process or another, are not seen, and no
 * memory that existed when it began is missed.
 *
 * @module
 */

import type { FilteredQuery, MemoryRow } from "./memories.js";

export interface SnapshotQuery extends FilteredQuery {
  /** `oldest` (default): createdAt ascending; `newest`: descending. Ties are broken by id. */
  readonly order?: "newest" | "oldest";
  /** Rows per page. Default 500. */
  readonly pageSize?: number;
}

export interface SnapshotsPort {
  /**
   * The matching memories, a page at a time, all from one snapshot taken at the first page. Breaking
   * out of the loop ends the snapshot. Never inside a transaction.
   */
  streamMemories(query: SnapshotQuery): AsyncIterable<readonly MemoryRow[]>;
}
