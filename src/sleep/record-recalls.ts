/**
 * Recording recall signals: the hits one search returned on a workspace's notes become evidence of
 * use for sleep's deep phase (`openclaw-dreaming.md` §4). Only short-term notes count; the snippet is
 * the text of the hit's lines in the file (or the text the search returned), with every credential
 * redacted — a recall record is a copy of a note, and the store is no place for a key — and a
 * contaminated snippet is never stored, nor a hit on a note that links outside the workspace
 * (`confined-path.ts`). One search is one transaction: its hits are all recorded or none are.
 *
 * @module
 */

import { isAbsolute, resolve } from "node:path";
import type { MemoryContext } from "../core/context.js";
import { secretsGuardOf } from "../core/secrets-guard.js";
import { LucidError } from "../errors.js";
import type { SecretScanner } from "../secrets/types.js";
import type { StoredRecall } from "../store/ports/recalls.js";
import { calendarDay } from "../text/expiry-date.js";
import { readWorkspaceBytes, realRoot, resolveInWorkspace } from "./confined-path.js";
import type { Contamination } from "./contamination.js";
import { isShortTermPath, normaliseNotePath } from "./note-paths.js";
import { applyHit, type RecallEntry, type RecallHit, type Signal, type SignalType } from "./recall-entry.js";
import { recallKey } from "./recall-keys.js";
import { redactNote } from "./redact-note.js";

/**
 * Records kept per workspace; past it, the least recently recalled go first (OpenClaw's cap, which
 * evicts the oldest), those with only daily sightings before the rest (`storedRecall`). Recency rather than strength: an order by signal count freezes the store on
 * old ranges and evicts each new range as soon as it is recorded, so nothing new could ever
 * accumulate the signals promotion needs.
 */
export const MAX_RECALL_ENTRIES = 512;

export interface RecallHitInput {
  /** Workspace-relative path of the note. */
  readonly path: string;
  /** 1-based, inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  readonly score: number;
  /** The text the search returned; read from the file's lines when absent. */
  readonly snippet?: string;
}

export interface RecordOptions {
  /** The workspace directory. */
  readonly workspace: string;
  readonly query: string;
  /** When the search ran (ISO); default now. */
  readonly at?: string;
  /** The zone whose calendar day the signal counts for; default the context's. */
  readonly timeZone?: string;
  /** Default `recall`: a search someone made. */
  readonly type?: SignalType;
  /** Notes already read, by path; a replay of many searches passes one so each file is read once. */
  readonly lines?: NoteLines;
}

/** Each note's lines, read once: a file that cannot be read is `undefined`. */
export type NoteLines = Map<string, Promise<string[] | undefined>>;

/**
 * `over-cap`: one search named more distinct ranges than a workspace keeps; the rest were not
 * recorded. `outside-workspace`: the note's links lead out of the workspace.
 */
export type SkipReason =
  | "not-short-term"
  | "missing-lines"
  | "over-cap"
  | "outside-workspace"
  | Contamination;

export interface RecordResult {
  readonly recorded: number;
  /** Older records this search's new ones pushed past the cap, deleted. */
  readonly evicted: number;
  readonly skipped: readonly {
    readonly path: string;
    readonly startLine: number;
    readonly endLine: number;
    readonly reason: SkipReason;
  }[];
}

/** One search of a batch: its query, when it ran (ISO; default now) and its hits. */
export interface SearchToRecord {
  readonly query: string;
  readonly at?: string;
  readonly hits: readonly RecallHitInput[];
  /** The day the signal counts for, when it is not the day of `at` (daily ingestion: the note's day). */
  readonly day?: string;
  /** A query already seen on that day counts nothing again. */
  readonly dedupeByQueryPerDay?: boolean;
}

type Skip = RecordResult["skipped"][number];

/** A search read and checked, before the store is touched. */
interface Prepared {
  readonly signal: Signal;
  readonly ready: readonly { readonly hit: RecallHit; readonly key: string }[];
  readonly keys: readonly string[];
  readonly skipped: Skip[];
}

/**
 * @example
 * await recordRecalls(context, { workspace: "/home/ana/notes", query: "where do we stay in Kyoto?" }, [
 *   { path: "memory/2026-11-04.md", startLine: 3, endLine: 3, score: 0.91 },
 * ]);
 * // => { recorded: 1, evicted: 0, skipped: [] }
 */
export async function recordRecalls(
  context: MemoryContext,
  options: RecordOptions,
  hits: readonly RecallHitInput[],
): Promise<RecordResult> {
  const { query, at, ...batch } = options;
  const [result] = await recordSearches(context, batch, [
    { query, hits, ...(at === undefined ? {} : { at }) },
  ]);
  return result as RecordResult;
}

