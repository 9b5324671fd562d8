/**
 * The notes index in SQLite: `note_files` (one row per indexed file), `note_chunks` (each chunk with
 * its vector as a float32 blob) and `note_chunks_fts` (FTS5 over the chunk texts, rowid = chunk).
 * Dense search is an exact scan of the workspace's chunks with sqlite-vec's cosine distance.
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
import { ftsMatchExpression } from "./sqlite-fts.js";
import type { StatementCache } from "./statement-cache.js";
import type { SyncPort } from "./sync-port.js";

const CHUNK_COLUMNS =
  "c.path as path, c.start_line as start_line, c.end_line as end_line, c.text as text, f.short_term as short_term";

export function createSqliteNotes(statements: StatementCache): SyncPort<NotesPort> {
  const deleteFile = (workspace: string, path: string) => {
    statements
      .get(
        "delete from note_chunks_fts where rowid in (select seq from note_chunks where workspace = ? and path = ?)",
      )
      .run(workspace, path);
    statements.get("delete from note_chunks where workspace = ? and path = ?").run(workspace, path);
    statements.get("delete from note_files where workspace = ? and path = ?").run(workspace, path);
  };

  const putFile = (workspace: string, file: NoteFileRecord) => {
    statements
      .get(
        `insert into note_files(workspace, path, sha256, size, mtime_ms, embedder, short_term, indexed_at)
           values (?, ?, ?, ?, ?, ?, ?, ?)
         on conflict(workspace, path) do update set sha256 = excluded.sha256, size = excluded.size,
           mtime_ms = excluded.mtime_ms, embedder = excluded.embedder, short_term = excluded.short_term,
           indexed_at = excluded.indexed_at`,
      )
      .run(
        workspace,
        file.path,
        file.sha256,
        file.size,
        file.mtimeMs,
        file.embedder,
        file.shortTerm ? 1 : 0,
        file.indexedAt,
      );
  };

  return {
    listNoteFiles(workspace) {
      const rows = statements
        .get(
          "select path, sha256, size, mtime_ms, embedder, short_term, indexed_at from note_files where workspace = ? order by path",
        )
        .all(workspace) as NoteFileRow[];
      return rows.map(toNoteFile);
    },

    replaceNoteFile(workspace, file, chunks: readonly NoteChunkRecord[]) {
      deleteFile(workspace, file.path);
      putFile(workspace, file);
      const insertChunk = statements.get(
        "insert into note_chunks(workspace, path, start_line, end_line, text, embedding) values (?, ?, ?, ?, ?, ?)",
      );
      const insertText = statements.get("insert into note_chunks_fts(rowid, text) values (?, ?)");
      for (const chunk of chunks) {
        const { lastInsertRowid } = insertChunk.run(
          workspace,
          file.path,
          chunk.startLine,
          chunk.endLine,
          chunk.text,
          Buffer.from(chunk.embedding.buffer, chunk.embedding.byteOffset, chunk.embedding.byteLength),
        );
        insertText.run(lastInsertRowid, chunk.text);
      }
    },

    putNoteFile(workspace, file) {
      putFile(workspace, file);
    },

    deleteNoteFiles(workspace, paths) {
      for (const path of paths) deleteFile(workspace, path);
    },

    searchNotesDense(workspace, vector, k) {
      if (k <= 0) return [];
      const rows = statements
        .get(
          `select ${CHUNK_COLUMNS}, vec_distance_cosine(c.embedding, ?) as distance
           from note_chunks c join note_files f on f.workspace = c.workspace and f.path = c.path
           where c.workspace = ? order by distance, c.path, c.start_line limit ?`,
        )
        .all(vector, workspace, k) as (NoteHitRow & { distance: number })[];
      return rows.map((row): NoteDenseHit => ({ ...toNoteHit(row), similarity: 1 - row.distance }));
    },

    searchNotesKeyword(workspace, terms, k) {
      const match = ftsMatchExpression(terms);
      if (match === null || k <= 0) return [];
      // FTS5's bm25() is negated so that ascending order ranks best first.
      const rows = statements
        .get(
          `select ${CHUNK_COLUMNS}, bm25(note_chunks_fts) as rank
           from note_chunks_fts join note_chunks c on c.seq = note_chunks_fts.rowid
           join note_files f on f.workspace = c.workspace and f.path = c.path
           where note_chunks_fts match ? and c.workspace = ? order by rank, c.path, c.start_line limit ?`,
        )
        .all(match, workspace, k) as (NoteHitRow & { rank: number })[];
      return rows.map((row): NoteKeywordHit => ({ ...toNoteHit(row), bm25: -row.rank }));
    },
  };
}
