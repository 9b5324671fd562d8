/**
 * The run ledger in SQLite: run records, the memories each run changed (row, vector and entity
 * links before; hash and update time after) and the files it wrote (their bytes before, digest
 * after), which undo restores.
 *
 * @module
 */

import type { EntityLink, MemoryRow } from "../ports/memories.js";
import type {
  FileChange,
  JsonObject,
  MemoryChange,
  MemoryPreimage,
  RunRecord,
  RunsPort,
} from "../ports/runs.js";
import type { StatementCache } from "./statement-cache.js";
import type { SyncPort } from "./sync-port.js";

interface RunRow {
  seq: number;
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

export function createSqliteRuns(statements: StatementCache): SyncPort<RunsPort> {
  return {
    insertRun(run, changes) {
      const { seq } = statements
        .get(
          `insert into runs(id, kind, scope_key, scope, mode, plan, decisions, outcome, started_at, committed_at, undone_at)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning seq`,
        )
        .get(
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
        ) as { seq: number };
      const insertMemory = statements.get(
        `insert into run_memories(run_seq, memory_id, before_row, before_embedding, before_entities, after_hash, after_updated_at)
         values (?, ?, ?, ?, ?, ?, ?)`,
      );
      const insertFile = statements.get(
        "insert into run_files(run_seq, path, before_content, after_sha256) values (?, ?, ?, ?)",
      );
      for (const change of changes) {
        if (change.kind === "file") {
          insertFile.run(
            seq,
            change.path,
            change.before === null ? null : bytes(change.before),
            change.after?.sha256 ?? null,
          );
          continue;
        }
        const before = change.before;
        insertMemory.run(
          seq,
          change.memoryId,
          before === null ? null : JSON.stringify(before.row),
          before?.embedding == null ? null : bytes(before.embedding),
          before === null ? null : JSON.stringify(before.entities),
          change.after?.hash ?? null,
          change.after?.updatedAt ?? null,
        );
      }
    },

    getRun(id) {
      const row = statements.get("select * from runs where id = ?").get(id) as RunRow | undefined;
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
      const where = conditions.length === 0 ? "" : `where ${conditions.join(" and ")}`;
      const rows = statements
        .get(`select * from runs ${where} order by seq desc limit ?`)
        .all(...params, query.limit) as RunRow[];
      return rows.map(toRun);
    },

    markRunUndone(id, at) {
      statements.get("update runs set undone_at = ? where id = ?").run(at, id);
    },
  };
}

/** The bytes of a typed array as a Buffer over the same memory (no copy). */
export function bytes(view: ArrayBufferView): Buffer {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}

/** A copy of a Buffer's bytes: a Buffer may be a view into a larger pooled allocation. */
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