/**
 * Records many searches in one transaction, in order, each as `recordRecalls` would: a replay of
 * a log pays one commit per batch instead of one per search. All are recorded or none are.
 *
 * @throws LucidError `INVALID_ARGUMENT` when a search's time has no offset (before anything is written).
 */
export async function recordSearches(
  context: MemoryContext,
  options: Omit<RecordOptions, "query" | "at">,
  searches: readonly SearchToRecord[],
): Promise<RecordResult[]> {
  const workspace = resolve(options.workspace);
  const files: NoteLines = options.lines ?? new Map();
  const notes: Notes = { workspace, root: await realRoot(workspace), files, outside: new Map() };
  const prepared: Prepared[] = [];
  for (const search of searches) prepared.push(await prepare(context, notes, options, search));
  const results = prepared.map((search) => ({ recorded: 0, evicted: 0, skipped: search.skipped }));
  if (prepared.every((search) => search.ready.length === 0)) return results;

  await context.store.transaction(async (tx) => {
    for (const [index, search] of prepared.entries()) {
      if (search.ready.length === 0) continue;
      const result = results[index] as (typeof results)[number];
      const stored = new Map(
        (await tx.getRecalls(workspace, search.keys)).map((record) => [record.key, entryOf(record)]),
      );
      const changed = new Map<string, RecallEntry>();
      for (const { hit, key } of search.ready) {
        const update = applyHit(changed.get(key) ?? stored.get(key), hit, search.signal);
        if (!update.recorded) {
          const { path, startLine, endLine } = hit;
          result.skipped.push({ path, startLine, endLine, reason: update.reason });
          continue;
        }
        changed.set(key, update.entry);
        result.recorded++;
      }
      // Only what this search changed is written: a refused hit leaves its record as it was.
      const at = search.signal.at;
      await tx.putRecalls(
        workspace,
        [...changed.values()].map((entry) => storedRecall(entry, at)),
      );
      // Only a search that added a record can take the workspace past the cap, and what it just
      // wrote is never what makes room: the count it reports stays true.
      if ([...changed.keys()].some((key) => !stored.has(key))) {
        result.evicted = await tx.trimRecalls(workspace, MAX_RECALL_ENTRIES, [...changed.keys()]);
      }
    }
  });
  return results;
}

/** The notes one batch reads: their lines, and whether each links outside the workspace, each found once. */
interface Notes {
  readonly workspace: string;
  /** The workspace's real directory. */
  readonly root: string;
  readonly files: NoteLines;
  readonly outside: Map<string, Promise<boolean>>;
}

/** A search's signal and its hits, each one either ready to record (text redacted) or skipped with why. */
async function prepare(
  context: MemoryContext,
  notes: Notes,
  options: Omit<RecordOptions, "query" | "at">,
  search: SearchToRecord,
): Promise<Prepared> {
  const at = search.at === undefined ? context.clock.now().toISOString() : checkInstant(search.at);
  const day = search.day ?? calendarDay(Date.parse(at), options.timeZone ?? context.timeZone);
  const signal: Signal = {
    type: options.type ?? "recall",
    query: search.query,
    at,
    day,
    ...(search.dedupeByQueryPerDay === true ? { dedupeByQueryPerDay: true } : {}),
  };
  const scanner = secretsGuardOf(context).scanner;
  const skipped: Skip[] = [];
  const ready: { hit: RecallHit; key: string }[] = [];
  const keys = new Set<string>();
  // The notes are read (and resolved) side by side, not one after another.
  for (const given of search.hits) {
    const path = normaliseNotePath(given.path);
    linksOut(notes, path);
    if (given.snippet === undefined) noteLines(notes, path, scanner);
  }
  for (const given of search.hits) {
    const path = normaliseNotePath(given.path);
    const where = { path, startLine: given.startLine, endLine: given.endLine };
    if (!isShortTermPath(path) || isAbsolute(path)) {
      skipped.push({ ...where, reason: "not-short-term" });
      continue;
    }
    // Even a hit whose text came with it (a replayed log, OpenClaw's search, which follows links
    // anywhere) is of a note sleep will not read: it is no evidence of this workspace.
    if (await linksOut(notes, path)) {
      skipped.push({ ...where, reason: "outside-workspace" });
      continue;
    }
    const key = recallKey(path, given.startLine, given.endLine);
    if (!keys.has(key) && keys.size >= MAX_RECALL_ENTRIES) {
      skipped.push({ ...where, reason: "over-cap" });
      continue;
    }
    const text = given.snippet ?? (await linesOf(notes, scanner, path, given.startLine, given.endLine));
    if (text === undefined) {
      skipped.push({ ...where, reason: "missing-lines" });
      continue;
    }
    keys.add(key);
    ready.push({ hit: { ...where, score: given.score, snippet: scanner.redact(text).text }, key });
  }
  return { signal, ready, keys: [...keys], skipped };
}

