/**
 * Reading a whole SQLite store as transfer records (the read half of the transfer sub-port), page
 * by page, on whichever connection holds the snapshot. Tables with a sequence are paged by it (and
 * listed in its order, which the copy keeps); the others by their primary key.
 *
 * @module
 */

import type { EntityLink } from "../ports/memories.js";
import type { TransferCounts, TransferKind, TransferRecord } from "../ports/transfer.js";
import { ownBytes } from "../rows/bytes.js";
import type { HistoryRecordRow } from "../rows/history-rows.js";
import type { MemoryRecordRow } from "../rows/memory-rows.js";
import { type NoteChunkRow, toNoteChunk } from "../rows/note-rows.js";
import {
  type MessageTransferRow,
  type NoteFileTransferRow,
  type SleepEventTransferRow,
  toGateSessionTransfer,
  toGateStateTransfer,
  toHistoryTransfer,
  toLeaseTransfer,
  toMemoryTransfer,
  toMessageTransfer,
  toNoteFileTransfer,
  toRecallTransfer,
  toSleepEventTransfer,
  toSleepStateTransfer,
} from "../rows/transfer-rows.js";
import { MEMORY_COLUMNS } from "./sqlite-memories.js";
import { createSqliteMeta } from "./sqlite-meta.js";
import { readPending, readStamp } from "./sqlite-reembed.js";
import { createSqliteRuns } from "./sqlite-runs.js";
import { PENDING_VECTOR_TABLE, VECTOR_TABLE, type VectorTable } from "./sqlite-schema.js";
import type { StatementCache } from "./statement-cache.js";

/** The table each kind's records come from (`store` is the meta table's facts). */
export const SQLITE_TRANSFER_TABLES: Readonly<Record<Exclude<TransferKind, "store">, string>> = {
  memory: "memories",
  history: "history",
  message: "messages",
  run: "runs",
  gateState: "dream_state",
  gateSession: "dream_sessions",
  lease: "dream_leases",
  recall: "recalls",
  sleepState: "sleep_state",
  sleepEvent: "sleep_events",
  noteFile: "note_files",
};

export function countSqliteRecords(statements: StatementCache): TransferCounts {
  const counts: Record<string, number> = { store: 1 };
  for (const [kind, table] of Object.entries(SQLITE_TRANSFER_TABLES)) {
    counts[kind] = (statements.get(`select count(*) as n from ${table}`).get() as { n: number }).n;
  }
  return counts as TransferCounts;
}

/** One page read from `cursor` (the last seq read, or the offset), and the cursor after it. */
type PageReader = (cursor: number, limit: number) => { records: TransferRecord[]; next: number };

/** Every record, at most `pageSize` a page, the store's facts first (alone). */
export function* readSqliteRecords(
  statements: StatementCache,
  pageSize: number,
): Generator<TransferRecord[]> {
  const meta = createSqliteMeta(statements);
  yield [{ kind: "store", embedder: readStamp(meta), reembedTarget: readPending(meta) }];
  const runs = createSqliteRuns(statements);
  /** Paged by `seq`: `select` must end in `where seq > ?` (the statement adds order and limit). */
  const sequenced =
    <R extends { seq: number }>(select: string, map: (row: R) => TransferRecord[]): PageReader =>
    (after, limit) => {
      const rows = statements.get(`${select} where seq > ? order by seq limit ?`).all(after, limit) as R[];
      return { records: rows.flatMap(map), next: rows.at(-1)?.seq ?? after };
    };
  /** Paged by offset in the order `select` gives (its primary key). */
  const keyed =
    <R>(select: string, map: (row: R) => TransferRecord): PageReader =>
    (offset, limit) => {
      const rows = statements.get(`${select} limit ? offset ?`).all(limit, offset) as R[];
      return { records: rows.map(map), next: offset + rows.length };
    };
  const readers: PageReader[] = [
    memoryPages(statements),
    sequenced<HistoryRecordRow & { seq: number }>(
      "select seq, memory_id, action, previous_value, new_value, actor, created_at, changes from history",
      (row) => [toHistoryTransfer(row)],
    ),
    sequenced<MessageTransferRow & { seq: number }>(
      "select seq, session_scope, role, content, name, created_at from messages",
      (row) => [toMessageTransfer(row)],
    ),
    // Runs are few; each is read whole, with its changes, as the runs port reads it.
    sequenced("select seq, id from runs", (row: { seq: number; id: string }) => {
      const found = runs.getRun(row.id);
      return found === null ? [] : [{ kind: "run", seq: row.seq, ...found }];
    }),
    keyed(
      "select scope_key, last_consolidated_at, last_session_id from dream_state order by scope_key",
      toGateStateTransfer,
    ),
    keyed(
      "select scope_key, session_id, trigger, recorded_at from dream_sessions order by scope_key, session_id",
      toGateSessionTransfer,
    ),
    keyed(
      "select scope_key, holder, host, pid, acquired_at, expires_at from dream_leases order by scope_key",
      toLeaseTransfer,
    ),
    keyed(
      "select workspace, key, entry, updated_at, recalled_at, priority from recalls order by workspace, key",
      toRecallTransfer,
    ),
    keyed(
      "select workspace, namespace, key, value, updated_at from sleep_state order by workspace, namespace, key",
      toSleepStateTransfer,
    ),
    sequenced<SleepEventTransferRow & { seq: number }>(
      "select seq, workspace, type, at, data from sleep_events",
      (row) => [toSleepEventTransfer(row)],
    ),
    noteFilePages(statements),
  ];
  for (const read of readers) {
    for (let cursor = 0; ; ) {
      const { records, next } = read(cursor, pageSize);
      if (records.length > 0) yield records;
      if (records.length < pageSize) break;
      cursor = next;
    }
  }
}

