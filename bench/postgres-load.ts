/**
 * Bulk-loading a synthetic corpus into a PostgreSQL store's tables, the way an operator imports a
 * large store: rows in multi-row INSERTs with the HNSW index and the keyword-statistics trigger
 * off, then the statistics computed in one statement and the index built once. Row by row through
 * the store port (5–7 ms per insert with HNSW present at 100k, `research/storage.md`) a million
 * memories would take hours; every search and add the benchmark times goes through the port.
 *
 * @module
 */

import type pg from "pg";
import { vectorLiteral } from "../src/store/postgres/pg-sql.js";
import type { SyntheticCorpus } from "./synthetic.js";

const ROWS_PER_STATEMENT = 1000;

export interface LoadTimings {
  readonly rowsSeconds: number;
  readonly statsSeconds: number;
  readonly indexSeconds: number;
}

export const memoryId = (index: number): string => `mem-${String(index).padStart(8, "0")}`;
export const userId = (user: number): string => `user-${user}`;

/** Memories [0, count) of the corpus into the store in `schema` (bound to the corpus's embedder). */
export async function bulkLoad(
  client: pg.Client,
  schema: string,
  corpus: SyntheticCorpus,
  count: number,
  progress: (message: string) => void,
): Promise<LoadTimings> {
  await client.query(`set search_path = ${schema}, public`);
  await client.query("set maintenance_work_mem = '4GB'");
  await client.query("drop index if exists memories_embedding_hnsw");
  await client.query("alter table memories disable trigger memories_keyword_stats");
  const started = performance.now();
  const createdAt = "2026-06-01T00:00:00.000Z";
  for (let from = 0; from < count; from += ROWS_PER_STATEMENT) {
    const to = Math.min(count, from + ROWS_PER_STATEMENT);
    const ids: string[] = [];
    const texts: string[] = [];
    const users: string[] = [];
    const vectors: string[] = [];
    for (let index = from; index < to; index++) {
      const memory = corpus.memories[index];
      if (memory === undefined) throw new Error(`the corpus has no memory ${index}`);
      ids.push(memoryId(index));
      texts.push(memory.text);
      users.push(userId(memory.user));
      vectors.push(vectorLiteral(corpus.vectors.get(memory.text) as Float32Array));
    }
    await client.query(
      `insert into memories(id, text, hash, user_id, metadata, created_at, updated_at, embedding, keywords, keyword_length)
       select r.id, r.text, md5(r.text), r.user_id, '{}', $5, $5, r.embedding::vector, keyword_vector(r.text), keyword_words(r.text)
       from unnest($1::text[], $2::text[], $3::text[], $4::text[]) r(id, text, user_id, embedding)`,
      [ids, texts, users, vectors, createdAt],
    );
    if (to % 100_000 === 0) progress(`${to} rows`);
  }
  const rowsSeconds = (performance.now() - started) / 1000;
  const statsStarted = performance.now();
  await client.query("truncate keyword_totals, keyword_terms");
  await client.query(
    "insert into keyword_totals(shard, documents, words) select 0, count(*), coalesce(sum(keyword_length), 0) from memories",
  );
  await client.query(
    `insert into keyword_terms(term, shard, documents)
     select lexeme, 0, count(*) from memories, unnest(tsvector_to_array(keywords)) lexeme group by lexeme`,
  );
  await client.query("alter table memories enable trigger memories_keyword_stats");
  const statsSeconds = (performance.now() - statsStarted) / 1000;
  progress("building the HNSW index");
  const indexStarted = performance.now();
  await client.query(
    "create index memories_embedding_hnsw on memories using hnsw (embedding vector_cosine_ops)",
  );
  const indexSeconds = (performance.now() - indexStarted) / 1000;
  await client.query("analyze");
  return { rowsSeconds, statsSeconds, indexSeconds };
}
