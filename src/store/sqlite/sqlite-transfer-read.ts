/**
 * Reading a whole SQLite store as transfer records (the read half of the transfer sub-port), page
 * by page, on whichever connection holds the snapshot. Tables with a sequence are paged by it (and
 * listed in its order, which the copy keeps); the others by their primary key.
 *
 * @module
 */

import type { HistoryAction } from "../ports/history.js";
import type { EntityLink } from "../ports/memories.js";
import type { TransferCounts, TransferKind, TransferRecord } from "../ports/transfer.js";
import { MEMORY_COLUMNS, toMemoryRow } from "./sqlite-memories.js";
import { createSqliteMeta } from "./sqlite-meta.js";
import { readPending, readStamp } from "./sqlite-reembed.js";
import { createSqliteRuns } from "./sqlite-runs.js";
import { PENDING_VECTOR_TABLE, VECTOR_TABLE, type VectorTable } from "./sqlite-schema.js";
import type { StatementCache } from "./statement-cache.js";

type MemoryRecordRow = Parameters<typeof toMemoryRow>[0];
type Text = string | null;

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
    sequenced(
      "select seq, memory_id, action, previous_value, new_value, actor, created_at, changes from history",
      (row: {
        seq: number;
        memory_id: string;
        action: HistoryAction;
        previous_value: Text;
        new_value: Text;
        actor: string;
        created_at: string;
        changes: Text;
      }) => [
        {
          kind: "history",
          row: {
            seq: row.seq,
            memoryId: row.memory_id,
            action: row.action,
            previousValue: row.previous_value,
            newValue: row.new_value,
            actor: row.actor,
            createdAt: row.created_at,
            ...(row.changes === null ? {} : { changed: JSON.parse(row.changes) as string[] }),
          },
        },
      ],
    ),
    sequenced(
      "select seq, session_scope, role, content, name, created_at from messages",
      (row: {
        seq: number;
        session_scope: string;
        role: string;
        content: string;
        name: Text;
        created_at: string;
      }) => [
        {
          kind: "message",
          seq: row.seq,
          sessionScope: row.session_scope,
          message: { role: row.role, content: row.content, name: row.name, createdAt: row.created_at },
        },
      ],
    ),
    // Runs are few; each is read whole, with its changes, as the runs port reads it.
    sequenced("select seq, id from runs", (row: { seq: number; id: string }) => {
      const found = runs.getRun(row.id);
      return found === null ? [] : [{ kind: "run", seq: row.seq, ...found }];
    }),
    keyed(
      "select scope_key, last_consolidated_at, last_session_id from dream_state order by scope_key",
      (row: { scope_key: string; last_consolidated_at: Text; last_session_id: Text }) => ({
        kind: "gateState",
        scopeKey: row.scope_key,
        lastConsolidatedAt: row.last_consolidated_at,
        lastSessionId: row.last_session_id,
      }),
    ),
    keyed(
      "select scope_key, session_id, trigger, recorded_at from dream_sessions order by scope_key, session_id",
      (row: { scope_key: string; session_id: string; trigger: string; recorded_at: string }) => ({
        kind: "gateSession",
        scopeKey: row.scope_key,
        sessionId: row.session_id,
        trigger: row.trigger,
        recordedAt: row.recorded_at,
      }),
    ),
    keyed(
      "select scope_key, holder, host, pid, acquired_at, expires_at from dream_leases order by scope_key",
      (row: {
        scope_key: string;
        holder: string;
        host: string;
        pid: number;
        acquired_at: string;
        expires_at: string;
      }) => ({
        kind: "lease",
        key: row.scope_key,
        lease: {
          holder: row.holder,
          host: row.host,
          pid: row.pid,
          acquiredAt: row.acquired_at,
          expiresAt: row.expires_at,
        },
      }),
    ),
    keyed(
      "select workspace, key, entry, updated_at, recalled_at, priority from recalls order by workspace, key",
      (row: {
        workspace: string;
        key: string;
        entry: string;
        updated_at: string;
        recalled_at: string;
        priority: number;
      }) => ({
        kind: "recall",
        workspace: row.workspace,
        recall: {
          key: row.key,
          entry: JSON.parse(row.entry) as Record<string, unknown>,
          updatedAt: row.updated_at,
          recalledAt: row.recalled_at,
          priority: row.priority,
        },
      }),
    ),
    keyed(
      "select workspace, namespace, key, value, updated_at from sleep_state order by workspace, namespace, key",
      (row: { workspace: string; namespace: string; key: string; value: string; updated_at: string }) => ({
        kind: "sleepState",
        workspace: row.workspace,
        namespace: row.namespace,
        record: { key: row.key, value: JSON.parse(row.value) as unknown, updatedAt: row.updated_at },
      }),
    ),
    sequenced(
      "select seq, workspace, type, at, data from sleep_events",
      (row: { seq: number; workspace: string; type: string; at: string; data: string }) => [
        {
          kind: "sleepEvent",
          workspace: row.workspace,
          event: {
            seq: row.seq,
            type: row.type,
            at: row.at,
            data: JSON.parse(row.data) as Record<string, unknown>,
          },
        },
      ],
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
  return new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
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
      .all(after, limit) as MemoryRecordRow[];
    const first = rows[0]?.seq ?? after;
    const last = rows.at(-1)?.seq ?? after;
    const current = vectors(VECTOR_TABLE, first, last);
    const pending = vectors(PENDING_VECTOR_TABLE, first, last);
    const links = entities(first, last);
    const records = rows.map(
      (row): TransferRecord => ({
        kind: "memory",
        seq: row.seq,
        row: toMemoryRow(row),
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
      .all(limit, offset) as {
      workspace: string;
      path: string;
      sha256: string;
      size: number;
      mtime_ms: number;
      embedder: string;
      short_term: number;
      indexed_at: string;
    }[];
    const chunks = statements.get(
      "select start_line, end_line, text, embedding from note_chunks where workspace = ? and path = ? order by seq",
    );
    const records = files.map(
      (file): TransferRecord => ({
        kind: "noteFile",
        workspace: file.workspace,
        file: {
          path: file.path,
          sha256: file.sha256,
          size: file.size,
          mtimeMs: file.mtime_ms,
          embedder: file.embedder,
          shortTerm: file.short_term === 1,
          indexedAt: file.indexed_at,
        },
        chunks: (
          chunks.all(file.workspace, file.path) as {
            start_line: number;
            end_line: number;
            text: string;
            embedding: Buffer;
          }[]
        ).map((chunk) => ({
          startLine: chunk.start_line,
          endLine: chunk.end_line,
          text: chunk.text,
          embedding: floats(chunk.embedding),
        })),
      }),
    );
    return { records, next: offset + files.length };
  };
}
