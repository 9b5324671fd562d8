/**
 * The transfer sub-port: everything a store holds, as backend-neutral records, so a store can be
 * copied into another — SQLite into PostgreSQL and back — exactly: ids, sequence numbers, timestamps,
 * history (a deleted memory's too), every session's messages, runs with their preimages, and vectors
 * bit for bit. The other ports cannot enumerate all of it (they read by memory, by session, by
 * workspace); this one reads and writes it whole. Never inside a transaction.
 *
 * An export begins with one `store` record (the store's own facts); importing a batch that holds it
 * is how a copy starts, and a store that already holds records refuses it. Sequence numbers are
 * kept, so orders (history, messages, runs, sleep events) and the seqs callers see are the same in
 * the copy, and what is written afterwards gets higher ones.
 *
 * @module
 */

import type { HistoryRow, StoredMessage } from "./history.js";
import type { Lease } from "./leases.js";
import type { EmbedderStamp } from "./maintenance.js";
import type { EntityLink, MemoryRow } from "./memories.js";
import type { NoteChunkRecord, NoteFileRecord } from "./notes.js";
import type { StoredRecall } from "./recalls.js";
import type { RunChange, RunRecord } from "./runs.js";
import type { SleepEvent, SleepStateRecord } from "./sleep-state.js";

/** The kinds of record, in the order an export lists them (and an import needs them). */
export const TRANSFER_KINDS = [
  "store",
  "memory",
  "history",
  "message",
  "run",
  "gateState",
  "gateSession",
  "lease",
  "recall",
  "sleepState",
  "sleepEvent",
  "noteFile",
] as const;
export type TransferKind = (typeof TRANSFER_KINDS)[number];

/** The store's own facts: its embedder, and the one a re-embedding under way is switching to. */
export interface StoreFactsTransfer {
  readonly kind: "store";
  readonly embedder: EmbedderStamp | null;
  readonly reembedTarget: EmbedderStamp | null;
}

export interface MemoryTransfer {
  readonly kind: "memory";
  /** Its place in insertion order: ties in search and re-embedding order are broken by it. */
  readonly seq: number;
  readonly row: MemoryRow;
  /** Null only for a memory stored without one. */
  readonly embedding: Float32Array | null;
  /** Its vector from the re-embedding's target, once computed. */
  readonly pendingEmbedding: Float32Array | null;
  /** By key. */
  readonly entities: readonly EntityLink[];
}

export interface HistoryTransfer {
  readonly kind: "history";
  readonly row: HistoryRow;
}

export interface MessageTransfer {
  readonly kind: "message";
  readonly seq: number;
  readonly sessionScope: string;
  readonly message: StoredMessage;
}

export interface RunTransfer {
  readonly kind: "run";
  readonly seq: number;
  readonly run: RunRecord;
  readonly changes: readonly RunChange[];
}

/** What the auto-dream gate remembers of a scope besides its sessions. */
export interface GateStateTransfer {
  readonly kind: "gateState";
  readonly scopeKey: string;
  readonly lastConsolidatedAt: string | null;
  readonly lastSessionId: string | null;
}

/** An interactive session counted for a scope's gate. */
export interface GateSessionTransfer {
  readonly kind: "gateSession";
  readonly scopeKey: string;
  readonly sessionId: string;
  readonly trigger: string;
  readonly recordedAt: string;
}

export interface LeaseTransfer {
  readonly kind: "lease";
  readonly key: string;
  readonly lease: Lease;
}

export interface RecallTransfer {
  readonly kind: "recall";
  readonly workspace: string;
  readonly recall: StoredRecall;
}

export interface SleepStateTransfer {
  readonly kind: "sleepState";
  readonly workspace: string;
  readonly namespace: string;
  readonly record: SleepStateRecord;
}

export interface SleepEventTransfer {
  readonly kind: "sleepEvent";
  readonly workspace: string;
  readonly event: SleepEvent;
}

export interface NoteFileTransfer {
  readonly kind: "noteFile";
  readonly workspace: string;
  readonly file: NoteFileRecord;
  /** In the order they were indexed. */
  readonly chunks: readonly NoteChunkRecord[];
}

export type TransferRecord =
  | StoreFactsTransfer
  | MemoryTransfer
  | HistoryTransfer
  | MessageTransfer
  | RunTransfer
  | GateStateTransfer
  | GateSessionTransfer
  | LeaseTransfer
  | RecallTransfer
  | SleepStateTransfer
  | SleepEventTransfer
  | NoteFileTransfer;

export type TransferCounts = Readonly<Record<TransferKind, number>>;

export interface TransferPort {
  /**
   * Every record the store holds, in pages (default 500 records), all from one consistent snapshot
   * taken at the first page, as `streamMemories` reads. The first page is the `store` record alone.
   * Breaking out of the loop ends the snapshot. Never inside a transaction.
   */
  exportRecords(options?: { readonly pageSize?: number }): AsyncIterable<readonly TransferRecord[]>;
  /**
   * Writes records exactly as given (ids, sequence numbers, timestamps, vectors bit for bit), in one
   * transaction per call. A batch holding the `store` record starts a copy: a store that already
   * holds any record refuses it with INVALID_ARGUMENT before writing anything, and one bound to
   * another embedder with EMBEDDER_MISMATCH. Later batches continue the copy.
   */
  importRecords(records: readonly TransferRecord[]): Promise<void>;
  /**
   * Ends a copy: builds what the backend put off while records came in (PostgreSQL's vector index,
   * built once rather than row by row). Search works before it, only slower. Safe to call again.
   */
  finishImport(): Promise<void>;
  /** How many records of each kind the store holds (`store`: always 1). */
  countRecords(): Promise<TransferCounts>;
}
