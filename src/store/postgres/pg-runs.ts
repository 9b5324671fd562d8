/**
 * The run ledger in PostgreSQL: run records, the memories each run changed (row, vector and entity
 * links before; hash and update time after) and the files it wrote (their bytes before, digest
 * after), which undo restores. Plans, decisions and preimage rows are JSON text, so they read back
 * exactly as written; vectors and file bytes are `bytea`. A run and all its changes go in as one
 * statement, whatever their number.
 *
 * @module
 */

import type { EntityLink, MemoryRow } from "../ports/memories.js";
import type {
  FileChange,
  JsonObject,
  MemoryChange,
  MemoryPreimage,
  RunChange,
  RunRecord,
  RunsPort,
} from "../ports/runs.js";
import type { Sql } from "./pg-sql.js";

interface RunRow {
  seq: string;
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

interface RunMemoryRow {
  memory_id: string;
  before_row: string | null;
  before_embedding: Buffer | null;
  before_entities: string | null;
  after_hash: string | null;
  after_updated_at: string | null;
}

interface RunFileRow {
  path: string;
  before_content: Buffer | null;
  after_sha256: string | null;
}

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
        [
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
          ...memoryColumns(memories),
          ...fileColumns(files),
        ],
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
function memoryColumns(changes: readonly MemoryChange[]): unknown[] {
  return [
    changes.map((change) => change.memoryId),
    changes.map((change) => (change.before === null ? null : JSON.stringify(change.before.row))),
    changes.map((change) => (change.before?.embedding == null ? null : bytes(change.before.embedding))),
    changes.map((change) => (change.before === null ? null : JSON.stringify(change.before.entities))),
    changes.map((change) => change.after?.hash ?? null),
    changes.map((change) => change.after?.updatedAt ?? null),
  ];
}

/** `run_files`' columns after `run_seq`, one array each. */
function fileColumns(changes: readonly FileChange[]): unknown[] {
  return [
    changes.map((change) => change.path),
    changes.map((change) => (change.before === null ? null : bytes(change.before))),
    changes.map((change) => change.after?.sha256 ?? null),
  ];
}

/** The bytes of a typed array as a Buffer over the same memory (no copy), as `bytea` takes them. */
export function bytes(view: ArrayBufferView): Buffer {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}

/**
 * A copy of a Buffer's bytes: a Buffer pg returns may be a view into a larger pooled allocation, at
 * an offset a Float32Array cannot start at.
 */
function ownBytes(buffer: Buffer): ArrayBuffer {
  return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer;
}

function toRun(row: RunRow): RunRecord {
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

function toMemoryChange(row: RunMemoryRow): MemoryChange {
  const before = readPreimage(row);
  const after =
    row.after_hash === null || row.after_updated_at === null
      ? null
      : { hash: row.after_hash, updatedAt: row.after_updated_at };
  return { kind: "memory", memoryId: row.memory_id, before, after };
}

function toFileChange(row: RunFileRow): FileChange {
  return {
    kind: "file",
    path: row.path,
    before: row.before_content === null ? null : new Uint8Array(ownBytes(row.before_content)),
    after: row.after_sha256 === null ? null : { sha256: row.after_sha256 },
  };
}
