/**
 * Writing memory records into a PostgreSQL store, a batch in three statements: the rows with their
 * vectors under their seqs (a row's keyword window is its text), the windows of the threaded ones
 * and their neighbours', and the entity links.
 *
 * @module
 */

import type { MemoryTransfer } from "../ports/transfer.js";
import { refreshWindows, windowsAround } from "./pg-memories.js";
import { type Sql, vectorLiteral } from "./pg-sql.js";

/** The rows with their vectors, then the windows of the threaded ones, then the entity links. */
export async function writeMemories(sql: Sql, records: MemoryTransfer[]): Promise<void> {
  const column = <T>(of: (record: MemoryTransfer) => T) => records.map(of);
  const threaded = (record: MemoryTransfer) => record.row.thread !== undefined && record.row.thread !== null;
  // Outside a thread a memory's window is its text, written with the row.
  await sql.run(
    `insert into memories(seq, id, text, hash, user_id, agent_id, app_id, run_id, category, metadata, created_at,
       updated_at, expires_at, thread, thread_position, actor_id, embedding, embedding_next, keywords, keyword_length)
     select r.seq, r.id, r.text, r.hash, r.user_id, r.agent_id, r.app_id, r.run_id, r.category, r.metadata,
       r.created_at, r.updated_at, r.expires_at, r.thread, r.thread_position, r.actor_id, r.embedding::vector,
       r.embedding_next::vector, keyword_vector(r.text), keyword_words(r.text)
     from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
       $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::integer[], $16::text[],
       $17::text[], $18::text[])
       as r(seq, id, text, hash, user_id, agent_id, app_id, run_id, category, metadata, created_at, updated_at,
         expires_at, thread, thread_position, actor_id, embedding, embedding_next)
     order by r.seq`,
    [
      column((r) => r.seq),
      column((r) => r.row.id),
      column((r) => r.row.text),
      column((r) => r.row.hash),
      column((r) => r.row.user_id),
      column((r) => r.row.agent_id),
      column((r) => r.row.app_id),
      column((r) => r.row.run_id),
      column((r) => r.row.category),
      column((r) => JSON.stringify(r.row.metadata)),
      column((r) => r.row.createdAt),
      column((r) => r.row.updatedAt),
      column((r) => r.row.expiresAt),
      column((r) => (threaded(r) ? r.row.thread : null)),
      column((r) => (threaded(r) ? (r.row.threadPosition ?? 0) : null)),
      column((r) => r.row.actorId ?? null),
      column((r) => (r.embedding === null ? null : vectorLiteral(r.embedding))),
      column((r) => (r.pendingEmbedding === null ? null : vectorLiteral(r.pendingEmbedding))),
    ],
  );
  const threadedSeqs = records.filter(threaded).map((record) => record.seq);
  // A threaded memory's window holds its neighbours' texts: its own, and those of its neighbours
  // copied before, are computed again, as every write does.
  await refreshWindows(sql, await windowsAround(sql, threadedSeqs));
  const links = records.flatMap((record) =>
    record.entities.map((entity) => ({ seq: record.seq, ...entity })),
  );
  if (links.length === 0) return;
  await sql.run(
    `with links as (
       select * from unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) as l(memory_seq, key, name, type)
     ), given as (
       select distinct on (key) key, name, type from links order by key
     ), upserted as (
       insert into entities(key, name, type) select key, name, type from given
       on conflict (key) do update set key = excluded.key returning seq, key
     )
     insert into memory_entities(memory_seq, entity_seq)
     select l.memory_seq, u.seq from links l join upserted u on u.key = l.key on conflict do nothing`,
    [links.map((l) => l.seq), links.map((l) => l.key), links.map((l) => l.name), links.map((l) => l.type)],
  );
}
