/**
 * The run ledger in SQLite: run records, the memories each run changed (row, vector and entity
 * links before; hash and update time after) and the files it wrote (their bytes before, digest
 * after), which undo restores.
 *
 * @module
 */

import { scopeKeyPieces } from "../../core/scope.js";
import type { RunChange, RunsPort } from "../ports/runs.js";
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
import type { StatementCache } from "./statement-cache.js";
import type { SyncPort } from "./sync-port.js";

/** A run as SQLite reads it back: its integer key a number. */
type SqliteRunRow = RunRow & { seq: number };

export function createSqliteRuns(statements: StatementCache): SyncPort<RunsPort> {
  return {
    insertRun(run, changes) {
      const { seq } = statements
        .get(
          `insert into runs(id, kind, scope_key, scope, mode, plan, decisions, outcome, started_at, committed_at, undone_at)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning seq`,
        )
        .get(...runValues(run)) as { seq: number };
      insertRunChanges(statements, seq, changes);
    },

    getRun(id) {
      const row = statements.get("select * from runs where id = ?").get(id) as SqliteRunRow | undefined;
      if (row === undefined) return null;
      const memories = statements
        .get("select * from run_memories where run_seq = ? order by memory_id")
        .all(row.seq) as RunMemoryRow[];
      const files = statements
        .get("select * from run_files where run_seq = ? order by path")
        .all(row.seq) as RunFileRow[];
      return { run: toRun(row), changes: [...memories.map(toMemoryChange), ...files.map(toFileChange)] };
    },

    listRuns(query) {
      const conditions: string[] = [];
      const params: unknown[] = [];
      if (query.kind !== undefined) {
        conditions.push("kind = ?");
        params.push(query.kind);
      }
      if (query.scopeKey !== undefined) {
        conditions.push("scope_key = ?");
        params.push(query.scopeKey);
      }
      for (const piece of scopeKeyPieces(query.within ?? {})) {
        conditions.push("instr('&' || scope_key || '&', ?) > 0");
        params.push(piece);
      }
      const where = conditions.length === 0 ? "" : `where ${conditions.join(" and ")}`;
      const rows = statements
        .get(`select * from runs ${where} order by seq desc limit ?`)
        .all(...params, query.limit) as SqliteRunRow[];
      return rows.map(toRun);
    },

    markRunUndone(id, at) {
      statements.get("update runs set undone_at = ? where id = ?").run(at, id);
    },
  };
}

/** A run's changes under its seq, in the order given, as `getRun` reads them back. */
export function insertRunChanges(
  statements: StatementCache,
  seq: number,
  changes: readonly RunChange[],
): void {
  const insertMemory = statements.get(
    `insert into run_memories(run_seq, memory_id, before_row, before_embedding, before_entities, after_hash, after_updated_at)
         values (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertFile = statements.get(
    "insert into run_files(run_seq, path, before_content, after_sha256) values (?, ?, ?, ?)",
  );
  for (const change of changes) {
    if (change.kind === "file") {
      const row = toRunFileRow(change);
      insertFile.run(seq, row.path, row.before_content, row.after_sha256);
      continue;
    }
    const row = toRunMemoryRow(change);
    insertMemory.run(
      seq,
      row.memory_id,
      row.before_row,
      row.before_embedding,
      row.before_entities,
      row.after_hash,
      row.after_updated_at,
    );
  }
}
