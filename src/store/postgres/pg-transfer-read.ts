/**
 * Reading a whole PostgreSQL store as transfer records (the read half of the transfer sub-port),
 * page by page, on the connection that holds the snapshot. Tables with a sequence are paged by it
 * (and listed in its order, which the copy keeps); the others by their primary key, whose "C"
 * collation orders them as SQLite does.
 *
 * @module
 */

import type { EntityLink } from "../ports/memories.js";
import type { TransferCounts, TransferKind, TransferRecord } from "../ports/transfer.js";
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
import { MEMORY_COLUMNS } from "./pg-memories.js";
import { readPending, readStamp } from "./pg-meta.js";
import { createPgRuns } from "./pg-runs.js";
import { parseVector, type Sql, toNumber } from "./pg-sql.js";

type Text = string | null;
/** A bigint column as pg returns it. */
type Int8 = string;

/** The table each kind's records come from (`store` is the meta table's facts). */
export const PG_TRANSFER_TABLES: Readonly<Record<Exclude<TransferKind, "store">, string>> = {
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

export async function countPgRecords(sql: Sql): Promise<TransferCounts> {
  const columns = Object.entries(PG_TRANSFER_TABLES).map(
    ([kind, table]) => `(select count(*) from ${table}) as "${kind}"`,
  );
  const row = await sql.one<Record<string, Int8>>(`select ${columns.join(", ")}`);
  const counts: Record<string, number> = { store: 1 };
  for (const kind of Object.keys(PG_TRANSFER_TABLES)) counts[kind] = toNumber(row?.[kind] ?? 0);
  return counts as TransferCounts;
}

/** One page read from `cursor` (the last seq read, or the offset), and the cursor after it. */
type PageReader = (cursor: number, limit: number) => Promise<{ records: TransferRecord[]; next: number }>;

/** Every record, at most `pageSize` a page, the store's facts first (alone). */
export async function* readPgRecords(sql: Sql, pageSize: number): AsyncGenerator<TransferRecord[]> {
  yield [{ kind: "store", embedder: await readStamp(sql), reembedTarget: await readPending(sql) }];
  const runs = createPgRuns(sql);
  /** Paged by `seq`: `select` must end in its `from` (the statement adds where, order and limit). */
  const sequenced =
    <R extends { seq: Int8 }>(
      select: string,
      map: (row: R) => TransferRecord[] | Promise<TransferRecord[]>,
    ): PageReader =>
    async (after, limit) => {
      const rows = await sql.rows<R>(`${select} where seq > $1 order by seq limit $2`, [after, limit]);
      const records: TransferRecord[] = [];
      for (const row of rows) records.push(...(await map(row)));
      const last = rows.at(-1)?.seq;
      return { records, next: last === undefined ? after : toNumber(last) };
    };
  /** Paged by offset in the order `select` gives (its primary key). */
  const keyed =
    <R>(select: string, map: (row: R) => TransferRecord): PageReader =>
    async (offset, limit) => {
      const rows = await sql.rows<R>(`${select} limit $1 offset $2`, [limit, offset]);
      return { records: rows.map(map), next: offset + rows.length };
    };
  const readers: PageReader[] = [
    memoryPages(sql),
    sequenced<HistoryRecordRow & { seq: Int8 }>(
      "select seq, memory_id, action, previous_value, new_value, actor, created_at, changes from history",
      (row) => [toHistoryTransfer(row)],
    ),
    sequenced<MessageTransferRow & { seq: Int8 }>(
      "select seq, session_scope, role, content, name, created_at from messages",
      (row) => [toMessageTransfer(row)],
    ),
    // Runs are few; each is read whole, with its changes, as the runs port reads it.
    sequenced("select seq, id from runs", async (row: { seq: Int8; id: string }) => {
      const found = await runs.getRun(row.id);
      return found === null ? [] : [{ kind: "run", seq: toNumber(row.seq), ...found }];
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
    sequenced<SleepEventTransferRow & { seq: Int8 }>(
      "select seq, workspace, type, at, data from sleep_events",
      (row) => [toSleepEventTransfer(row)],
    ),
    noteFilePages(sql),
  ];
  for (const read of readers) {
    for (let cursor = 0; ; ) {
      const { records, next } = await read(cursor, pageSize);
      if (records.length > 0) yield records;
      if (records.length < pageSize) break;
      cursor = next;
    }
  }
}

/** Memory rows by seq, each with its vectors (current and pending, as pgvector's text) and entity links. */
function memoryPages(sql: Sql): PageReader {
  return async (after, limit) => {
    const rows = await sql.rows<MemoryRecordRow & { seq: Int8; embedding: Text; embedding_next: Text }>(
      `select ${MEMORY_COLUMNS}, m.embedding::text as embedding, m.embedding_next::text as embedding_next
       from memories m where m.seq > $1 order by m.seq limit $2`,
      [after, limit],
    );
    const first = rows[0]?.seq;
    const last = rows.at(-1)?.seq;
    const links = new Map<string, EntityLink[]>();
    if (first !== undefined && last !== undefined) {
      const found = await sql.rows<EntityLink & { seq: Int8 }>(
        `select me.memory_seq as seq, e.key, e.name, e.type
         from memory_entities me join entities e on e.seq = me.entity_seq
         where me.memory_seq between $1 and $2 order by me.memory_seq, e.key`,
        [first, last],
      );
      for (const { seq, ...link } of found) links.set(seq, [...(links.get(seq) ?? []), link]);
    }
    const records = rows.map((row) =>
      toMemoryTransfer(row, {
        embedding: row.embedding === null ? null : parseVector(row.embedding),
        pendingEmbedding: row.embedding_next === null ? null : parseVector(row.embedding_next),
        entities: links.get(row.seq) ?? [],
      }),
    );
    return { records, next: last === undefined ? after : toNumber(last) };
  };
}

/** Note files by workspace and path, each with its chunks in the order they were indexed. */
function noteFilePages(sql: Sql): PageReader {
  return async (offset, limit) => {
    const files = await sql.rows<NoteFileTransferRow>(
      `select workspace, path, sha256, size, mtime_ms, embedder, short_term, indexed_at from note_files
       order by workspace, path limit $1 offset $2`,
      [limit, offset],
    );
    const records: TransferRecord[] = [];
    for (const file of files) {
      const chunks = await sql.rows<NoteChunkRow & { embedding: string }>(
        `select start_line, end_line, text, embedding::text as embedding from note_chunks
         where workspace = $1 and path = $2 order by seq`,
        [file.workspace, file.path],
      );
      records.push(
        toNoteFileTransfer(
          file,
          chunks.map((chunk) => toNoteChunk(chunk, parseVector(chunk.embedding))),
        ),
      );
    }
    return { records, next: offset + files.length };
  };
}
