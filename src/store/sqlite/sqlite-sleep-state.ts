/**
 * Sleep's state in SQLite: `sleep_state`, one row per workspace, namespace and key with the value
 * as JSON, and `sleep_events`, the append-only log (seq = its order), trimmed per workspace.
 *
 * @module
 */

import { LucidError } from "../../errors.js";
import type { SleepEvent, SleepStatePort, SleepStateRecord } from "../ports/sleep-state.js";
import type { StatementCache } from "./statement-cache.js";
import type { SyncPort } from "./sync-port.js";

interface StateRow {
  key: string;
  value: string;
  updated_at: string;
}

interface EventRow {
  seq: number;
  type: string;
  at: string;
  data: string;
}

const toRecord = (row: StateRow): SleepStateRecord => ({
  key: row.key,
  value: JSON.parse(row.value) as unknown,
  updatedAt: row.updated_at,
});

const toEvent = (row: EventRow): SleepEvent => ({
  seq: row.seq,
  type: row.type,
  at: row.at,
  data: JSON.parse(row.data) as Record<string, unknown>,
});

const DEFAULT_KEEP = 5000;
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 10_000;

/** `value` as JSON text; `undefined` (or a function) has none, and would otherwise fail as a NOT NULL. */
function toJson(value: unknown, what: string): string {
  const text = JSON.stringify(value);
  if (text === undefined) {
    throw new LucidError("INVALID_ARGUMENT", `${what} must be a JSON value, got ${typeof value}.`);
  }
  return text;
}

function clampLimit(limit: number | undefined): number {
  if (limit === undefined || Number.isNaN(limit)) return DEFAULT_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit)));
}

export function createSqliteSleepState(statements: StatementCache): SyncPort<SleepStatePort> {
  return {
    getSleepState(workspace, namespace, keys) {
      if (keys.length === 0) return [];
      const rows = statements
        .get(
          `select key, value, updated_at from sleep_state
           where workspace = ? and namespace = ? and key in (select value from json_each(?))`,
        )
        .all(workspace, namespace, JSON.stringify(keys)) as StateRow[];
      const byKey = new Map(rows.map((row) => [row.key, toRecord(row)]));
      return keys.flatMap((key) => byKey.get(key) ?? []);
    },

    listSleepState(workspace, namespace) {
      const rows = statements
        .get(
          "select key, value, updated_at from sleep_state where workspace = ? and namespace = ? order by key",
        )
        .all(workspace, namespace) as StateRow[];
      return rows.map(toRecord);
    },

    putSleepState(workspace, namespace, records) {
      // Serialised first, so a value with no JSON writes none of the records.
      const values = records.map((record) => toJson(record.value, `The sleep state value of ${record.key}`));
      const put = statements.get(
        `insert into sleep_state(workspace, namespace, key, value, updated_at) values (?, ?, ?, ?, ?)
           on conflict(workspace, namespace, key) do update set
             value = excluded.value, updated_at = excluded.updated_at`,
      );
      for (const [i, record] of records.entries())
        put.run(workspace, namespace, record.key, values[i], record.updatedAt);
    },

    deleteSleepState(workspace, namespace, keys) {
      if (keys.length === 0) return;
      statements
        .get(
          "delete from sleep_state where workspace = ? and namespace = ? and key in (select value from json_each(?))",
        )
        .run(workspace, namespace, JSON.stringify(keys));
    },

    appendSleepEvents(workspace, events, keep = DEFAULT_KEEP) {
      if (!Number.isInteger(keep) || keep <= 0) {
        throw new LucidError(
          "INVALID_ARGUMENT",
          `The number of sleep events to keep must be a positive integer, got ${keep}.`,
          { details: { keep } },
        );
      }
      const data = events.map((event) => toJson(event.data, `The data of sleep event ${event.type}`));
      const insert = statements.get(
        "insert into sleep_events(workspace, type, at, data) values (?, ?, ?, ?)",
      );
      const appended = events.map(
        (event, i): SleepEvent => ({
          seq: Number(insert.run(workspace, event.type, event.at, data[i]).lastInsertRowid),
          type: event.type,
          at: event.at,
          data: event.data,
        }),
      );
      // The (keep + 1)th newest and everything older go: a range of the (workspace, seq) index.
      statements
        .get(
          `delete from sleep_events where workspace = ? and seq <= (
             select seq from sleep_events where workspace = ? order by seq desc limit 1 offset ?)`,
        )
        .run(workspace, workspace, keep);
      return appended;
    },

    listSleepEvents(workspace, options = {}) {
      const limit = clampLimit(options.limit);
      const rows = (
        options.type === undefined
          ? statements
              .get(
                "select seq, type, at, data from sleep_events where workspace = ? order by seq desc limit ?",
              )
              .all(workspace, limit)
          : statements
              .get(
                `select seq, type, at, data from sleep_events
                 where workspace = ? and type = ? order by seq desc limit ?`,
              )
              .all(workspace, options.type, limit)
      ) as EventRow[];
      return rows.map(toEvent);
    },
  };
}
