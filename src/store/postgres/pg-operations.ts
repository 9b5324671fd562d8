/**
 * Every operation of the PostgreSQL store on one connection: the role files composed. Built per
 * connection (a pooled one for a single call, the transaction's for a transaction); building is
 * only closures, no I/O.
 *
 * @module
 */

import type { MemoryStoreOps } from "../store.js";
import { createPgErasure } from "./pg-erasure.js";
import { createPgHistory } from "./pg-history.js";
import { createPgLeases } from "./pg-leases.js";
import { createPgMemories } from "./pg-memories.js";
import { createPgNotes } from "./pg-notes.js";
import { createPgRecalls } from "./pg-recalls.js";
import { createPgRuns } from "./pg-runs.js";
import { createPgSearch } from "./pg-search.js";
import { createPgSleepState } from "./pg-sleep-state.js";
import type { Sql } from "./pg-sql.js";

export type PgOperations = Omit<MemoryStoreOps, "transaction">;

export interface PgSettings {
  /** Dense search is exact while at most this many memories pass the filter. */
  readonly exactSearchBelow: number;
}

/** `inTransaction`: the operations run inside a `tx` handle's transaction (see `createPgMemories`). */
export function createPgOperations(sql: Sql, settings: PgSettings, inTransaction = false): PgOperations {
  return {
    ...createPgMemories(sql, { inTransaction }),
    ...createPgSearch(sql, settings),
    ...createPgHistory(sql),
    ...createPgRuns(sql),
    ...createPgErasure(sql),
    ...createPgLeases(sql),
    ...createPgRecalls(sql),
    ...createPgSleepState(sql),
    ...createPgNotes(sql),
  };
}
