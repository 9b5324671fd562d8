/**
 * Memory rows in PostgreSQL: insert, update, delete, read and list, with their vector, keyword
 * window and entity links kept in step (the memories sub-port).
 *
 * A memory's keyword document is its window: its text and, in a thread, the texts just before and
 * after it among the memories of its scope (schemas 5 and 11 of the SQLite store; the question is
 * often asked in the turn before the answer). SQLite keeps windows with triggers; here each write
 * refreshes the windows it changes — its own and its thread neighbours' — in the same transaction.
 *
 * @module
 */

import type { Scope } from "../../core/scope.js";
import type { EntityLink, ListQuery, MemoriesPort } from "../ports/memories.js";
import { type MemoryRecordRow, memoryValues, patchValues, toMemoryRow } from "../rows/memory-rows.js";
import { compilePgFilter } from "./pg-filter.js";
import { readStamp } from "./pg-meta.js";
import { Params } from "./pg-params.js";
import { parseVector, type Sql, toNumber, vectorLiteral } from "./pg-sql.js";
import { compilePgVisibility } from "./pg-visibility.js";

export const MEMORY_COLUMNS =
  "m.seq, m.id, m.text, m.hash, m.user_id, m.agent_id, m.app_id, m.run_id, m.category, m.metadata, m.created_at, m.updated_at, m.expires_at, m.thread, m.thread_position, m.actor_id";

/**
 * `a` and `b` (table aliases) are of one scope: all four keys equal, null to null. A thread is one
 * scope's, so a memory of another scope that names it (an import can) is nobody's neighbour there.
 */
function sameScope(a: string, b: string): string {
  return ["user_id", "agent_id", "app_id", "run_id"]
    .map((key) => `${a}.${key} is not distinct from ${b}.${key}`)
    .join(" and ");
}

/**
 * The seqs whose window holds the text of one of these memories: they and their thread neighbours.
 * Read before a delete (after it, the neighbours can no longer be found from it).
 */
const WINDOWS_AROUND = `
  with given as (
    select seq, thread, thread_position, user_id, agent_id, app_id, run_id from memories where seq = any($1::bigint[])
  )
  select seq from given
  union select (select p.seq from memories p where p.thread = g.thread and ${sameScope("p", "g")}
                and p.thread_position < g.thread_position
                order by p.thread_position desc limit 1) from given g where g.thread is not null
  union select (select n.seq from memories n where n.thread = g.thread and ${sameScope("n", "g")}
                and n.thread_position > g.thread_position
                order by n.thread_position limit 1) from given g where g.thread is not null`;

/** Recomputes the keyword windows of these memories from the texts now stored. */
const REFRESH_WINDOWS = `
  with w as (
    select m.seq, case when m.thread is null then m.text else trim(
      coalesce((select p.text from memories p where p.thread = m.thread and ${sameScope("p", "m")}
                and p.thread_position < m.thread_position
                order by p.thread_position desc limit 1), '')
      || ' ' || m.text || ' ' ||
      coalesce((select n.text from memories n where n.thread = m.thread and ${sameScope("n", "m")}
                and n.thread_position > m.thread_position
                order by n.thread_position limit 1), '')) end as body
    from memories m where m.seq = any($1::bigint[])
  )
  update memories m set keywords = keyword_vector(w.body), keyword_length = keyword_words(w.body)
  from w where m.seq = w.seq`;

export async function windowsAround(sql: Sql, seqs: readonly (string | number)[]): Promise<string[]> {
  if (seqs.length === 0) return [];
  return (await sql.rows<{ seq: string | null }>(WINDOWS_AROUND, [seqs])).flatMap((row) => row.seq ?? []);
}

export async function refreshWindows(sql: Sql, seqs: readonly string[]): Promise<void> {
  if (seqs.length > 0) await sql.run(REFRESH_WINDOWS, [seqs]);
}

/**
 * `inTransaction`: the calls are part of a transaction that may write (the `tx` handle), so the
 * embedder stamp it reads is share-locked until it commits. A lone read takes no lock: a row lock
 * is a write to the row's page, which every search would otherwise make.
 */
