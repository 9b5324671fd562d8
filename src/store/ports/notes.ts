/**
 * The notes sub-port: the search index of a workspace's Markdown notes (sleep's short-term memory and
 * the curated files beside it). A file is indexed whole — its digest, the embedder its vectors came
 * from, and its chunks (a line range, the chunk's text, its vector) — and replaced whole, so an
 * unchanged file is never read twice. Searching is per workspace, by keyword (BM25) or by vector.
 *
 * @module
 */

/** One indexed file of a workspace. */
export interface NoteFileRecord {
  /** Workspace-relative, with forward slashes. */
  readonly path: string;
  /** sha256 of the file's bytes when it was indexed. */
  readonly sha256: string;
  /** Its size and modification time then: while both stay, the file is not read again. */
  readonly size: number;
  readonly mtimeMs: number;
  /** The embedder the chunks' vectors came from (`EmbedderStamp` as a string key). */
  readonly embedder: string;
  /** Whether its chunks are short-term notes (a dated daily note) or searchable only. */
  readonly shortTerm: boolean;
  readonly indexedAt: string;
}

export interface NoteChunkRecord {
  /** 1-based, inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  /** What the chunk says, with its heading and list context (`note-chunks.ts`). */
  readonly text: string;
  readonly embedding: Float32Array;
}

/** A chunk a search found. */
export interface NoteHit {
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
  readonly shortTerm: boolean;
}

export interface NoteDenseHit extends NoteHit {
  /** Cosine similarity in [-1, 1]. */
  readonly similarity: number;
}

export interface NoteKeywordHit extends NoteHit {
  /** BM25, higher is better, unbounded. */
  readonly bm25: number;
}

export interface NotesPort {
  /** The workspace's indexed files, by path. */
  listNoteFiles(workspace: string): Promise<NoteFileRecord[]>;
  /** Puts `file` and exactly these chunks in the place of whatever the index held for its path. */
  replaceNoteFile(workspace: string, file: NoteFileRecord, chunks: readonly NoteChunkRecord[]): Promise<void>;
  /** Updates a file's record alone (its bytes are unchanged, its modification time is not). */
  putNoteFile(workspace: string, file: NoteFileRecord): Promise<void>;
  /** Forgets these files and their chunks (files that were deleted or moved). */
  deleteNoteFiles(workspace: string, paths: readonly string[]): Promise<void>;
  /** The `k` chunks nearest `vector`, exactly (a workspace holds thousands of chunks, not millions). */
  searchNotesDense(workspace: string, vector: Float32Array, k: number): Promise<NoteDenseHit[]>;
  /** The `k` chunks with the best BM25 for any of `terms` (OR-ed, stop words already removed). */
  searchNotesKeyword(workspace: string, terms: readonly string[], k: number): Promise<NoteKeywordHit[]>;
}
