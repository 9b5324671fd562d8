/**
 * Sleep's recall records in PostgreSQL: one row per workspace and key, the record as JSON text (so
 * it reads back exactly as written). Keys are passed as one array parameter, and a batch of
 * records is written by one upsert over arrays.
 *
 * @module
 */

import type { RecallsPort } from "../ports/recalls.js";
import { type RecallRow, toRecall } from "../rows/sleep-rows.js";
import { type Sql, toNumber } from "./pg-sql.js";

const COLUMNS = "key, entry, updated_at, recalled_at, priority";

export function createPgRecalls(sql: Sql): RecallsPort {
  return {
    async getRecalls(workspace, keys) {
      if (keys.length === 0) return [];
      const rows = await sql.rows<RecallRow>(
        `select ${COLUMNS} from recalls where workspace = $1 and key = any($2::text[])`,
        [workspace, keys],
      );
      const byKey = new Map(rows.map((row) => [row.key, toRecall(row)]));
      return keys.flatMap((key) => byKey.get(key) ?? []);
    },

    async listRecalls(workspace) {
      const rows = await sql.rows<RecallRow>(
        `select ${COLUMNS} from recalls where workspace = $1 order by key`,
        [workspace],
      );
      return rows.map(toRecall);
    },

    async putRecalls(workspace, records) {
      // One upsert may not touch a row twice; written one by one, the last record of a key wins.
      const last = [...new Map(records.map((record) => [record.key, record])).values()];
      if (last.length === 0) return;
      await sql.run(
        `insert into recalls(workspace, key, entry, updated_at, recalled_at, priority)
         select $1, * from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::integer[])
         on conflict (workspace, key) do update set entry = excluded.entry,
           updated_at = excluded.updated_at, recalled_at = excluded.recalled_at, priority = excluded.priority`,
        [
          workspace,
          last.map((record) => record.key),
          last.map((record) => JSON.stringify(record.entry)),
          last.map((record) => record.updatedAt),
          last.map((record) => record.recalledAt),
          last.map((record) => record.priority),
        ],
      );
    },

    async deleteRecalls(workspace, keys) {
      if (keys.length === 0) return;
      await sql.run("delete from recalls where workspace = $1 and key = any($2::text[])", [workspace, keys]);
    },

    async trimRecalls(workspace, max, keep) {
      // One trim per workspace at a time: two processes counting the same excess would each delete it.
      await sql.run("select pg_advisory_xact_lock(hashtext('lucid-memory:recalls:' || $1))", [workspace]);
      // The count is a range of the primary key and the order an index: no record's JSON is read.
      const counted = await sql.one<{ n: string }>("select count(*) as n from recalls where workspace = $1", [
        workspace,
      ]);
      const excess = toNumber(counted?.n ?? 0) - Math.max(0, Math.floor(max));
      if (excess <= 0) return 0;
      return sql.run(
        `delete from recalls where workspace = $1 and key in (
           select key from recalls
           where workspace = $1 and key <> all($2::text[])
           order by priority, recalled_at, key limit $3)`,
        [workspace, keep, excess],
      );
    },
  };
}
