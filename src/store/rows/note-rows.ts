/**
 * The notes index's rows — `note_files` and the chunks a search returns — which both backends'
 * tables share column for column: one mapping, so an indexed file and a hit read back identically
 * from SQLite and PostgreSQL. The drivers' types differ, and the shapes take both: `size` is
 * PostgreSQL's int8 (a string) or SQLite's integer, `short_term` a boolean or SQLite's 0 / 1.
 *
 * @module
 */

import type { NoteChunkRecord, NoteFileRecord, NoteHit } from "../ports/notes.js";

export interface NoteFileRow {
  path: string;
  sha256: string;
  size: number | string;
  mtime_ms: number;
  embedder: string;
  short_term: boolean | number;
  indexed_at: string;
}

/** A chunk as a search selects it (`CHUNK_COLUMNS`), with its file's `short_term`. */
export interface NoteHitRow {
  path: string;
  start_line: number;
  end_line: number;
  text: string;
  short_term: boolean | number;
}

export interface NoteChunkRow {
  start_line: number;
  end_line: number;
  text: string;
}

const isShortTerm = (value: boolean | number): boolean => value === true || value === 1;

export function toNoteFile(row: NoteFileRow): NoteFileRecord {
  return {
    path: row.path,
    sha256: row.sha256,
    size: Number(row.size),
    mtimeMs: row.mtime_ms,
    embedder: row.embedder,
    shortTerm: isShortTerm(row.short_term),
    indexedAt: row.indexed_at,
  };
}

export function toNoteHit(row: NoteHitRow): NoteHit {
  return {
    path: row.path,
    startLine: row.start_line,
    endLine: row.end_line,
    text: row.text,
    shortTerm: isShortTerm(row.short_term),
  };
}

/** A chunk with its vector, which each backend decodes from its own column type. */
export function toNoteChunk(row: NoteChunkRow, embedding: Float32Array): NoteChunkRecord {
  return { startLine: row.start_line, endLine: row.end_line, text: row.text, embedding };
}
