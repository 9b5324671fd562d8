/**
 * The three candidate generators of hybrid search, in PostgreSQL: dense (pgvector), keyword (BM25
 * over each memory's window) and entity links. Each applies the full filter and the expiry rule
 * itself, so every hit it returns is a memory the caller may see.
 *
 * Dense search avoids the filtered-HNSW trap (`../shared/research/storage.md`: with an HNSW index
 * present, `where user_id = $2 order by embedding <=> $1 limit 10` post-filters the index's 40
 * candidates and returned 0 rows for a 1%-selective user). It first counts the memories the filter
 * passes, no further than `exactSearchBelow`:
 * - at or below it (a user's memories, the normal case), every one of them is compared, behind an
 *   `offset 0` fence the planner cannot push the ordering through: exact, recall 1.0;
 * - above it, the HNSW index with `hnsw.iterative_scan` (set on every connection), which keeps
 *   scanning past rows the filter removes; if that still yields fewer than k (it stops after
 *   `hnsw.max_scan_tuples`), the exact path runs.
 *
 * Keyword search is BM25 as SQLite's FTS5 computes it (k1 = 1.2, b = 0.75; idf = ln((N − n + 0.5) /
 * (n + 0.5)), at least 1e-6), so the same queries rank the same on both backends. FTS5 measures a
 * document's length over all of its columns, and Lucid's FTS5 table has a second column holding one
 * scope token per row: so here too a window's length is its words plus one, and the average length
 * counts one more word per memory. Its corpus
 * statistics — N, average window length, each term's document count — are what a trigger keeps in
 * `keyword_totals` / `keyword_terms` (schema 1), over every memory, as FTS5's are.
 *
 * @module
 */

import type {
  DenseHit,
  DenseQuery,
  EntityHit,
  KeywordHit,
  KeywordQuery,
  SearchPort,
} from "../ports/search.js";
import { type CandidateRecordRow, toCandidateRow } from "../rows/memory-rows.js";
import { compilePgFilter } from "./pg-filter.js";
import type { PgSettings } from "./pg-operations.js";
import { Params } from "./pg-params.js";
import { type Sql, toNumber, vectorLiteral } from "./pg-sql.js";
import { compilePgVisibility } from "./pg-visibility.js";

interface DistanceRow {
  id: string;
  thread: string | null;
  distance: number;
}

function where(query: Pick<DenseQuery, "filter" | "visibleAt">, params: Params): string {
  return `${compilePgFilter(query.filter, params)} and ${compilePgVisibility(query.visibleAt, params)}`;
}

