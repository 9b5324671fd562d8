/**
 * Sleep's tables' rows — `recalls`, `sleep_state` and `sleep_events` — which both backends' tables
 * share column for column: one mapping, so what sleep keeps reads back identically from SQLite and
 * PostgreSQL. Values are JSON text, written by `toJson`; the event log's defaults (how many events
 * a workspace keeps, how many a listing returns) are the sub-port's, so they are here once too.
 *
 * @module
 */

import { LucidError } from "../../errors.js";
import type { StoredRecall } from "../ports/recalls.js";
import type { SleepEvent, SleepStateRecord } from "../ports/sleep-state.js";

export interface RecallRow {
  key: string;
  entry: string;
  updated_at: string;
  recalled_at: string;
  priority: number;
}

export const toRecall = (row: RecallRow): StoredRecall => ({
  key: row.key,
  entry: JSON.parse(row.entry) as Record<string, unknown>,
  updatedAt: row.updated_at,
  recalledAt: row.recalled_at,
  priority: row.priority,
});

export interface SleepStateRow {
  key: string;
  value: string;
  updated_at: string;
}

export const toSleepStateRecord = (row: SleepStateRow): SleepStateRecord => ({
  key: row.key,
  value: JSON.parse(row.value) as unknown,
  updatedAt: row.updated_at,
});

export interface SleepEventRow {
  /** A number from SQLite; PostgreSQL's int8, a string. */
  seq: number | string;
  type: string;
  at: string;
  data: string;
}

export const toSleepEvent = (row: SleepEventRow): SleepEvent => ({
  seq: Number(row.seq),
  type: row.type,
  at: row.at,
  data: JSON.parse(row.data) as Record<string, unknown>,
});

/** How many events a workspace keeps when `appendSleepEvents` is not told. */
export const DEFAULT_KEEP = 5000;
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 10_000;

/** Refuses a `keep` that is not a positive integer, before anything is appended. */
export function assertKeep(keep: number): void {
  if (!Number.isInteger(keep) || keep <= 0) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `The number of sleep events to keep must be a positive integer, got ${keep}.`,
      { details: { keep } },
    );
  }
}

/** `value` as JSON text; `undefined` (or a function) has none, and would otherwise fail as a NOT NULL. */
export function toJson(value: unknown, what: string): string {
  const text = JSON.stringify(value);
  if (text === undefined) {
    throw new LucidError("INVALID_ARGUMENT", `${what} must be a JSON value, got ${typeof value}.`);
  }
  return text;
}

/** A listing's limit: 100 unless given, held to 1–10,000. */
export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || Number.isNaN(limit)) return DEFAULT_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit)));
}
