/**
 * Indexing a workspace's notes: `MEMORY.md` and every Markdown file under `memory/` are chunked
 * (`note-chunks.ts`), embedded and kept in the store's notes index, so a search can find them by
 * meaning and by keyword. Incremental: a file whose size and modification time are as indexed is
 * not even read; one whose bytes hash as indexed is not chunked or embedded again; a file that is
 * gone leaves the index. Re-indexing happens on each search, so an agent's edits are found at once.
 *
 * Machine state (`memory/.dreams/`) and hidden folders are not notes. Symbolic links are followed,
 * as an editor would.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { MemoryContext } from "../core/context.js";
import { embedTexts } from "../core/embed-texts.js";
import { secretsGuardOf } from "../core/secrets-guard.js";
import type { NoteChunkRecord, NoteFileRecord } from "../store/ports/notes.js";
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
  /** Files left out, and why. */
  readonly skipped: readonly { readonly path: string; readonly reason: string }[];
}

/** The curated files at the workspace's root, as OpenClaw reads them. */
const ROOT_NOTES = ["MEMORY.md", "memory.md"];

/**
 * @example
 * await indexWorkspace(context, "/home/ana/.openclaw/workspace");
 * // => { files: 38, indexed: 1, removed: 0, chunks: 9, skipped: [] }
 */
export async function indexWorkspace(context: MemoryContext, workspace: string): Promise<IndexReport> {
  const found = await noteFiles(workspace);
  const known = new Map((await context.store.listNoteFiles(workspace)).map((file) => [file.path, file]));
  const embedder = `${context.embedderStamp.id}:${context.embedderStamp.dimension}`;
  const skipped: { path: string; reason: string }[] = [];
  const scanner = secretsGuardOf(context).scanner;
  let indexed = 0;
  let chunkCount = 0;
  for (const note of found) {
    const before = known.get(note.path);
    if (note.size > MAX_NOTE_BYTES) {
      skipped.push({ path: note.path, reason: `larger than ${MAX_NOTE_BYTES} bytes` });
      continue;
    }
    const current = before?.embedder === embedder;
    if (current && before.size === note.size && before.mtimeMs === note.mtimeMs) continue;
    const bytes = await readFile(join(workspace, note.path)).catch(() => undefined);
    if (bytes === undefined) continue; // Gone between the listing and now: the next search sees it.
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

interface FoundNote {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
}

/** The workspace's notes, by workspace-relative path with `/` separators. */
async function noteFiles(workspace: string): Promise<FoundNote[]> {
  const found: FoundNote[] = [];
  for (const name of ROOT_NOTES) {
    const info = await stat(join(workspace, name)).catch(() => undefined);
    // On a case-insensitive disk MEMORY.md and memory.md are one file: keep it once.
    if (info?.isFile() && !found.some((note) => note.size === info.size && note.mtimeMs === info.mtimeMs))
      found.push({ path: name, size: info.size, mtimeMs: info.mtimeMs });
  }
  await walk(workspace, join(workspace, "memory"), found, new Set());
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

async function walk(workspace: string, dir: string, found: FoundNote[], seen: Set<string>): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info === undefined || !info.isDirectory()) return;
  // A folder linked into itself would be walked forever: each real folder is walked once.
  const identity = `${info.dev}:${info.ino}`;
  if (seen.has(identity)) return;
  seen.add(identity);
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => !name.startsWith("."));
  // Every search checks every note's size and time: one stat after another costs ~25 ms on a year
  // of notes, all of a folder's at once ~5 ms (the thread pool runs them side by side).
  const entries = await Promise.all(
    names.map(async (name) => {
      const full = join(dir, name);
      return { name, full, info: await stat(full).catch(() => undefined) };
    }),
  );
  for (const { name, full, info: entry } of entries) {
    if (entry === undefined) continue;
    if (entry.isDirectory()) await walk(workspace, full, found, seen);
    else if (entry.isFile() && name.toLowerCase().endsWith(".md"))
      found.push({
        path: relative(workspace, full).split(sep).join("/"),
        size: entry.size,
        mtimeMs: entry.mtimeMs,
      });
  }
}
