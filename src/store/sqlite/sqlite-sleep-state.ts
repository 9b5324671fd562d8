/**
 * Sleep's state in SQLite: `sleep_state`, one row per workspace, namespace and key with the value
 * as JSON, and `sleep_events`, the append-only log (seq = its order), trimmed per workspace.
 *
 * @module
 */

import type { SleepEvent, SleepStatePort } from "../ports/sleep-state.js";
import {
  assertKeep,
  clampLimit,
  DEFAULT_KEEP,
  type SleepEventRow,
  type SleepStateRow,
  toJson,
  toSleepEvent,
  toSleepStateRecord,
} from "../rows/sleep-rows.js";
import type { StatementCache } from "./statement-cache.js";
import type { SyncPort } from "./sync-port.js";

export function createSqliteSleepState(statements: StatementCache): SyncPort<SleepStatePort> {
  return {
    getSleepState(workspace, namespace, keys) {
      if (keys.length === 0) return [];
      const rows = statements
        .get(
          `select key, value, updated_at from sleep_state
           where workspace = ? and namespace = ? and key in (select value from json_each(?))`,
        )
        .all(workspace, namespace, JSON.stringify(keys)) as SleepStateRow[];
      const byKey = new Map(rows.map((row) => [row.key, toSleepStateRecord(row)]));
      return keys.flatMap((key) => byKey.get(key) ?? []);
    },

    listSleepState(workspace, namespace) {
      const rows = statements
        .get(
          "select key, value, updated_at from sleep_state where workspace = ? and namespace = ? order by key",
        )
        .all(workspace, namespace) as SleepStateRow[];
      return rows.map(toSleepStateRecord);
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
      assertKeep(keep);
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
      ) as SleepEventRow[];
      return rows.map(toSleepEvent);
    },
  };
}