export function createPgSearch(sql: Sql, settings: PgSettings): SearchPort {
  /**
   * How many memories pass the filter, counted no further than `limit + 1`. The expiry rule is left
   * out (the count is an upper bound, which is all the choice of path needs), so a scope's count is
   * an index-only scan of its btree, not a read of its rows.
   */
  const countUpTo = async (query: Pick<DenseQuery, "filter">, limit: number): Promise<number> => {
    const params = new Params();
    const clause = compilePgFilter(query.filter, params);
    const row = await sql.one<{ n: string }>(
      `select count(*) as n from (select 1 from memories m where ${clause} limit ${params.add(limit + 1)}) s`,
      params.values,
    );
    return toNumber(row?.n ?? 0);
  };

  const exact = async (query: DenseQuery): Promise<DistanceRow[]> => {
    const params = new Params();
    const vector = params.add(vectorLiteral(query.vector));
    const clause = where(query, params);
    return sql.rows<DistanceRow>(
      `select s.id, s.thread, s.distance from (
         select m.seq, m.id, m.thread, m.embedding <=> ${vector}::vector as distance
         from memories m where m.embedding is not null and ${clause} offset 0
       ) s order by s.distance, s.seq limit ${params.add(query.k)}`,
      params.values,
    );
  };

  /**
   * Through the HNSW index. The planner would often sort instead (it cannot know the index must skip
   * filtered rows), so sorting is switched off for this one statement, inside the call's transaction.
   */
  const approximate = async (query: DenseQuery): Promise<DistanceRow[]> => {
    const params = new Params();
    const vector = params.add(vectorLiteral(query.vector));
    const clause = where(query, params);
    const previous = await sql.one<{ value: string }>(
      "select current_setting('enable_sort') as value, set_config('enable_sort', 'off', true)",
    );
    try {
      return await sql.rows<DistanceRow>(
        `select s.id, s.thread, s.distance from (
           select m.seq, m.id, m.thread, m.embedding <=> ${vector}::vector as distance
           from memories m where m.embedding is not null and ${clause}
           order by m.embedding <=> ${vector}::vector limit ${params.add(query.k)}
         ) s order by s.distance, s.seq`,
        params.values,
      );
    } finally {
      await sql.run("select set_config('enable_sort', $1, true)", [previous?.value ?? "on"]);
    }
  };

  return {
    async searchDense(query): Promise<DenseHit[]> {
      if (query.k <= 0) return [];
      const passing = await countUpTo(query, settings.exactSearchBelow);
      let rows = passing <= settings.exactSearchBelow ? await exact(query) : await approximate(query);
      if (rows.length < query.k && passing > settings.exactSearchBelow) rows = await exact(query);
      return rows.map((row) => ({ id: row.id, similarity: 1 - row.distance, thread: row.thread }));
    },

    async searchKeyword(query: KeywordQuery): Promise<KeywordHit[]> {
      const terms = query.terms.filter((term) => term.length > 0);
      if (terms.length === 0 || query.k <= 0) return [];
      // A small scope (a user's memories) is read whole behind an `offset 0` fence and its windows
      // matched one by one: left to itself the planner ANDs the scope's btree with the GIN index,
      // whose scan of a common word covers the whole table (26 ms for 1,001 rows at 1M memories,
      // 7 ms fenced). A large scope, or none, goes through the GIN index.
      const small = (await countUpTo(query, settings.exactSearchBelow)) <= settings.exactSearchBelow;
      const params = new Params();
      const given = params.add(terms);
      const clause = where(query, params);
      const source = small
        ? `(select m.seq, m.id, m.thread, m.keywords, m.keyword_length from memories m where ${clause} offset 0) m`
        : "memories m";
      // One row of `q` per term's lexeme: a term given twice (or two terms with one stem) counts
      // twice, as FTS5 sums over the query's phrases.
      const rows = await sql.rows<{ id: string; thread: string | null; bm25: number }>(
        `with q as (
           select lexeme from unnest(${given}::text[]) t(term),
             lateral unnest(tsvector_to_array(keyword_vector(t.term))) lexeme
         ), totals as (
           select coalesce(sum(documents), 0)::float8 as n, coalesce(sum(words), 0)::float8 as words
           from keyword_totals
         ), idf as (
           select d.lexeme, greatest(ln((totals.n - d.df + 0.5) / (d.df + 0.5)), 1e-6) as idf
           from (select q.lexeme, coalesce((select sum(k.documents) from keyword_terms k where k.term = q.lexeme), 0)::float8 as df
                 from (select distinct lexeme from q) q) d, totals
         ), tsq as (
           select to_tsquery('simple', string_agg(quote_literal(lexeme), ' | ')) as query from (select distinct lexeme from q) d
         )
         select m.id, m.thread, sum(idf.idf * (tf.n * 2.2) / (tf.n + 1.2 * (0.25 + 0.75 * (m.keyword_length + 1) / ((totals.words + totals.n) / totals.n)))) as bm25
         from ${source}, tsq, totals,
           lateral (select u.lexeme, array_length(u.positions, 1)::float8 as n from unnest(m.keywords) u) tf
           join q on q.lexeme = tf.lexeme
           join idf on idf.lexeme = tf.lexeme
         where m.keywords @@ tsq.query${small ? "" : ` and ${clause}`}
         group by m.seq, m.id, m.thread
         order by bm25 desc, m.seq limit ${params.add(query.k)}`,
        params.values,
      );
      return rows.map((row) => ({ id: row.id, bm25: row.bm25, thread: row.thread }));
    },

    async candidateRows(ids, options) {
      if (ids.length === 0) return [];
      const text = options?.withText === true ? ", text" : "";
      const rows = await sql.rows<CandidateRecordRow>(
        `select id, thread, thread_position, actor_id, created_at${text} from memories where id = any($1::text[])`,
        [ids],
      );
      return rows.map(toCandidateRow);
    },

    async speakersNamed(query) {
      if (query.names.length === 0) return [];
      const params = new Params();
      const names = params.add(query.names);
      const clause = where(query, params);
      const rows = await sql.rows<{ name: string }>(
        // ASCII-only folding (the "C" collation), as SQLite's `collate nocase` and `lower()`.
        `select distinct lower(n.name collate "C") as name from unnest(${names}::text[]) n(name)
         where exists (select 1 from memories m where lower(m.actor_id) = lower(n.name collate "C") and ${clause})`,
        params.values,
      );
      return rows.map((row) => row.name);
    },

    async searchEntities(query): Promise<EntityHit[]> {
      if (query.keys.length === 0 || query.limit <= 0 || query.ids?.length === 0) return [];
      const params = new Params();
      const keys = params.add(query.keys);
      const clause = where(query, params);
      const onlyIds = query.ids === undefined ? "" : `where id = any(${params.add(query.ids)}::text[])`;
      const rows = await sql.rows<{ id: string; key: string; link_count: string; thread: string | null }>(
        `select id, key, link_count, thread from (
           select m.id, m.seq, m.thread, e.key, count(*) over (partition by e.seq) as link_count
           from entities e
           join memory_entities me on me.entity_seq = e.seq
           join memories m on m.seq = me.memory_seq
           where e.key = any(${keys}::text[]) and ${clause}
         ) hits ${onlyIds} order by link_count, seq desc, key limit ${params.add(query.limit)}`,
        params.values,
      );
      return rows.map((row) => ({
        id: row.id,
        key: row.key,
        linkCount: toNumber(row.link_count),
        thread: row.thread,
      }));
    },
  };
}
