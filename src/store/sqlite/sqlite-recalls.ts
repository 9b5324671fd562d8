/**
 * Sleep's recall records in SQLite: one row per workspace and key, the record as JSON.
 *
 * @module
 */

import type { RecallsPort, StoredRecall } from "../ports/recalls.js";
import type { StatementCache } from "./statement-cache.js";
import type { SyncPort } from "./sync-port.js";

interface RecallRow {
  key: string;
  entry: string;
  updated_at: string;
}

const toRecord = (row: RecallRow): StoredRecall => ({
  key: row.key,
  entry: JSON.parse(row.entry) as Record<string, unknown>,
  updatedAt: row.updated_at,
});

export function createSqliteRecalls(statements: StatementCache): SyncPort<RecallsPort> {
  return {
    getRecalls(workspace, keys) {
      if (keys.length === 0) return [];
      const rows = statements
        .get(
          "select key, entry, updated_at from recalls where workspace = ? and key in (select value from json_each(?))",
        )
        .all(workspace, JSON.stringify(keys)) as RecallRow[];
      const byKey = new Map(rows.map((row) => [row.key, toRecord(row)]));
      return keys.flatMap((key) => byKey.get(key) ?? []);
    },

    listRecalls(workspace) {
      const rows = statements
        .get("select key, entry, updated_at from recalls where workspace = ? order by key")
        .all(workspace) as RecallRow[];
      return rows.map(toRecord);
    },

    putRecalls(workspace, records) {
      const put = statements.get(
        `insert into recalls(workspace, key, entry, updated_at) values (?, ?, ?, ?)
           on conflict(workspace, key) do update set entry = excluded.entry, updated_at = excluded.updated_at`,
      );
      for (const record of records)
        put.run(workspace, record.key, JSON.stringify(record.entry), record.updatedAt);
    },

    deleteRecalls(workspace, keys) {
      if (keys.length === 0) return;
      statements
        .get("delete from recalls where workspace = ? and key in (select value from json_each(?))")
        .run(workspace, JSON.stringify(keys));
    },
  };
}
