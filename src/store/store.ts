/**
 * The MemoryStore port: everything Lucid needs from a database, and nothing about which one,
 * composed of small sub-ports (`ports/*.ts`), each with its own contract suite
 * (`test/store/contract/*.ts`) that every backend runs.
 *
 * Every method is async, even on synchronous SQLite, so that PostgreSQL can implement the same
 * contract. Backends live in sibling folders (`sqlite/`, later `postgres/`).
 *
 * @module
 */

import type { ErasurePort } from "./ports/erasure.js";
import type { HistoryPort } from "./ports/history.js";
import type { LeasesPort } from "./ports/leases.js";
import type { MaintenancePort } from "./ports/maintenance.js";
import type { MemoriesPort } from "./ports/memories.js";
import type { NotesPort } from "./ports/notes.js";
import type { RecallsPort } from "./ports/recalls.js";
import type { RunsPort } from "./ports/runs.js";
import type { SearchPort } from "./ports/search.js";
import type { SleepStatePort } from "./ports/sleep-state.js";
import type { SnapshotsPort } from "./ports/snapshots.js";
import type { TransferPort } from "./ports/transfer.js";

export interface StoreCapabilities {
  /** The backend's name, for `status` and messages (`sqlite`, `postgres`). */
  readonly backend: string;
  /** Dense search is approximate (an ANN index) rather than exact. */
  readonly ann: boolean;
  /** Several processes may write at once without serialising on one lock. */
  readonly concurrentWriters: boolean;
}

/**
 * What a transaction's callback works with: every operation of the store that may take part in a
 * transaction, and `transaction` again for a nested one (a savepoint: an inner failure rolls back
 * only the inner writes).
 *
 * Inside a callback, use only this handle. The store itself may sit on another connection (a
 * pooled PostgreSQL one), so a call through it would not see the transaction's writes.
 */
export interface MemoryStoreOps
  extends MemoriesPort,
    SearchPort,
    HistoryPort,
    RunsPort,
    ErasurePort,
    LeasesPort,
    RecallsPort,
    SleepStatePort,
    NotesPort {
  transaction<T>(fn: (tx: MemoryStoreOps) => Promise<T>): Promise<T>;
}

export interface MemoryStore extends MemoryStoreOps, MaintenancePort, SnapshotsPort, TransferPort {
  readonly capabilities: StoreCapabilities;
  /** Where the data lives, for messages and `status` (a file path, a redacted URL). */
  readonly location: string;
  readonly schemaVersion: number;
  /** Runs `fn` in one transaction: all of its writes commit together, or none do. */
  transaction<T>(fn: (tx: MemoryStoreOps) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
