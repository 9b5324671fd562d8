/**
 * Reading a range of a note by its address (`memory/2026-11-04.md#L3-L5`, `MEMORY.md#L7`): what
 * MCP `memory_get` returns for a note hit. Only notes of the workspace can be read — a Markdown
 * file named relative to it, never an absolute path or one that climbs out with `..`, nor one whose
 * symbolic links lead out of it (`confined-path.ts`).
 *
 * @module
 */

import { LucidError } from "../errors.js";
import { readInWorkspace } from "./confined-path.js";
import { normaliseNotePath } from "./note-paths.js";
import { noteAddress } from "./recall-keys.js";

export interface NoteAddress {
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
}

/** A range with its address as people and citations write it: `path#Lstart-Lend`. */
export interface AddressedRange extends NoteAddress {
  readonly address: string;
}

export interface NoteRange extends AddressedRange {
  /** The lines as the file has them, joined by `\n`. */
  readonly text: string;
  /** Lines in the whole file. */
  readonly lineCount: number;
}

const ADDRESS = /^(.+?)#L(\d+)(?:-L?(\d+))?$/u;
const RECALL_KEY = /^memory:(.+):(\d+):(\d+)$/u;

/**
 * `path#Lx-Ly`, `path#Lx` or a recall key (`memory:path:x:y`) as a path and lines; undefined when
 * the text is none of these.
 *
 * @example
 * parseNoteAddress("memory/2026-11-04.md#L3-L5"); // => { path: "memory/2026-11-04.md", startLine: 3, endLine: 5 }
 */
export function parseNoteAddress(text: string): NoteAddress | undefined {
  const match = ADDRESS.exec(text.trim()) ?? RECALL_KEY.exec(text.trim());
  if (match === null) return undefined;
  const startLine = Number(match[2]);
  const endLine = match[3] === undefined ? startLine : Number(match[3]);
  if (!(startLine >= 1 && endLine >= startLine)) return undefined;
  return { path: normaliseNotePath(match[1] ?? ""), startLine, endLine };
}

/**
 * @throws LucidError `INVALID_ARGUMENT` for an address outside the workspace's notes, `NOTE_NOT_FOUND`
 * when the file or the lines are not there, or the file links outside the workspace
 * (`details.reason: "outside-workspace"`; where it leads is not said).
 */
export async function readNoteRange(workspace: string, address: string): Promise<NoteRange> {
  const parsed = parseNoteAddress(address);
  if (parsed === undefined) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `A note address is path#Lstart-Lend (memory/2026-11-04.md#L3-L5), got ${JSON.stringify(address)}.`,
    );
  }
  const { path, startLine, endLine } = parsed;
  if (
    path.startsWith("/") ||
    /^[a-z]:/iu.test(path) ||
    path.split("/").includes("..") ||
    !/\.md$/iu.test(path)
  ) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `Only the workspace's Markdown notes can be read, by a path relative to it; ${JSON.stringify(path)} is not one.`,
    );
  }
  const read = await readInWorkspace(workspace, path);
  if (read.kind === "outside") {
    throw new LucidError(
      "NOTE_NOT_FOUND",
      `${path} links outside the workspace ${workspace}; sleep reads only the workspace's own files. Replace the link with the file to read it.`,
      { details: { path, workspace, reason: "outside-workspace" } },
    );
  }
  const bytes = read.kind === "file" ? read.bytes : null;
  if (bytes === null) {
    throw new LucidError("NOTE_NOT_FOUND", `No note ${path} in ${workspace}.`, {
      details: { path, workspace },
    });
  }
  const lines = Buffer.from(bytes).toString("utf8").replace(/\r\n?/gu, "\n").split("\n");
  if (endLine > lines.length) {
    throw new LucidError(
      "NOTE_NOT_FOUND",
      `${path} has ${lines.length} lines; lines ${startLine}-${endLine} are not there.`,
      { details: { path, workspace, lineCount: lines.length } },
    );
  }
  return {
    path,
    startLine,
    endLine,
    address: noteAddress(path, startLine, endLine),
    text: lines.slice(startLine - 1, endLine).join("\n"),
    lineCount: lines.length,
  };
}
