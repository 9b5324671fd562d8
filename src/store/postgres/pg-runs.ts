/**
 * The run ledger in PostgreSQL: run records, the memories each run changed (row, vector and entity
 * links before; hash and update time after) and the files it wrote (their bytes before, digest
 * after), which undo restores. Plans, decisions and preimage rows are JSON text, so they read back
 * exactly as written; vectors and file bytes are `bytea`. A run and all its changes go in as one
 * statement, whatever their number.
 *
 * @module
 */

import { scopeKeyPieces } from "../../core/scope.js";
import type { FileChange, MemoryChange, RunChange, RunsPort } from "../ports/runs.js";
import {
  type RunFileRow,
  type RunMemoryRow,
  type RunRow,
  runValues,
  toFileChange,
  toMemoryChange,
  toRun,
  toRunFileRow,
  toRunMemoryRow,
} from "../rows/run-rows.js";
import type { Sql } from "./pg-sql.js";

const RUN_COLUMNS =
  "seq, id, kind, scope_key, scope, mode, plan, decisions, outcome, started_at, committed_at, undone_at";

export function createPgRuns(sql: Sql): RunsPort {
  return {
    async insertRun(run, changes) {
      const memories = changes.filter((change): change is MemoryChange => change.kind === "memory");
      const files = changes.filter((change): change is FileChange => change.kind === "file");
      // One statement: the run, then its changes under the seq it was given. The changes' foreign
      // keys are checked at the statement's end, when the run is there.
      await sql.run(
        `with run as (
           insert into runs(id, kind, scope_key, scope, mode, plan, decisions, outcome, started_at, committed_at, undone_at)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning seq
         ), memories as (
           insert into run_memories(run_seq, memory_id, before_row, before_embedding, before_entities, after_hash, after_updated_at)
           select run.seq, m.* from run, unnest($12::text[], $13::text[], $14::bytea[], $15::text[], $16::text[], $17::text[]) m
         ), files as (
           insert into run_files(run_seq, path, before_content, after_sha256)
           select run.seq, f.* from run, unnest($18::text[], $19::bytea[], $20::text[]) f
         )
         select 1`,
        [...runValues(run), ...memoryColumns(memories), ...fileColumns(files)],
      );
    },

    async getRun(id) {
      const row = await sql.one<RunRow>(`select ${RUN_COLUMNS} from runs where id = $1`, [id]);
      if (row === undefined) return null;
      const memories = await sql.rows<RunMemoryRow>(
        `select memory_id, before_row, before_embedding, before_entities, after_hash, after_updated_at
         from run_memories where run_seq = $1 order by memory_id`,
        [row.seq],
      );
      const files = await sql.rows<RunFileRow>(
        "select path, before_content, after_sha256 from run_files where run_seq = $1 order by path",
        [row.seq],
      );
      const changes: RunChange[] = [...memories.map(toMemoryChange), ...files.map(toFileChange)];
      return { run: toRun(row), changes };
    },

    async listRuns(query) {
      const conditions: string[] = [];
      const params: unknown[] = [];
      if (query.kind !== undefined) {
        params.push(query.kind);
        conditions.push(`kind = $${params.length}`);
      }
      if (query.scopeKey !== undefined) {
        params.push(query.scopeKey);
        conditions.push(`scope_key = $${params.length}`);
      }
      for (const piece of scopeKeyPieces(query.within ?? {})) {
        params.push(piece);
        conditions.push(`strpos('&' || scope_key || '&', $${params.length}) > 0`);
      }
      const where = conditions.length === 0 ? "" : `where ${conditions.join(" and ")}`;
      // As SQLite's `limit -1`, a negative limit lists every run (`limit null` in PostgreSQL).
      params.push(query.limit < 0 ? null : query.limit);
      const rows = await sql.rows<RunRow>(
        `select ${RUN_COLUMNS} from runs ${where} order by seq desc limit $${params.length}`,
        params,
      );
      return rows.map(toRun);
    },

    async markRunUndone(id, at) {
      await sql.run("update runs set undone_at = $1 where id = $2", [at, id]);
    },
  };
}

/** `run_memories`' columns after `run_seq`, one array each. */
export function memoryColumns(changes: readonly MemoryChange[]): unknown[] {
  const rows = changes.map(toRunMemoryRow);
  return [
    rows.map((row) => row.memory_id),
    rows.map((row) => row.before_row),
    rows.map((row) => row.before_embedding),
    rows.map((row) => row.before_entities),
    rows.map((row) => row.after_hash),
    rows.map((row) => row.after_updated_at),
  ];
}

/** `run_files`' columns after `run_seq`, one array each. */
export function fileColumns(changes: readonly FileChange[]): unknown[] {
  const rows = changes.map(toRunFileRow);
  return [
    rows.map((row) => row.path),
    rows.map((row) => row.before_content),
    rows.map((row) => row.after_sha256),
  ];
}
