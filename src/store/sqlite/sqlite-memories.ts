/**
 * Memory rows in SQLite: insert, update, delete, read and list, with their vector, keyword index
 * and entity links kept in step (the memories sub-port), and the vector side of re-embedding.
 * Synchronous; `sqlite-store.ts` serialises calls and wraps them async.
 *
 * @module
 */

import type { Scope } from "../../core/scope.js";
import type { MemoryVector } from "../ports/maintenance.js";
import type { EntityLink, ListQuery, MemoriesPort, MemoryPatch, MemoryRow } from "../ports/memories.js";
import { type MemoryRecordRow, memoryValues, patchValues, toMemoryRow } from "../rows/memory-rows.js";
import { compileSqliteFilter } from "./sqlite-filter.js";
import type { SqliteMeta } from "./sqlite-meta.js";
import { readStamp } from "./sqlite-reembed.js";
import { PENDING_VECTOR_TABLE } from "./sqlite-schema.js";
import { compileVisibility } from "./sqlite-visibility.js";
import type { StatementCache } from "./statement-cache.js";
import type { SyncPort } from "./sync-port.js";

export const MEMORY_COLUMNS =
  "m.seq, m.id, m.text, m.hash, m.user_id, m.agent_id, m.app_id, m.run_id, m.category, m.metadata, m.created_at, m.updated_at, m.expires_at, m.thread, m.thread_position, m.actor_id";

/** vec0 takes integer keys only as BigInt (better-sqlite3 binds JS numbers as REAL). */
const vecKey = (seq: number): bigint => BigInt(seq);

export interface SqliteMemories extends SyncPort<MemoriesPort> {
  /** Memories without a vector in the pending table, in insertion order. */
  listUnembedded(limit: number): MemoryRow[];
  writePending(vectors: readonly MemoryVector[]): void;
}

