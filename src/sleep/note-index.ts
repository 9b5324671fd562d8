/**
 * Indexing a workspace's notes: `MEMORY.md` and every Markdown file under `memory/` are chunked
 * (`note-chunks.ts`), embedded and kept in the store's notes index, so a search can find them by
 * meaning and by keyword. Incremental: a file whose size and modification time are as indexed is
 * not even read; one whose bytes hash as indexed is not chunked or embedded again; a file that is
 * gone leaves the index. Re-indexing happens on each search, so an agent's edits are found at once.
 *
 * Machine state (`memory/.dreams/`) and hidden folders are not notes. Symbolic links are followed,
 * as an editor would, while they stay inside the workspace: a note or folder that links outside it
 * is left out, and the report says so (`confined-path.ts`).
 *
 * @module
 */

import { createHash } from "node:crypto";
import { readdir, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { MemoryContext } from "../core/context.js";
import { embedTexts } from "../core/embed-texts.js";
import { secretsGuardOf } from "../core/secrets-guard.js";
import type { NoteChunkRecord, NoteFileRecord } from "../store/ports/notes.js";
import { OUTSIDE_WORKSPACE, readWorkspaceBytes, realRoot, resolveInWorkspace } from "./confined-path.js";
import { chunkNote } from "./note-chunks.js";
import { isShortTermPath } from "./note-paths.js";
import { redactNote } from "./redact-note.js";

/** A larger file is not a note someone keeps by hand; it is left out, and said so. */
export const MAX_NOTE_BYTES = 1024 * 1024;

export interface IndexReport {
  /** Notes in the workspace. */
  readonly files: number;
  /** Files chunked and embedded this time. */
  readonly indexed: number;
  /** Files that left the index (deleted or moved away). */
  readonly removed: number;
  readonly chunks: number;
  /** Files left out, and why: over {@link MAX_NOTE_BYTES}, or linked outside the workspace. */
  readonly skipped: readonly LeftOut[];
}

/** A note (or a folder of them, its path ending in `/`) the index leaves out, and why. */
export interface LeftOut {
  readonly path: string;
  readonly reason: string;
}

/** The curated files at the workspace's root, as OpenClaw reads them. */
const ROOT_NOTES = ["MEMORY.md", "memory.md"];

/**
 * @example
 * await indexWorkspace(context, "/home/ana/.openclaw/workspace");
 * // => { files: 38, indexed: 1, removed: 0, chunks: 9, skipped: [] }
 */
export async function indexWorkspace(context: MemoryContext, workspace: string): Promise<IndexReport> {
  const root = await realRoot(workspace);
  const listing = await listNotes(workspace);
  const found = listing.notes;
  const known = new Map((await context.store.listNoteFiles(workspace)).map((file) => [file.path, file]));
  const embedder = `${context.embedderStamp.id}:${context.embedderStamp.dimension}`;
  const skipped = leftOutOf(listing);
  const scanner = secretsGuardOf(context).scanner;
  let indexed = 0;
  let chunkCount = 0;
  for (const note of found) {
    const before = known.get(note.path);
    if (note.size > MAX_NOTE_BYTES) continue;
    const current = before?.embedder === embedder;
    if (current && before.size === note.size && before.mtimeMs === note.mtimeMs) continue;
    const read = await readWorkspaceBytes(workspace, note.path, root);
    if (read === null) continue; // Gone (or linked away) since the listing: the next search sees it.
    const bytes = Buffer.from(read.buffer, read.byteOffset, read.byteLength);
    const record: NoteFileRecord = {
      path: note.path,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      size: bytes.byteLength,
      mtimeMs: note.mtimeMs,
      embedder,
      shortTerm: isShortTermPath(note.path),
      indexedAt: context.clock.now().toISOString(),
    };
    if (current && before.sha256 === record.sha256) {
      await context.store.putNoteFile(workspace, record);
      continue;
    }
    // The index is a copy of the note, and the store is no place for a key: chunks are kept (and
    // embedded, and returned by search) with every credential redacted.
    const chunks = chunkNote(redactNote(bytes.toString("utf8"), scanner)).filter(
      (chunk) => !isReportDetail(note.path, chunk.text),
    );
    const vectors = await embedTexts(
      context,
      chunks.map((chunk) => chunk.text),
      "add",
    );
    const rows: NoteChunkRecord[] = chunks.map((chunk, index) => ({
      ...chunk,
      embedding: vectors[index] as Float32Array,
    }));
    await context.store.replaceNoteFile(workspace, record, rows);
    indexed++;
    chunkCount += rows.length;
  }
  const present = new Set(found.map((note) => note.path));
  const gone = [...known.keys()].filter((path) => !present.has(path));
  if (gone.length > 0) await context.store.deleteNoteFiles(workspace, gone);
  return { files: found.length, indexed, removed: gone.length, chunks: chunkCount, skipped };
}

/** `confidence: 0.62`, `evidence: memory/…`, `recalls: 4`, `status: staged`, `note: reflection`. */
const REPORT_DETAIL = /^(?:confidence|evidence|recalls|status|note):\s/u;

/**
 * A line of detail under a candidate or a theme in one of sleep's own reports (`memory/dreaming/`):
 * searchable there is the candidate, not each of its five detail lines — a light report of 100
 * candidates would otherwise be 500 chunks to embed every night.
 */
function isReportDetail(path: string, text: string): boolean {
  return path.startsWith("memory/dreaming/") && REPORT_DETAIL.test(text.split(" > ").at(-1) ?? "");
}

export interface FoundNote {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
}

export interface NoteListing {
  /** The workspace's notes, by workspace-relative path with `/` separators, sorted. */
  readonly notes: readonly FoundNote[];
  /** Notes and folders of notes whose links lead out of the workspace: not walked, not read. */
  readonly refused: readonly LeftOut[];
}

/**
 * The workspace's notes as the index sees them, from their sizes and times alone (nothing is read).
 *
 * @example
 * await listNotes("/home/ana/notes");
 * // => { notes: [{ path: "MEMORY.md", … }, …], refused: [{ path: "memory/2026-11-04.md", reason: "links outside the workspace" }] }
 */
export async function listNotes(workspace: string): Promise<NoteListing> {
  const walk: Walk = { workspace, root: await realRoot(workspace), found: [], refused: [], seen: new Set() };
  for (const name of ROOT_NOTES) {
    const where = await resolveInWorkspace(workspace, name, walk.root);
    if (where.kind === "outside") {
      // On a case-insensitive disk MEMORY.md and memory.md are one link: name it once.
      if (!walk.refused.some((each) => each.path.toLowerCase() === name.toLowerCase()))
        walk.refused.push({ path: name, reason: OUTSIDE_WORKSPACE });
      continue;
    }
    const info = where.kind === "inside" ? await stat(where.real).catch(() => undefined) : undefined;
    // On a case-insensitive disk MEMORY.md and memory.md are one file: keep it once.
    if (
      info?.isFile() &&
      !walk.found.some((note) => note.size === info.size && note.mtimeMs === info.mtimeMs)
    )
      walk.found.push({ path: name, size: info.size, mtimeMs: info.mtimeMs });
  }
  const memory = join(workspace, "memory");
  if ((await resolveInWorkspace(workspace, memory, walk.root)).kind === "outside")
    walk.refused.push({ path: "memory/", reason: OUTSIDE_WORKSPACE });
  else await walkFolder(walk, memory);
  const byPath = (a: { path: string }, b: { path: string }) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
  return { notes: walk.found.sort(byPath), refused: walk.refused.sort(byPath) };
}

/** What the index leaves out of a listing, and why: links out of the workspace, then files too large. */
export function leftOutOf(listing: NoteListing): LeftOut[] {
  return [
    ...listing.refused,
    ...listing.notes
      .filter((note) => note.size > MAX_NOTE_BYTES)
      .map((note) => ({ path: note.path, reason: `larger than ${MAX_NOTE_BYTES} bytes` })),
  ];
}

/** One listing's state: the workspace as given and resolved, what was found and refused, the folders walked. */
interface Walk {
  readonly workspace: string;
  readonly root: string;
  readonly found: FoundNote[];
  readonly refused: LeftOut[];
  readonly seen: Set<string>;
}

/** Walks a folder whose real path is inside the workspace: only its links need resolving. */
async function walkFolder(walk: Walk, dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info === undefined || !info.isDirectory()) return;
  // A folder linked into itself would be walked forever: each real folder is walked once.
  const identity = `${info.dev}:${info.ino}`;
  if (walk.seen.has(identity)) return;
  walk.seen.add(identity);
  const names = (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter(
    (entry) => !entry.name.startsWith("."),
  );
  // Every search checks every note's size and time: one stat after another costs ~25 ms on a year
  // of notes, all of a folder's at once ~5 ms (the thread pool runs them side by side). An entry
  // that is no link is where its folder is, inside; only a link is resolved.
  const entries = await Promise.all(
    names.map(async (entry) => {
      const full = join(dir, entry.name);
      const [info, where] = await Promise.all([
        stat(full).catch(() => undefined),
        entry.isSymbolicLink() ? resolveInWorkspace(walk.workspace, full, walk.root) : undefined,
      ]);
      return { name: entry.name, full, info, outside: where?.kind === "outside" };
    }),
  );
  for (const { name, full, info: entry, outside } of entries) {
    if (entry === undefined) continue;
    const note = entry.isFile() && name.toLowerCase().endsWith(".md");
    if (outside) {
      if (entry.isDirectory() || note)
        walk.refused.push({
          path: `${workspacePath(walk.workspace, full)}${entry.isDirectory() ? "/" : ""}`,
          reason: OUTSIDE_WORKSPACE,
        });
    } else if (entry.isDirectory()) await walkFolder(walk, full);
    else if (note)
      walk.found.push({
        path: workspacePath(walk.workspace, full),
        size: entry.size,
        mtimeMs: entry.mtimeMs,
      });
  }
}

function workspacePath(workspace: string, full: string): string {
  return relative(workspace, full).split(sep).join("/");
}
