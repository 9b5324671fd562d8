/**
 * The run ledger's rows — `runs`, `run_memories`, `run_files` — which both backends' tables share
 * column for column: one mapping each way, so a run and its preimages are written alike and read
 * back identically from SQLite and PostgreSQL, which undo relies on. Plans, decisions and preimage
 * rows are JSON text; vectors and file bytes are binary (a Buffer either driver returns).
 *
 * @module
 */

import type { EntityLink, MemoryRow } from "../ports/memories.js";
import type {
  FileChange,
  JsonObject,
  MemoryChange,
  MemoryPreimage,
  NewRunRecord,
  RunRecord,
} from "../ports/runs.js";
import { bytes, ownBytes } from "./bytes.js";

export interface RunRow {
  /** A number from SQLite; PostgreSQL's int8, a string. */
  seq: number | string;
  id: string;
  kind: string;
  scope_key: string;
  scope: string;
  mode: string;
  plan: string;
  decisions: string;
  outcome: string;
  started_at: string;
  committed_at: string;
  undone_at: string | null;
}

export interface RunMemoryRow {
  memory_id: string;
  before_row: string | null;
  before_embedding: Uint8Array | null;
  before_entities: string | null;
  after_hash: string | null;
  after_updated_at: string | null;
}

export interface RunFileRow {
  path: string;
  before_content: Uint8Array | null;
  after_sha256: string | null;
}

export function toRun(row: RunRow): RunRecord {
  return {
    id: row.id,
    kind: row.kind,
    scopeKey: row.scope_key,
    scope: JSON.parse(row.scope) as RunRecord["scope"],
    mode: row.mode,
    plan: JSON.parse(row.plan) as JsonObject,
    decisions: JSON.parse(row.decisions) as JsonObject,
    outcome: JSON.parse(row.outcome) as JsonObject,
    startedAt: row.started_at,
    committedAt: row.committed_at,
    undoneAt: row.undone_at,
  };
}

/**
 * A run's column values in the order every backend's `insert into runs(…)` lists them after `seq`:
 * id, kind, scope_key, scope, mode, plan, decisions, outcome, started_at, committed_at, undone_at.
 */
export function runValues(run: NewRunRecord): unknown[] {
  return [
    run.id,
    run.kind,
    run.scopeKey,
    JSON.stringify(run.scope),
    run.mode,
    JSON.stringify(run.plan),
    JSON.stringify(run.decisions),
    JSON.stringify(run.outcome),
    run.startedAt,
    run.committedAt,
    run.undoneAt,
  ];
}

/** A preimage as `run_memories` stores it: the row and entity links as JSON, the vector as bytes. */
export function readPreimage(
  row: Pick<RunMemoryRow, "before_row" | "before_embedding" | "before_entities">,
): MemoryPreimage | null {
  if (row.before_row === null) return null;
  return {
    row: JSON.parse(row.before_row) as MemoryRow,
    embedding: row.before_embedding === null ? null : new Float32Array(ownBytes(row.before_embedding)),
    entities: JSON.parse(row.before_entities ?? "[]") as EntityLink[],
  };
}

/** A memory change as `run_memories` stores it, its preimage as `readPreimage` reads it back. */
export function toRunMemoryRow(change: MemoryChange): RunMemoryRow {
  const before = change.before;
  return {
    memory_id: change.memoryId,
    before_row: before === null ? null : JSON.stringify(before.row),
    before_embedding: before?.embedding == null ? null : bytes(before.embedding),
    before_entities: before === null ? null : JSON.stringify(before.entities),
    after_hash: change.after?.hash ?? null,
    after_updated_at: change.after?.updatedAt ?? null,
  };
}

export function toMemoryChange(row: RunMemoryRow): MemoryChange {
  const before = readPreimage(row);
  const after =
    row.after_hash === null || row.after_updated_at === null
      ? null
      : { hash: row.after_hash, updatedAt: row.after_updated_at };
  return { kind: "memory", memoryId: row.memory_id, before, after };
}

/** A file change as `run_files` stores it. */
export function toRunFileRow(change: FileChange): RunFileRow {
  return {
    path: change.path,
    before_content: change.before === null ? null : bytes(change.before),
    after_sha256: change.after?.sha256 ?? null,
  };
}

export function toFileChange(row: RunFileRow): FileChange {
  return {
    kind: "file",
    path: row.path,
    before: row.before_content === null ? null : new Uint8Array(ownBytes(row.before_content)),
    after: row.after_sha256 === null ? null : { sha256: row.after_sha256 },
  };
}