export function createSqliteMemories(statements: StatementCache, meta: SqliteMeta): SqliteMemories {
  const seqOf = (id: string): number | undefined =>
    (statements.get("select seq from memories where id = ?").get(id) as { seq: number } | undefined)?.seq;

  const link = (memorySeq: number, entities: readonly EntityLink[]): void => {
    const upsert = statements.get(
      "insert into entities(key, name, type) values (?, ?, ?) on conflict(key) do update set key = excluded.key returning seq",
    );
    const attach = statements.get(
      "insert or ignore into memory_entities(memory_seq, entity_seq) values (?, ?)",
    );
    for (const entity of entities) {
      const { seq } = upsert.get(entity.key, entity.name, entity.type) as { seq: number };
      attach.run(memorySeq, seq);
    }
  };

  /** Removes a memory's entity links and returns the entities it was linked to. */
  const unlink = (memorySeq: number): number[] =>
    (
      statements
        .get("delete from memory_entities where memory_seq = ? returning entity_seq")
        .all(memorySeq) as {
        entity_seq: number;
      }[]
    ).map((row) => row.entity_seq);

  const dropOrphanEntities = (entitySeqs: readonly number[]): void => {
    const drop = statements.get(
      "delete from entities where seq = ? and not exists (select 1 from memory_entities where entity_seq = ?)",
    );
    for (const seq of entitySeqs) drop.run(seq, seq);
  };

  const dropPendingVector = (seq: number): void => {
    const pending = statements.get("select 1 from sqlite_master where name = ?").get(PENDING_VECTOR_TABLE);
    if (pending !== undefined)
      statements.get(`delete from ${PENDING_VECTOR_TABLE} where seq = ?`).run(vecKey(seq));
  };

  const hasVectors = () =>
    statements.get("select 1 from sqlite_master where name = 'memories_vec'").get() !== undefined;

  return {
    insertMemory(memory) {
      const { seq } = statements
        .get(
          `insert into memories(id, text, hash, user_id, agent_id, app_id, run_id, category, metadata, created_at, updated_at, expires_at, thread, thread_position, actor_id)
           values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning seq`,
        )
        .get(...memoryValues(memory)) as { seq: number };
      statements
        .get(
          "insert into memories_vec(seq, user_key, agent_key, app_key, run_key, embedding) values (?, ?, ?, ?, ?, ?)",
        )
        .run(
          vecKey(seq),
          memory.user_id ?? "",
          memory.agent_id ?? "",
          memory.app_id ?? "",
          memory.run_id ?? "",
          memory.embedding,
        );
      link(seq, memory.entities);
    },

    updateMemory(id, patch: MemoryPatch) {
      const seq = seqOf(id);
      if (seq === undefined) return;
      statements
        .get(
          "update memories set text = ?, hash = ?, category = ?, metadata = ?, updated_at = ?, expires_at = ? where seq = ?",
        )
        .run(...patchValues(patch), seq);
      if (patch.embedding !== undefined) {
        statements
          .get("update memories_vec set embedding = ? where seq = ?")
          .run(patch.embedding, vecKey(seq));
        // A re-embedding under way computed its vector for the old text: it must embed this one again.
        dropPendingVector(seq);
      }
      if (patch.entities !== undefined) {
        const previous = unlink(seq);
        link(seq, patch.entities);
        dropOrphanEntities(previous);
      }
    },

    deleteMemory(id) {
      const seq = seqOf(id);
      if (seq === undefined) return;
      const entitySeqs = unlink(seq);
      statements.get("delete from memories_vec where seq = ?").run(vecKey(seq));
      dropPendingVector(seq);
      statements.get("delete from memories where seq = ?").run(seq);
      dropOrphanEntities(entitySeqs);
    },

    getMemory(id) {
      const row = statements.get(`select ${MEMORY_COLUMNS} from memories m where m.id = ?`).get(id) as
        | MemoryRecordRow
        | undefined;
      return row === undefined ? null : toMemoryRow(row);
    },

    getMemories(ids) {
      if (ids.length === 0) return [];
      const rows = statements
        .get(`select ${MEMORY_COLUMNS} from memories m where m.id in (select value from json_each(?))`)
        .all(JSON.stringify(ids)) as MemoryRecordRow[];
      const byId = new Map(rows.map((row) => [row.id, toMemoryRow(row)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    idsWithPrefix(prefix, limit) {
      if (prefix === "") return [];
      // A range on the primary key, not a scan: every id with the prefix sorts between these two.
      const last = prefix.charCodeAt(prefix.length - 1);
      const upper = `${prefix.slice(0, -1)}${String.fromCharCode(last + 1)}`;
      const rows = statements
        .get("select id from memories where id >= ? and id < ? order by id limit ?")
        .all(prefix, upper, limit) as { id: string }[];
      return rows.map((row) => row.id);
    },

    findByHash(scope: Scope, hash) {
      const row = statements
        .get(
          `select ${MEMORY_COLUMNS} from memories m where m.hash = ?
             and m.user_id is ? and m.agent_id is ? and m.app_id is ? and m.run_id is ? limit 1`,
        )
        .get(
          hash,
          scope.user_id ?? null,
          scope.agent_id ?? null,
          scope.app_id ?? null,
          scope.run_id ?? null,
        ) as MemoryRecordRow | undefined;
      return row === undefined ? null : toMemoryRow(row);
    },

    listMemories(query: ListQuery) {
      const filter = compileSqliteFilter(query.filter, "m");
      const visible = compileVisibility(query.visibleAt, "m");
      const where = `${filter.sql} and ${visible.sql}`;
      const params = [...filter.params, ...visible.params];
      const { total } = statements
        .get(`select count(*) as total from memories m where ${where}`)
        .get(...params) as {
        total: number;
      };
      const direction = query.order === "oldest" ? "asc" : "desc";
      const rows = statements
        .get(
          `select ${MEMORY_COLUMNS} from memories m where ${where}
           order by m.created_at ${direction}, m.id ${direction} limit ? offset ?`,
        )
        .all(...params, query.limit, query.offset) as MemoryRecordRow[];
      return { rows: rows.map(toMemoryRow), total };
    },

    getEmbeddings(ids) {
      if (!hasVectors()) return new Map();
      const rows = statements
        .get(
          `select m.id as id, v.embedding as embedding from memories m join memories_vec v on v.seq = m.seq
           where m.id in (select value from json_each(?))`,
        )
        .all(JSON.stringify(ids)) as { id: string; embedding: Buffer }[];
      // Copy each: a Buffer may be a view into a larger pooled allocation.
      return new Map(
        rows.map((row) => {
          const bytes = row.embedding;
          return [
            row.id,
            new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)),
          ];
        }),
      );
    },

    embedderStamp: () => readStamp(meta),

    nextThreadPosition(thread, scope) {
      const row = statements
        .get(
          `select max(thread_position) as last from memories
           where thread = ? and user_id is ? and agent_id is ? and app_id is ? and run_id is ?`,
        )
        .get(
          thread,
          scope.user_id ?? null,
          scope.agent_id ?? null,
          scope.app_id ?? null,
          scope.run_id ?? null,
        ) as { last: number | null };
      return row.last === null ? 0 : row.last + 1;
    },

    getEntityLinks(id) {
      return statements
        .get(
          `select e.key as key, e.name as name, e.type as type from memories m
           join memory_entities me on me.memory_seq = m.seq join entities e on e.seq = me.entity_seq
           where m.id = ? order by e.key`,
        )
        .all(id) as EntityLink[];
    },

    listUnembedded(limit) {
      const rows = statements
        .get(
          `select ${MEMORY_COLUMNS} from memories m
           where not exists (select 1 from ${PENDING_VECTOR_TABLE} n where n.seq = m.seq)
           order by m.seq limit ?`,
        )
        .all(limit) as MemoryRecordRow[];
      return rows.map(toMemoryRow);
    },

    writePending(vectors) {
      const insert = statements.get(
        `insert or replace into ${PENDING_VECTOR_TABLE}(seq, user_key, agent_key, app_key, run_key, embedding)
         select seq, coalesce(user_id, ''), coalesce(agent_id, ''), coalesce(app_id, ''), coalesce(run_id, ''), ?
         from memories where id = ? and hash = ?`,
      );
      for (const vector of vectors) insert.run(vector.embedding, vector.id, vector.hash);
    },
  };
}
