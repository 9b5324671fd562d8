/**
 * The append-only tables' rows — `history` and `messages` — which both backends' tables share
 * column for column: one mapping each way, so a memory's history and a session's messages read back
 * identically from SQLite and PostgreSQL.
 *
 * @module
 */

import type { HistoryAction, HistoryRow, NewHistoryRow, StoredMessage } from "../ports/history.js";

export interface HistoryRecordRow {
  /** A number from SQLite; PostgreSQL's int8, a string. */
  seq: number | string;
  memory_id: string;
  action: HistoryAction;
  previous_value: string | null;
  new_value: string | null;
  actor: string;
  created_at: string;
  changes: string | null;
}

export function toHistoryRow(row: HistoryRecordRow): HistoryRow {
  return {
    seq: Number(row.seq),
    memoryId: row.memory_id,
    action: row.action,
    previousValue: row.previous_value,
    newValue: row.new_value,
    actor: row.actor,
    createdAt: row.created_at,
    ...(row.changes === null ? {} : { changed: JSON.parse(row.changes) as string[] }),
  };
}

/** What an UPDATE changed as the `changes` column stores it: JSON text, or null when not given. */
export function changesOf(row: NewHistoryRow): string | null {
  return row.changed === undefined ? null : JSON.stringify(row.changed);
}

/**
 * A history row's column values in the order every backend's `insert into history(…)` lists them
 * after `seq`: memory_id, action, previous_value, new_value, actor, created_at, changes.
 */
export function historyValues(row: NewHistoryRow): unknown[] {
  return [
    row.memoryId,
    row.action,
    row.previousValue,
    row.newValue,
    row.actor,
    row.createdAt,
    changesOf(row),
  ];
}

export interface MessageRecordRow {
  role: string;
  content: string;
  name: string | null;
  created_at: string;
}

export function toStoredMessage(row: MessageRecordRow): StoredMessage {
  return { role: row.role, content: row.content, name: row.name, createdAt: row.created_at };
}
