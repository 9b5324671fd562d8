/**
 * Rows as transfer records: what both backends' transfer readers build from the tables they share
 * column for column. One mapping, so an export from SQLite and one from PostgreSQL hold the same
 * records, and a copy between them is exact. Each backend selects and pages; this names the result.
 *
 * @module
 */

import type { EntityLink } from "../ports/memories.js";
import type { NoteChunkRecord } from "../ports/notes.js";
import type {
  GateSessionTransfer,
  GateStateTransfer,
  HistoryTransfer,
  LeaseTransfer,
  MemoryTransfer,
  MessageTransfer,
  NoteFileTransfer,
  RecallTransfer,
  SleepEventTransfer,
  SleepStateTransfer,
} from "../ports/transfer.js";
import {
  type HistoryRecordRow,
  type MessageRecordRow,
  toHistoryRow,
  toStoredMessage,
} from "./history-rows.js";
import { type LeaseRow, toLease } from "./lease-rows.js";
import { type MemoryRecordRow, toMemoryRow } from "./memory-rows.js";
import { type NoteFileRow, toNoteFile } from "./note-rows.js";
import {
  type RecallRow,
  type SleepEventRow,
  type SleepStateRow,
  toRecall,
  toSleepEvent,
  toSleepStateRecord,
} from "./sleep-rows.js";

/** A message with what the history port reads it by, which a transfer record carries. */
export interface MessageTransferRow extends MessageRecordRow {
  /** A number from SQLite; PostgreSQL's int8, a string. */
  seq: number | string;
  session_scope: string;
}

// The sub-ports' rows with the keys they are read by, which a transfer record carries.
export type LeaseTransferRow = LeaseRow & { scope_key: string };
export type RecallTransferRow = RecallRow & { workspace: string };
export type SleepStateTransferRow = SleepStateRow & { workspace: string; namespace: string };
export type SleepEventTransferRow = SleepEventRow & { workspace: string };
export type NoteFileTransferRow = NoteFileRow & { workspace: string };

/** The auto-dream gate's tables, which only a transfer reads row by row. */
export interface GateStateRow {
  scope_key: string;
  last_consolidated_at: string | null;
  last_session_id: string | null;
}

export interface GateSessionRow {
  scope_key: string;
  session_id: string;
  trigger: string;
  recorded_at: string;
}

/** A memory row with what its backend read beside it: its vectors, decoded, and its entity links. */
export function toMemoryTransfer(
  row: MemoryRecordRow,
  found: {
    readonly embedding: Float32Array | null;
    readonly pendingEmbedding: Float32Array | null;
    readonly entities: readonly EntityLink[];
  },
): MemoryTransfer {
  return {
    kind: "memory",
    seq: Number(row.seq),
    row: toMemoryRow(row),
    embedding: found.embedding,
    pendingEmbedding: found.pendingEmbedding,
    entities: found.entities,
  };
}

export const toHistoryTransfer = (row: HistoryRecordRow): HistoryTransfer => ({
  kind: "history",
  row: toHistoryRow(row),
});

export const toMessageTransfer = (row: MessageTransferRow): MessageTransfer => ({
  kind: "message",
  seq: Number(row.seq),
  sessionScope: row.session_scope,
  message: toStoredMessage(row),
});

export const toGateStateTransfer = (row: GateStateRow): GateStateTransfer => ({
  kind: "gateState",
  scopeKey: row.scope_key,
  lastConsolidatedAt: row.last_consolidated_at,
  lastSessionId: row.last_session_id,
});

export const toGateSessionTransfer = (row: GateSessionRow): GateSessionTransfer => ({
  kind: "gateSession",
  scopeKey: row.scope_key,
  sessionId: row.session_id,
  trigger: row.trigger,
  recordedAt: row.recorded_at,
});

export const toLeaseTransfer = (row: LeaseTransferRow): LeaseTransfer => ({
  kind: "lease",
  key: row.scope_key,
  lease: toLease(row),
});

export const toRecallTransfer = (row: RecallTransferRow): RecallTransfer => ({
  kind: "recall",
  workspace: row.workspace,
  recall: toRecall(row),
});

export const toSleepStateTransfer = (row: SleepStateTransferRow): SleepStateTransfer => ({
  kind: "sleepState",
  workspace: row.workspace,
  namespace: row.namespace,
  record: toSleepStateRecord(row),
});

export const toSleepEventTransfer = (row: SleepEventTransferRow): SleepEventTransfer => ({
  kind: "sleepEvent",
  workspace: row.workspace,
  event: toSleepEvent(row),
});

/** A note file with its chunks, which its backend read (and decoded) in the order they were indexed. */
export const toNoteFileTransfer = (
  file: NoteFileTransferRow,
  chunks: readonly NoteChunkRecord[],
): NoteFileTransfer => ({
  kind: "noteFile",
  workspace: file.workspace,
  file: toNoteFile(file),
  chunks,
});