/** A float32 vector stored as a blob, copied (a Buffer may be a view into a larger pooled allocation). */
function floats(blob: Buffer): Float32Array {
  return new Float32Array(ownBytes(blob));
}

/** Memory rows by seq, each with its vectors (current and pending) and entity links. */
function memoryPages(statements: StatementCache): PageReader {
  const vectors = (table: VectorTable, first: number, last: number): Map<number, Float32Array> => {
    if (statements.get("select 1 from sqlite_master where name = ?").get(table) === undefined)
      return new Map();
    const rows = statements
      .get(
        `select m.seq as seq, v.embedding as embedding from memories m join ${table} v on v.seq = m.seq
         where m.seq between ? and ?`,
      )
      .all(first, last) as { seq: number; embedding: Buffer }[];
    return new Map(rows.map((row) => [row.seq, floats(row.embedding)]));
  };
  const entities = (first: number, last: number): Map<number, EntityLink[]> => {
    const rows = statements
      .get(
        `select me.memory_seq as seq, e.key as key, e.name as name, e.type as type
         from memory_entities me join entities e on e.seq = me.entity_seq
         where me.memory_seq between ? and ? order by me.memory_seq, e.key`,
      )
      .all(first, last) as (EntityLink & { seq: number })[];
    const bySeq = new Map<number, EntityLink[]>();
    for (const { seq, ...link } of rows) bySeq.set(seq, [...(bySeq.get(seq) ?? []), link]);
    return bySeq;
  };
  return (after, limit) => {
    const rows = statements
      .get(`select ${MEMORY_COLUMNS} from memories m where m.seq > ? order by m.seq limit ?`)
      .all(after, limit) as (MemoryRecordRow & { seq: number })[];
    const first = rows[0]?.seq ?? after;
    const last = rows.at(-1)?.seq ?? after;
    const current = vectors(VECTOR_TABLE, first, last);
    const pending = vectors(PENDING_VECTOR_TABLE, first, last);
    const links = entities(first, last);
    const records = rows.map((row) =>
      toMemoryTransfer(row, {
        embedding: current.get(row.seq) ?? null,
        pendingEmbedding: pending.get(row.seq) ?? null,
        entities: links.get(row.seq) ?? [],
      }),
    );
    return { records, next: last };
  };
}

/** Note files by workspace and path, each with its chunks in the order they were indexed. */
function noteFilePages(statements: StatementCache): PageReader {
  return (offset, limit) => {
    const files = statements
      .get(
        `select workspace, path, sha256, size, mtime_ms, embedder, short_term, indexed_at from note_files
         order by workspace, path limit ? offset ?`,
      )
      .all(limit, offset) as NoteFileTransferRow[];
    const chunks = statements.get(
      "select start_line, end_line, text, embedding from note_chunks where workspace = ? and path = ? order by seq",
    );
    const records = files.map((file) =>
      toNoteFileTransfer(
        file,
        (chunks.all(file.workspace, file.path) as (NoteChunkRow & { embedding: Buffer })[]).map((chunk) =>
          toNoteChunk(chunk, floats(chunk.embedding)),
        ),
      ),
    );
    return { records, next: offset + files.length };
  };
}
