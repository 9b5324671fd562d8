/**
 * Sleep's state in PostgreSQL: `sleep_state`, one row per workspace, namespace and key with the
 * value as JSON text, and `sleep_events`, the append-only log (`seq`, an identity column, is its
 * order across workspaces), trimmed per workspace. Keys go in as one array parameter, and a batch
 * of records or events is written by one statement over arrays.
 *
 * @module
 */

import type { SleepEvent, SleepEventInput, SleepStatePort } from "../ports/sleep-state.js";
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
import { type Sql, toNumber } from "./pg-sql.js";

export function createPgSleepState(sql: Sql): SleepStatePort {
  return {
    async getSleepState(workspace, namespace, keys) {
      if (keys.length === 0) return [];
      const rows = await sql.rows<SleepStateRow>(
        `select key, value, updated_at from sleep_state
         where workspace = $1 and namespace = $2 and key = any($3::text[])`,
        [workspace, namespace, keys],
      );
      const byKey = new Map(rows.map((row) => [row.key, toSleepStateRecord(row)]));
      return keys.flatMap((key) => byKey.get(key) ?? []);
    },

    async listSleepState(workspace, namespace) {
      const rows = await sql.rows<SleepStateRow>(
        "select key, value, updated_at from sleep_state where workspace = $1 and namespace = $2 order by key",
        [workspace, namespace],
      );
      return rows.map(toSleepStateRecord);
    },

    async putSleepState(workspace, namespace, records) {
      // Serialised first, so a value with no JSON writes none of the records.
      const values = records.map((record) => toJson(record.value, `The sleep state value of ${record.key}`));
      // One upsert may not touch a row twice; written one by one, the last record of a key wins.
      const last = [
        ...new Map(records.map((record, i) => [record.key, { record, value: values[i] }])).values(),
      ];
      if (last.length === 0) return;
      await sql.run(
        `insert into sleep_state(workspace, namespace, key, value, updated_at)
         select $1, $2, * from unnest($3::text[], $4::text[], $5::text[])
         on conflict (workspace, namespace, key) do update set
           value = excluded.value, updated_at = excluded.updated_at`,
        [
          workspace,
          namespace,
          last.map(({ record }) => record.key),
          last.map(({ value }) => value),
          last.map(({ record }) => record.updatedAt),
        ],
      );
    },

    async deleteSleepState(workspace, namespace, keys) {
      if (keys.length === 0) return;
      await sql.run(
        "delete from sleep_state where workspace = $1 and namespace = $2 and key = any($3::text[])",
        [workspace, namespace, keys],
      );
    },

    async appendSleepEvents(workspace, events, keep = DEFAULT_KEEP) {
      assertKeep(keep);
      const data = events.map((event) => toJson(event.data, `The data of sleep event ${event.type}`));
      const appended = events.length === 0 ? [] : await insertEvents(sql, workspace, { events, data });
      // The (keep + 1)th newest and everything older go: a range of the (workspace, seq) index.
      await sql.run(
        `delete from sleep_events where workspace = $1 and seq <= (
           select seq from sleep_events where workspace = $1 order by seq desc offset $2 limit 1)`,
        [workspace, keep],
      );
      return appended;
    },

    async listSleepEvents(workspace, options = {}) {
      const limit = clampLimit(options.limit);
      const rows =
        options.type === undefined
          ? await sql.rows<SleepEventRow>(
              "select seq, type, at, data from sleep_events where workspace = $1 order by seq desc limit $2",
              [workspace, limit],
            )
          : await sql.rows<SleepEventRow>(
              `select seq, type, at, data from sleep_events
               where workspace = $1 and type = $2 order by seq desc limit $3`,
              [workspace, options.type, limit],
            );
      return rows.map(toSleepEvent);
    },
  };
}

/**
 * Inserts the events in one statement and returns them with their seqs. Identity values are drawn
 * as rows are inserted, in the select's order, so sorted, the seqs pair with the events in order
 * (the order `returning` lists rows in is not needed).
 */
async function insertEvents(
  sql: Sql,
  workspace: string,
  batch: { events: readonly SleepEventInput[]; data: readonly string[] },
): Promise<SleepEvent[]> {
  const rows = await sql.rows<{ seq: string }>(
    `insert into sleep_events(workspace, type, at, data)
     select $1, e.type, e.at, e.data
     from unnest($2::text[], $3::text[], $4::text[]) with ordinality as e(type, at, data, position)
     order by e.position
     returning seq`,
    [workspace, batch.events.map((event) => event.type), batch.events.map((event) => event.at), batch.data],
  );
  const seqs = rows.map((row) => toNumber(row.seq)).sort((a, b) => a - b);
  // One row per event: an insert of n rows that succeeds returns n.
  return batch.events.map((event, i) => ({
    seq: seqs[i] as number,
    type: event.type,
    at: event.at,
    data: event.data,
  }));
}
