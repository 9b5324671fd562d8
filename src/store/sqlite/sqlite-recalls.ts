/**
 * Sleep's recall records in SQLite: one row per workspace and key, the record as JSON.
 *
 * @module
 */

import type { RecallsPort } from "../ports/recalls.js";
import { type RecallRow, toRecall } from "../rows/sleep-rows.js";
import type { StatementCache } from "./statement-cache.js";
import type { SyncPort } from "./sync-port.js";

const COLUMNS = "key, entry, updated_at, recalled_at, priority";

export function createSqliteRecalls(statements: StatementCache): SyncPort<RecallsPort> {
  return {
    getRecalls(workspace, keys) {
      if (keys.length === 0) return [];
      const rows = statements
        .get(`select ${COLUMNS} from recalls where workspace = ? and key in (select value from json_each(?))`)
        .all(workspace, JSON.stringify(keys)) as RecallRow[];
      const byKey = new Map(rows.map((row) => [row.key, toRecall(row)]));
      return keys.flatMap((key) => byKey.get(key) ?? []);
    },

    listRecalls(workspace) {
      const rows = statements
        .get(`select ${COLUMNS} from recalls where workspace = ? order by key`)
        .all(workspace) as RecallRow[];
      return rows.map(toRecall);
    },

    putRecalls(workspace, records) {
      const put = statements.get(
        `insert into recalls(workspace, key, entry, updated_at, recalled_at, priority) values (?, ?, ?, ?, ?, ?)
           on conflict(workspace, key) do update set entry = excluded.entry,
             updated_at = excluded.updated_at, recalled_at = excluded.recalled_at, priority = excluded.priority`,
      );
      for (const record of records)
        put.run(
          workspace,
          record.key,
          JSON.stringify(record.entry),
          record.updatedAt,
          record.recalledAt,
          record.priority,
        );
    },

    deleteRecalls(workspace, keys) {
      if (keys.length === 0) return;
      statements
        .get("delete from recalls where workspace = ? and key in (select value from json_each(?))")
        .run(workspace, JSON.stringify(keys));
    },

    trimRecalls(workspace, max, keep) {
      // The count is a range of the primary key and the order an index: no record's JSON is read.
      const excess =
        (
          statements.get("select count(*) as n from recalls where workspace = ?").get(workspace) as {
            n: number;
          }
        ).n - Math.max(0, Math.floor(max));
      if (excess <= 0) return 0;
      return statements
        .get(
          `delete from recalls where workspace = ? and key in (
             select key from recalls
             where workspace = ? and key not in (select value from json_each(?))
             order by priority, recalled_at, key limit ?)`,
        )
        .run(workspace, workspace, JSON.stringify(keep), excess).changes;
    },
  };
}