export function createPgMemories(sql: Sql, options: { readonly inTransaction?: boolean } = {}): MemoriesPort {
  const seqOf = async (id: string): Promise<string | undefined> =>
    (await sql.one<{ seq: string }>("select seq from memories where id = $1", [id]))?.seq;

  const link = async (memorySeq: string, entities: readonly EntityLink[]): Promise<void> => {
    if (entities.length === 0) return;
    // Sorted by key, so two writers linking the same entities lock their rows in the same order.
    const sorted = [...entities].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    await sql.run(
      `with given as (
         select distinct on (key) key, name, type from unnest($2::text[], $3::text[], $4::text[]) e(key, name, type)
         order by key
       ), upserted as (
         insert into entities(key, name, type) select key, name, type from given
         on conflict (key) do update set key = excluded.key returning seq
       )
       insert into memory_entities(memory_seq, entity_seq) select $1, seq from upserted on conflict do nothing`,
      [memorySeq, sorted.map((e) => e.key), sorted.map((e) => e.name), sorted.map((e) => e.type)],
    );
  };

  /**
   * Drops those of these entities that no memory links to any more. The rows are locked first (in
   * key order, as `link` takes them), and the delete is a second statement, so it sees links that
   * another writer committed while this one waited for the lock: in one statement, its check would
   * read the older snapshot and the cascade would take the other writer's link with the entity.
   */
  const dropOrphans = async (entitySeqs: readonly string[]): Promise<void> => {
    if (entitySeqs.length === 0) return;
    await sql.run("select seq from entities where seq = any($1::bigint[]) order by key for update", [
      entitySeqs,
    ]);
    await sql.run(
      `delete from entities e where e.seq = any($1::bigint[])
         and not exists (select 1 from memory_entities me where me.entity_seq = e.seq)`,
      [entitySeqs],
    );
  };

  /** Removes a memory's entity links and drops the entities no memory links to any more. */
  const unlink = async (memorySeq: string): Promise<void> => {
    const previous = await sql.rows<{ entity_seq: string }>(
      "delete from memory_entities where memory_seq = $1 returning entity_seq",
      [memorySeq],
    );
    await dropOrphans(previous.map((row) => row.entity_seq));
  };

  return {
    async insertMemory(memory) {
      const row = await sql.one<{ seq: string }>(
        `insert into memories(id, text, hash, user_id, agent_id, app_id, run_id, category, metadata, created_at,
           updated_at, expires_at, thread, thread_position, actor_id, embedding, keywords, keyword_length)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16::vector,
           keyword_vector($2), keyword_words($2)) returning seq`,
        [...memoryValues(memory), vectorLiteral(memory.embedding)],
      );
      const seq = row?.seq as string;
      // Outside a thread the window is the text, written with the row; in one, it and its neighbours change.
      if (memory.thread !== undefined && memory.thread !== null)
        await refreshWindows(sql, await windowsAround(sql, [seq]));
      await link(seq, memory.entities);
    },

    async updateMemory(id, patch) {
      const seq = await seqOf(id);
      if (seq === undefined) return;
      const before = await sql.one<{ text: string }>("select text from memories where seq = $1", [seq]);
      await sql.run(
        `update memories set text = $2, hash = $3, category = $4, metadata = $5, updated_at = $6, expires_at = $7
         where seq = $1`,
        [seq, ...patchValues(patch)],
      );
      if (before?.text !== patch.text) await refreshWindows(sql, await windowsAround(sql, [seq]));
      if (patch.embedding !== undefined) {
        // A re-embedding under way computed its vector for the old text: it must embed this one again.
        await sql.run("update memories set embedding = $2::vector, embedding_next = null where seq = $1", [
          seq,
          vectorLiteral(patch.embedding),
        ]);
      }
      if (patch.entities !== undefined) {
        const previous = await sql.rows<{ entity_seq: string }>(
          "delete from memory_entities where memory_seq = $1 returning entity_seq",
          [seq],
        );
        await link(seq, patch.entities);
        await dropOrphans(previous.map((row) => row.entity_seq));
      }
    },

    async deleteMemory(id) {
      const seq = await seqOf(id);
      if (seq === undefined) return;
      const neighbours = (await windowsAround(sql, [seq])).filter((other) => other !== seq);
      await unlink(seq);
      await sql.run("delete from memories where seq = $1", [seq]);
      await refreshWindows(sql, neighbours);
    },

    async getMemory(id) {
      const row = await sql.one<MemoryRecordRow>(`select ${MEMORY_COLUMNS} from memories m where m.id = $1`, [
        id,
      ]);
      return row === undefined ? null : toMemoryRow(row);
    },

    async getMemories(ids) {
      if (ids.length === 0) return [];
      const rows = await sql.rows<MemoryRecordRow>(
        `select ${MEMORY_COLUMNS} from memories m where m.id = any($1::text[])`,
        [ids],
      );
      const byId = new Map(rows.map((row) => [row.id, toMemoryRow(row)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    async idsWithPrefix(prefix, limit) {
      if (prefix === "") return [];
      // A range on the unique index, not a scan: every id with the prefix sorts between these two.
      const last = prefix.charCodeAt(prefix.length - 1);
      const upper = `${prefix.slice(0, -1)}${String.fromCharCode(last + 1)}`;
      const rows = await sql.rows<{ id: string }>(
        "select id from memories where id >= $1 and id < $2 order by id limit $3",
        [prefix, upper, limit],
      );
      return rows.map((row) => row.id);
    },

    async findByHash(scope: Scope, hash) {
      const row = await sql.one<MemoryRecordRow>(
        `select ${MEMORY_COLUMNS} from memories m where m.hash = $1
           and m.user_id is not distinct from $2 and m.agent_id is not distinct from $3
           and m.app_id is not distinct from $4 and m.run_id is not distinct from $5 limit 1`,
        [hash, scope.user_id ?? null, scope.agent_id ?? null, scope.app_id ?? null, scope.run_id ?? null],
      );
      return row === undefined ? null : toMemoryRow(row);
    },

    async listMemories(query: ListQuery) {
      const params = new Params();
      const where = `${compilePgFilter(query.filter, params)} and ${compilePgVisibility(query.visibleAt, params)}`;
      const counted = await sql.one<{ total: string }>(
        `select count(*) as total from memories m where ${where}`,
        params.values,
      );
      const direction = query.order === "oldest" ? "asc" : "desc";
      const rows = await sql.rows<MemoryRecordRow>(
        `select ${MEMORY_COLUMNS} from memories m where ${where}
         order by m.created_at ${direction}, m.id ${direction} limit ${params.add(query.limit)} offset ${params.add(query.offset)}`,
        params.values,
      );
      return { rows: rows.map(toMemoryRow), total: toNumber(counted?.total ?? 0) };
    },

    async getEmbeddings(ids) {
      if (ids.length === 0) return new Map();
      const rows = await sql.rows<{ id: string; embedding: string }>(
        "select id, embedding::text as embedding from memories where id = any($1::text[]) and embedding is not null",
        [ids],
      );
      return new Map(rows.map((row) => [row.id, parseVector(row.embedding)]));
    },

    // Shared-locked inside a write: a re-embedding cannot switch the store's vectors between this
    // read and the write that relies on it (`finishReembed` updates these rows first).
    embedderStamp: () => readStamp(sql, undefined, undefined, { share: options.inTransaction === true }),

    async nextThreadPosition(thread, scope) {
      const row = await sql.one<{ last: number | null }>(
        `select max(thread_position) as last from memories where thread = $1
           and user_id is not distinct from $2 and agent_id is not distinct from $3
           and app_id is not distinct from $4 and run_id is not distinct from $5`,
        [thread, scope.user_id ?? null, scope.agent_id ?? null, scope.app_id ?? null, scope.run_id ?? null],
      );
      return row?.last === null || row?.last === undefined ? 0 : row.last + 1;
    },

    async getEntityLinks(id) {
      return sql.rows<EntityLink>(
        `select e.key as key, e.name as name, e.type as type from memories m
         join memory_entities me on me.memory_seq = m.seq join entities e on e.seq = me.entity_seq
         where m.id = $1 order by e.key`,
        [id],
      );
    },
  };
}
