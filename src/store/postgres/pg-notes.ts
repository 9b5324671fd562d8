/**
 * The notes index in PostgreSQL: `note_files` (one row per indexed file) and `note_chunks` (each
 * chunk with its vector, its keyword `tsvector` and its length in words). Dense search is an exact
 * scan of the workspace's chunks with pgvector's cosine distance. Keyword search is BM25 computed in
 * SQL as SQLite's FTS5 `bm25()` computes it over `note_chunks_fts`, so both backends rank alike.
 *
 * @module
 */

import type {
  NoteChunkRecord,
  NoteDenseHit,
  NoteFileRecord,
  NoteKeywordHit,
  NotesPort,
} from "../ports/notes.js";
import { type NoteFileRow, type NoteHitRow, toNoteFile, toNoteHit } from "../rows/note-rows.js";
import { type Sql, vectorLiteral } from "./pg-sql.js";

const CHUNK_COLUMNS =
  "c.path as path, c.start_line as start_line, c.end_line as end_line, c.text as text, f.short_term as short_term";

/**
 * BM25 as FTS5 computes it, over every chunk of the table (FTS5's statistics are the whole table's,
 * every workspace's): N chunks, avgdl their mean length, n(q) the chunks holding a term; idf =
 * ln((N − n + 0.5) / (n + 0.5)), taken as 1e-6 when not positive; a chunk scores
 * Σ idf · tf · (k1 + 1) / (tf + k1 · (1 − b + b · len / avgdl)), tf being the term's positions in
 * it, with FTS5's defaults k1 = 1.2 and b = 0.75. The query is the distinct lexemes of the terms,
 * OR-ed. Lexemes are runs of letters and digits (`keyword_vector`), so `quote_literal` quotes each
 * as tsquery's input reads it, and the cast to tsquery stems or splits nothing again.
 */
const KEYWORD_SEARCH = `
  with asked as (
    select lexeme from unnest($1::text[]) t(term), lateral unnest(tsvector_to_array(keyword_vector(t.term))) lexeme
  ),
  terms as (
    select distinct lexeme from asked
  ),
  query as (
    select string_agg(quote_literal(lexeme), ' | ')::tsquery as q from terms
  ),
  corpus as (
    select count(*)::float8 as n, avg(keyword_length)::float8 as avgdl from note_chunks
  ),
  -- Materialized: inlined, the planner may count a term's chunks again for every chunk it scores.
  weights as materialized (
    select t.lexeme, case when w.idf <= 0 then 1e-6 else w.idf end as idf
    from terms t cross join corpus,
      lateral (select count(*)::float8 as df from note_chunks c where c.keywords @@ quote_literal(t.lexeme)::tsquery) d,
      lateral (select ln((corpus.n - d.df + 0.5) / (d.df + 0.5)) as idf) w
  )
  select ${CHUNK_COLUMNS}, sum(
      weights.idf * cardinality(k.positions) * (1.2 + 1)
        / (cardinality(k.positions) + 1.2 * (1 - 0.75 + 0.75 * c.keyword_length / corpus.avgdl))
    ) as score
  from note_chunks c join note_files f on f.workspace = c.workspace and f.path = c.path
    cross join corpus
    cross join lateral unnest(c.keywords) k
    join asked on asked.lexeme = k.lexeme
    join weights on weights.lexeme = k.lexeme
  -- A subquery, so the match is a value the GIN index can be asked for.
  where c.workspace = $2 and c.keywords @@ (select q from query)
  group by c.seq, f.short_term
  order by score desc, c.path, c.start_line
  limit $3`;

export function createPgNotes(sql: Sql): NotesPort {
  const putFile = async (workspace: string, file: NoteFileRecord) => {
    await sql.run(
      `insert into note_files(workspace, path, sha256, size, mtime_ms, embedder, short_term, indexed_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8)
       on conflict (workspace, path) do update set sha256 = excluded.sha256, size = excluded.size,
         mtime_ms = excluded.mtime_ms, embedder = excluded.embedder, short_term = excluded.short_term,
         indexed_at = excluded.indexed_at`,
      [
        workspace,
        file.path,
        file.sha256,
        file.size,
        file.mtimeMs,
        file.embedder,
        file.shortTerm,
        file.indexedAt,
      ],
    );
  };

  /** The chunks in one statement, each with its keyword vector and length computed by the server. */
  const insertChunks = async (workspace: string, path: string, chunks: readonly NoteChunkRecord[]) => {
    if (chunks.length === 0) return;
    await sql.run(
      `insert into note_chunks(workspace, path, start_line, end_line, text, embedding, keywords, keyword_length)
       select $1, $2, c.start_line, c.end_line, c.text, c.embedding::vector, keyword_vector(c.text), keyword_words(c.text)
       from unnest($3::integer[], $4::integer[], $5::text[], $6::text[]) as c(start_line, end_line, text, embedding)`,
      [
        workspace,
        path,
        chunks.map((chunk) => chunk.startLine),
        chunks.map((chunk) => chunk.endLine),
        chunks.map((chunk) => chunk.text),
        chunks.map((chunk) => vectorLiteral(chunk.embedding)),
      ],
    );
  };

  return {
    async listNoteFiles(workspace) {
      const rows = await sql.rows<NoteFileRow>(
        `select path, sha256, size, mtime_ms, embedder, short_term, indexed_at
         from note_files where workspace = $1 order by path`,
        [workspace],
      );
      return rows.map(toNoteFile);
    },

    async replaceNoteFile(workspace, file, chunks) {
      await sql.run("delete from note_chunks where workspace = $1 and path = $2", [workspace, file.path]);
      await putFile(workspace, file);
      await insertChunks(workspace, file.path, chunks);
    },

    async putNoteFile(workspace, file) {
      await putFile(workspace, file);
    },

    async deleteNoteFiles(workspace, paths) {
      if (paths.length === 0) return;
      await sql.run("delete from note_chunks where workspace = $1 and path = any($2::text[])", [
        workspace,
        paths,
      ]);
      await sql.run("delete from note_files where workspace = $1 and path = any($2::text[])", [
        workspace,
        paths,
      ]);
    },

    async searchNotesDense(workspace, vector, k) {
      if (k <= 0) return [];
      const rows = await sql.rows<NoteHitRow & { distance: number }>(
        `select ${CHUNK_COLUMNS}, c.embedding <=> $1::vector as distance
         from note_chunks c join note_files f on f.workspace = c.workspace and f.path = c.path
         where c.workspace = $2 order by distance, c.path, c.start_line limit $3`,
        [vectorLiteral(vector), workspace, k],
      );
      return rows.map((row): NoteDenseHit => ({ ...toNoteHit(row), similarity: 1 - row.distance }));
    },

    async searchNotesKeyword(workspace, terms, k) {
      const words = terms.filter((term) => term.length > 0);
      if (words.length === 0 || k <= 0) return [];
      const rows = await sql.rows<NoteHitRow & { score: number }>(KEYWORD_SEARCH, [words, workspace, k]);
      return rows.map((row): NoteKeywordHit => ({ ...toNoteHit(row), bm25: row.score }));
    },
  };
}