/**
 * Sets fields of stored records — sleep's own marks (phase signals, `promotedAt`) — on the records
 * as they are now, read in the same transaction: a search that recorded a recall since the caller
 * read the entries keeps its count. A key no longer stored is left out.
 */
export async function patchRecalls(
  tx: Pick<MemoryContext["store"], "getRecalls" | "putRecalls">,
  workspace: string,
  patches: ReadonlyMap<string, Partial<RecallEntry>>,
  updatedAt: string,
): Promise<RecallEntry[]> {
  if (patches.size === 0) return [];
  const current = (await tx.getRecalls(workspace, [...patches.keys()])).flatMap(
    (record) => entryOf(record) ?? [],
  );
  const patched = current.map((entry) => ({ ...entry, ...patches.get(entry.key) }));
  await tx.putRecalls(
    workspace,
    patched.map((entry) => storedRecall(entry, updatedAt)),
  );
  return patched;
}

/**
 * An entry as the store keeps it, written at `updatedAt`. A range only the light phase's daily
 * ingestion has seen goes before any that someone searched for (or a backfill grounded): one sweep
 * ingests hundreds of ranges at once, and they must not push out the evidence of use.
 */
export function storedRecall(entry: RecallEntry, updatedAt: string): StoredRecall {
  return {
    key: entry.key,
    entry: { ...entry },
    updatedAt,
    recalledAt: entry.lastRecalledAt,
    priority: entry.recallCount + entry.groundedCount > 0 ? 1 : 0,
  };
}

/** The workspace's recall entries, as the deep phase ranks them; a malformed record is left out. */
export async function workspaceRecalls(context: MemoryContext, workspace: string): Promise<RecallEntry[]> {
  const records = await context.store.listRecalls(resolve(workspace));
  return records.flatMap((record) => entryOf(record) ?? []);
}

/** The text of lines `start`–`end` (1-based, inclusive) of a note, or undefined when they are not there. */
async function linesOf(
  notes: Notes,
  scanner: SecretScanner,
  path: string,
  start: number,
  end: number,
): Promise<string | undefined> {
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 1 || end < start) return undefined;
  const all = await noteLines(notes, path, scanner);
  if (all === undefined || end > all.length) return undefined;
  return all.slice(start - 1, end).join("\n");
}

/**
 * A note's lines, read once per `notes.files`. A path that is not a short-term note is never read,
 * nor one that links outside the workspace (its lines are not there).
 */
function noteLines(notes: Notes, path: string, scanner: SecretScanner): Promise<string[] | undefined> {
  let lines = notes.files.get(path);
  if (lines === undefined) {
    lines =
      !isShortTermPath(path) || isAbsolute(path)
        ? Promise.resolve(undefined)
        : readWorkspaceBytes(notes.workspace, path, notes.root).then(
            // Redacted whole: a key across several lines is found only in the whole note.
            (bytes) =>
              bytes === null
                ? undefined
                : redactNote(Buffer.from(bytes).toString("utf8"), scanner)
                    .replace(/\r\n?/gu, "\n")
                    .split("\n"),
            () => undefined,
          );
    notes.files.set(path, lines);
  }
  return lines;
}

/** Whether a note's links lead out of the workspace, found once per batch. */
function linksOut(notes: Notes, path: string): Promise<boolean> {
  let outside = notes.outside.get(path);
  if (outside === undefined) {
    outside =
      !isShortTermPath(path) || isAbsolute(path)
        ? Promise.resolve(false)
        : resolveInWorkspace(notes.workspace, path, notes.root).then((where) => where.kind === "outside");
    notes.outside.set(path, outside);
  }
  return outside;
}

/** A stored record as an entry, checked: the fields ranking reads must be there. */
function entryOf(record: StoredRecall): RecallEntry | undefined {
  const entry = record.entry as Partial<RecallEntry>;
  const numbers = [
    entry.startLine,
    entry.endLine,
    entry.recallCount,
    entry.dailyCount,
    entry.groundedCount,
    entry.totalScore,
    entry.maxScore,
  ];
  const lists = [entry.queryHashes, entry.userQueryHashes, entry.recallDays];
  if (
    entry.key !== record.key ||
    typeof entry.path !== "string" ||
    typeof entry.snippet !== "string" ||
    typeof entry.lastRecalledAt !== "string" ||
    typeof entry.firstRecalledAt !== "string" ||
    !numbers.every((value) => typeof value === "number" && Number.isFinite(value)) ||
    !lists.every((list) => Array.isArray(list) && list.every((item) => typeof item === "string"))
  ) {
    return undefined;
  }
  return entry as RecallEntry;
}

function checkInstant(at: string): string {
  const time = Date.parse(at);
  if (Number.isNaN(time) || !/(?:Z|[+-]\d{2}:?\d{2})$/iu.test(at)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `A recall's time must be an ISO timestamp with its offset, got ${JSON.stringify(at)}.`,
    );
  }
  return new Date(time).toISOString();
}
