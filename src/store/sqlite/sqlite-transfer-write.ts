/**
 * Writing transfer records into a SQLite store (the write half of the transfer sub-port), exactly
 * as given: sequence numbers are written as the rows' keys, so orders and the seqs callers see stay
 * the same, and SQLite numbers later rows after them (`sleep_events`' AUTOINCREMENT counter moves
 * past an explicit key by itself). Call inside a write transaction.
 *
 * @module
 */

import { LucidError } from "../../errors.js";
import type { EmbedderStamp } from "../ports/maintenance.js";
import type { MemoryTransfer, RunTransfer, TransferRecord } from "../ports/transfer.js";
import { bytes } from "../rows/bytes.js";
import { historyValues } from "../rows/history-rows.js";
import { memoryValues } from "../rows/memory-rows.js";
import { runValues } from "../rows/run-rows.js";
import { assertEmptyTarget, type DataRecord, splitBatch } from "../transfer-batch.js";
import { createSqliteNotes } from "./sqlite-notes.js";
import { createSqliteRecalls } from "./sqlite-recalls.js";
import { insertRunChanges } from "./sqlite-runs.js";
import { PENDING_VECTOR_TABLE, VECTOR_TABLE, type VectorTable } from "./sqlite-schema.js";
import { createSqliteSleepState } from "./sqlite-sleep-state.js";
import { countSqliteRecords } from "./sqlite-transfer-read.js";
import type { StatementCache } from "./statement-cache.js";

export interface SqliteTransferWriter {
  readonly statements: StatementCache;
  readonly location: string;
  /** The maintenance port's: records the embedder and creates the vector table, or refuses another. */
  readonly bindEmbedder: (stamp: EmbedderStamp) => void;
  /** The maintenance port's: prepares the pending vector table for a re-embedding's target. */
  readonly beginReembed: (target: EmbedderStamp) => void;
}

/** vec0 takes integer keys only as BigInt (better-sqlite3 binds JS numbers as REAL). */
const vecKey = (seq: number): bigint => BigInt(seq);

export function writeSqliteRecords(writer: SqliteTransferWriter, records: readonly TransferRecord[]): void {
  const { statements, location } = writer;
  const { facts, data } = splitBatch(records);
  if (facts !== undefined) {
    assertEmptyTarget(countSqliteRecords(statements), location);
    if (facts.embedder !== null) writer.bindEmbedder(facts.embedder);
    if (facts.reembedTarget !== null) writer.beginReembed(facts.reembedTarget);
  }
  const recalls = createSqliteRecalls(statements);
  const sleepState = createSqliteSleepState(statements);
  const notes = createSqliteNotes(statements);
  const write: { [K in DataRecord["kind"]]: (record: Extract<DataRecord, { kind: K }>) => void } = {
    memory: (record) => writeMemory(writer, record),
    history: ({ row }) => {
      statements
        .get(
          `insert into history(seq, memory_id, action, previous_value, new_value, actor, created_at, changes)
           values (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(row.seq, ...historyValues(row));
    },
    message: ({ seq, sessionScope, message }) => {
      statements
        .get(
          "insert into messages(seq, session_scope, role, content, name, created_at) values (?, ?, ?, ?, ?, ?)",
        )
        .run(seq, sessionScope, message.role, message.content, message.name, message.createdAt);
    },
    run: (record) => writeRun(statements, record),
    gateState: (record) => {
      statements
        .get("insert into dream_state(scope_key, last_consolidated_at, last_session_id) values (?, ?, ?)")
        .run(record.scopeKey, record.lastConsolidatedAt, record.lastSessionId);
    },
    gateSession: (record) => {
      statements
        .get("insert into dream_sessions(scope_key, session_id, trigger, recorded_at) values (?, ?, ?, ?)")
        .run(record.scopeKey, record.sessionId, record.trigger, record.recordedAt);
    },
    lease: ({ key, lease }) => {
      statements
        .get(
          "insert into dream_leases(scope_key, holder, host, pid, acquired_at, expires_at) values (?, ?, ?, ?, ?, ?)",
        )
        .run(key, lease.holder, lease.host, lease.pid, lease.acquiredAt, lease.expiresAt);
    },
    recall: ({ workspace, recall }) => recalls.putRecalls(workspace, [recall]),
    sleepState: ({ workspace, namespace, record }) =>
      sleepState.putSleepState(workspace, namespace, [record]),
    sleepEvent: ({ workspace, event }) => {
      statements
        .get("insert into sleep_events(seq, workspace, type, at, data) values (?, ?, ?, ?, ?)")
        .run(event.seq, workspace, event.type, event.at, JSON.stringify(event.data));
    },
    noteFile: ({ workspace, file, chunks }) => notes.replaceNoteFile(workspace, file, chunks),
  };
  for (const record of data) (write[record.kind] as (record: DataRecord) => void)(record);
}

/** The row (the keyword triggers index its window and its neighbours'), its vectors, its entity links. */
function writeMemory(writer: SqliteTransferWriter, record: MemoryTransfer): void {
  const { statements, location } = writer;
  const { seq, row } = record;
  statements
    .get(
      `insert into memories(seq, id, text, hash, user_id, agent_id, app_id, run_id, category, metadata, created_at,
         updated_at, expires_at, thread, thread_position, actor_id)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(seq, ...memoryValues(row));
  const vectors: [VectorTable, Float32Array | null][] = [
    [VECTOR_TABLE, record.embedding],
    [PENDING_VECTOR_TABLE, record.pendingEmbedding],
  ];
  for (const [table, embedding] of vectors) {
    if (embedding === null) continue;
    if (statements.get("select 1 from sqlite_master where name = ?").get(table) === undefined) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        `Memory ${row.id} has a ${table === VECTOR_TABLE ? "vector" : "re-embedding vector"}, but ${location} has no ${table === VECTOR_TABLE ? "embedder" : "re-embedding under way"}: import the export's store record first.`,
        { details: { id: row.id } },
      );
    }
    statements
      .get(
        `insert into ${table}(seq, user_key, agent_key, app_key, run_key, embedding) values (?, ?, ?, ?, ?, ?)`,
      )
      .run(
        vecKey(seq),
        row.user_id ?? "",
        row.agent_id ?? "",
        row.app_id ?? "",
        row.run_id ?? "",
        bytes(embedding),
      );
  }
  const upsert = statements.get(
    "insert into entities(key, name, type) values (?, ?, ?) on conflict(key) do update set key = excluded.key returning seq",
  );
  const attach = statements.get(
    "insert or ignore into memory_entities(memory_seq, entity_seq) values (?, ?)",
  );
  for (const entity of record.entities) {
    const linked = upsert.get(entity.key, entity.name, entity.type) as { seq: number };
    attach.run(seq, linked.seq);
  }
}

/** The run under its seq, and its changes as the runs port stores them. */
function writeRun(statements: StatementCache, { seq, run, changes }: RunTransfer): void {
  statements
    .get(
      `insert into runs(seq, id, kind, scope_key, scope, mode, plan, decisions, outcome, started_at, committed_at, undone_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(seq, ...runValues(run));
  insertRunChanges(statements, seq, changes);
}
