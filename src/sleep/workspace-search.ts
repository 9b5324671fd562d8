/**
 * Searching a workspace's notes, and recording what was found: the hits on short-term notes are
 * sleep's recall signals (`openclaw-dreaming.md` §4). The notes are re-indexed first (incrementally,
 * `note-index.ts`), so an edit made a second ago is found.
 *
 * A hit's score is OpenClaw's hybrid blend, 0.7 of the cosine similarity and 0.3 of the keyword
 * score (BM25 through Mem0's sigmoid, `search/fuse.ts`), over the union of the dense and keyword
 * top candidates. Recording is bounded (the hits returned, one transaction) and never fails the
 * search: a recording error is a process warning, and the hits come back all the same.
 *
 * @module
 */

import { resolve } from "node:path";
import type { MemoryContext } from "../core/context.js";
import { embedTexts } from "../core/embed-texts.js";
import { checkText, checkUnitInterval } from "../core/inputs.js";
import { warnOnce } from "../core/warn-once.js";
import { LucidError } from "../errors.js";
import { normaliseBm25 } from "../search/fuse.js";
import type { NoteHit } from "../store/ports/notes.js";
import { keywordTerms } from "../text/keywords.js";
import { indexWorkspace } from "./note-index.js";
import type { AddressedRange } from "./note-range.js";
import { noteAddress } from "./recall-keys.js";
import { type RecordResult, recordRecalls } from "./record-recalls.js";

/** OpenClaw's `memorySearch` defaults: six results, a least score of 0.35, 0.7 vector and 0.3 text. */
export const NOTE_SEARCH_DEFAULTS = Object.freeze({ topK: 6, threshold: 0.35 });
const VECTOR_WEIGHT = 0.7;
const TEXT_WEIGHT = 0.3;
/** Candidates each generator fetches. */
const CANDIDATES = 50;

export interface NoteSearchOptions {
  /** Hits returned at most. Default 6. */
  readonly topK?: number;
  /** Least score. Default 0.35. */
  readonly threshold?: number;
  /** Record the short-term hits as recall signals. Default true. */
  readonly record?: boolean;
  /** When the search ran (ISO), for the recall signals; default now. */
  readonly at?: string;
  readonly timeZone?: string;
}

/** A range of a note a search returned. */
export interface NoteResult extends AddressedRange {
  readonly snippet: string;
  readonly score: number;
  /** A dated daily note: a recall of it counts toward promotion. */
  readonly shortTerm: boolean;
}

export interface NoteSearchResult {
  readonly notes: NoteResult[];
  /** How many short-term hits became recall signals (0 when recording was off or failed). */
  readonly recorded: number;
}

/**
 * @example
 * await searchNotes(context, "/home/ana/notes", "where do we stay in Kyoto?");
 * // => { notes: [{ address: "memory/2026-11-04.md#L3-L3", snippet: "Travel: book the ryokan…", score: 0.81, … }], recorded: 1 }
 */
export async function searchNotes(
  context: MemoryContext,
  workspace: string,
  query: string,
  options: NoteSearchOptions = {},
): Promise<NoteSearchResult> {
  const text = checkText(query, context.maxTextBytes);
  const topK = checkCount(options.topK ?? NOTE_SEARCH_DEFAULTS.topK, "topK");
  const threshold = checkUnitInterval(options.threshold ?? NOTE_SEARCH_DEFAULTS.threshold, "threshold");
  const root = resolve(workspace);
  await indexWorkspace(context, root);
  if (topK === 0) return { notes: [], recorded: 0 };

  const terms = keywordTerms(text);
  const [vector] = await embedTexts(context, [text], "search");
  const [dense, keyword] = await Promise.all([
    context.store.searchNotesDense(root, vector as Float32Array, CANDIDATES),
    context.store.searchNotesKeyword(root, terms, CANDIDATES),
  ]);
  const scored = new Map<string, { hit: NoteHit; semantic: number; bm25: number }>();
  const keyOf = (hit: NoteHit) => `${hit.path}\u0000${hit.startLine}\u0000${hit.endLine}`;
  for (const hit of dense) scored.set(keyOf(hit), { hit, semantic: Math.max(0, hit.similarity), bm25: 0 });
  for (const hit of keyword) {
    const bm25 = normaliseBm25(hit.bm25, terms.length);
    const known = scored.get(keyOf(hit));
    scored.set(keyOf(hit), { hit, semantic: known?.semantic ?? 0, bm25 });
  }
  // A chunk found by keyword alone was not among the nearest by meaning: its vector part counts 0,
  // so a shared word does not lift an unrelated note over the ones that answer.
  const weights = terms.length > 0 ? { vector: VECTOR_WEIGHT, text: TEXT_WEIGHT } : { vector: 1, text: 0 };
  const notes = [...scored.values()]
    .map(({ hit, semantic, bm25 }) => ({
      path: hit.path,
      startLine: hit.startLine,
      endLine: hit.endLine,
      address: noteAddress(hit.path, hit.startLine, hit.endLine),
      snippet: hit.text,
      score: round(weights.vector * semantic + weights.text * bm25),
      shortTerm: hit.shortTerm,
    }))
    .filter((note) => note.score >= threshold)
    .sort(
      (a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.startLine - b.startLine),
    )
    .slice(0, topK);
  const recorded = options.record === false ? 0 : await recordQuietly(context, root, text, notes, options);
  return { notes, recorded };
}

/** Records the short-term hits; a failure is a warning, never the search's failure. */
async function recordQuietly(
  context: MemoryContext,
  workspace: string,
  query: string,
  notes: readonly NoteResult[],
  options: NoteSearchOptions,
): Promise<number> {
  const hits = notes.filter((note) => note.shortTerm);
  if (hits.length === 0) return 0;
  try {
    const result: RecordResult = await recordRecalls(
      context,
      {
        workspace,
        query,
        ...(options.at === undefined ? {} : { at: options.at }),
        ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
      },
      hits,
    );
    return result.recorded;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    warnOnce(
      `LUCID_RECALL_NOT_RECORDED:${message}`,
      `A search's recall signals were not recorded (the search itself succeeded): ${message}`,
      { code: "LUCID_RECALL_NOT_RECORDED" },
    );
    return 0;
  }
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;

function checkCount(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 100) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `${name} must be an integer from 0 to 100, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}
