/**
 * Backfilling the Dream Diary (`lucid sleep backfill --from --to`, OpenClaw's `memory rem-backfill`;
 * `openclaw-dreaming.md` §10, §11): one entry for each past day that has daily notes, told from those
 * notes alone, and a rollback that takes out exactly what the backfills wrote.
 *
 * - A day's notes are its dated files on disk (`memory/2026-03-17.md`, `memory/2026-03-17-standup.md`,
 *   in any folder under `memory/` but `dreaming/`; hidden folders are not notes), indexed or not,
 *   found as the index finds them (`listNotes`: a link out of the workspace is no note).
 * - Its entry is the deterministic one ({@link composeDiaryEntry}) from the notes' snippets, chunked,
 *   redacted and contamination-free. The themes are the concept tags at least two snippets carry,
 *   most carried first; staged are the three snippets carrying the most themes (then the most tags,
 *   then the longest; one holding a redacted credential last), told in note order. Nothing was
 *   promoted on a past day and no phase ran, so there are no truths nor reflections.
 * - Entries carry OpenClaw's marker with `source=lucid`, which always parses back (note paths may hold
 *   spaces or commas) and tells Lucid's entries from OpenClaw's; the notes are cited in the entry and
 *   listed in the result and the record.
 * - A day that already has a backfill entry, Lucid's or OpenClaw's, is skipped: running again writes
 *   nothing new.
 * - What a backfill wrote is recorded in the sleep state (namespace `diary-backfill`, by day): the
 *   source, a hash of the entry and whether a blank line went before it. The diary is written once
 *   per call, atomically, last in the transaction that writes the records and the event, so a diary
 *   that cannot be written leaves no record behind.
 * - A rollback removes the recorded entries only, and only while they are as written: an entry edited
 *   by hand since (or with text typed under it) is kept and reported, and keeps its record, unless
 *   `force` — a rollback must not throw away someone's words, as `rollbackSleep` refuses when
 *   `MEMORY.md` was edited. An entry already gone loses its record. A diary that had its section
 *   before the backfill gets its bytes back; a section the backfill had to create stays, empty.
 *
 * @module
 */

import { rm } from "node:fs/promises";
import { resolve } from "node:path";
import type { MemoryContext } from "../core/context.js";
import { withLease } from "../core/lease.js";
import { secretsGuardOf } from "../core/secrets-guard.js";
import { LucidError } from "../errors.js";
import type { SleepEventInput, SleepStateRecord } from "../store/ports/sleep-state.js";
import { isTimeZone } from "../text/expiry-date.js";
import { conceptTags } from "./concept-tags.js";
import { readWorkspaceBytes, realRoot } from "./confined-path.js";
import { contaminationOf } from "./contamination.js";
import { composeDiaryEntry, ENTRY_LIMITS, type EntryRange } from "./diary-entry.js";
import {
  appendDiaryEntry,
  DIARY_END,
  DIARY_HEADING,
  DIARY_START,
  diaryEntries,
  locateDiary,
  readDiary,
  updateDiary,
} from "./dream-diary.js";
import { markedSpans, splitLines } from "./managed-block.js";
import { sha256 } from "./memory-file.js";
import { chunkNote } from "./note-chunks.js";
import { listNotes, MAX_NOTE_BYTES } from "./note-index.js";
import { shortTermDay } from "./note-paths.js";
import { addDays } from "./recall-window.js";
import { redactNote } from "./redact-note.js";
import { sleepNow } from "./sleep-now.js";
import { sleepLeaseKey } from "./sleep-run.js";

/** Where what each backfill wrote is kept (`SleepStatePort`), by day. */
export const BACKFILL_STATE = "diary-backfill";
/** The `source=` of the entries Lucid writes. */
export const BACKFILL_SOURCE = "lucid";
/** About ten years a run. */
export const MAX_BACKFILL_DAYS = 3660;

export interface BackfillOptions {
  /** First day, `YYYY-MM-DD`. */
  readonly from: string;
  /** Last day, `YYYY-MM-DD`, included. */
  readonly to: string;
  /** IANA zone the workspace's days are in. */
  readonly timeZone: string;
  /** The run's clock (ISO); default now. */
  readonly now?: string;
}

export type BackfillSkipReason = "already-backfilled" | "no-notes" | "nothing-to-tell";

export interface BackfillResult {
  /** The diary's path. */
  readonly diary: string;
  /** Days given an entry, in day order, with the notes it was told from. */
  readonly written: readonly {
    readonly day: string;
    readonly source: string;
    readonly notes: readonly string[];
  }[];
  /** Every other day of the range, in day order. */
  readonly skipped: readonly { readonly day: string; readonly reason: BackfillSkipReason }[];
}

export interface BackfillRollback {
  /** Entries removed. */
  readonly removed: number;
  /** Their days. */
  readonly days: readonly string[];
  /** Recorded entries left in place: changed since they were written. */
  readonly kept: readonly { readonly day: string; readonly reason: "edited" }[];
  /** Recorded entries no longer in the diary: only their records went. */
  readonly missing: readonly string[];
}

/** What the state records of one day's entry. */
interface BackfillRecord {
  readonly source: string;
  readonly notes: readonly string[];
  /** sha256 of the entry as written, line ends and trailing spaces aside. */
  readonly hash: string;
  /** A blank line was put before it, so that `---` would not make the text above a heading. */
  readonly gap: boolean;
  readonly at: string;
}

/**
 * Writes an entry for each day of `[from, to]` that has daily notes and no backfill entry yet.
 *
 * @throws LucidError `INVALID_ARGUMENT` for a bad range, zone or clock; `SLEEP_CONFLICT` when the
 *   diary changed while the run read it; `IO_ERROR` when it cannot be written; `DREAM_LEASE_HELD`
 *   when a sweep holds the workspace.
 * @example
 * await backfillDiary(context, "/home/ana/notes", { from: "2026-03-01", to: "2026-03-31", timeZone: "Europe/Lisbon" });
 * // => { diary: "/home/ana/notes/DREAMS.md", written: [{ day: "2026-03-02", source: "lucid", notes: ["memory/2026-03-02.md"] }, …],
 * //      skipped: [{ day: "2026-03-01", reason: "no-notes" }, …] }
 */
export async function backfillDiary(
  context: MemoryContext,
  workspace: string,
  options: BackfillOptions,
): Promise<BackfillResult> {
  const root = resolve(workspace);
  const days = dayRange(options.from, options.to);
  const { timeZone } = options;
  if (!isTimeZone(timeZone)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `timeZone must be an IANA zone such as "Europe/Lisbon" or "UTC", got ${JSON.stringify(timeZone)}.`,
    );
  }
  const now = sleepNow(context.clock, options.now);
  return withLease(context, await sleepLeaseKey(root), { what: "sleep" }, async () => {
    const notes = await dailyNotes(root, options.from, options.to);
    const before = await readDiary(root);
    const told = new Set(diaryEntries(before).flatMap((entry) => entry.backfillDay ?? []));
    const written: { day: string; source: string; notes: string[] }[] = [];
    const skipped: { day: string; reason: BackfillSkipReason }[] = [];
    const records: SleepStateRecord[] = [];
    let text = before;
    for (const day of days) {
      const paths = notes.get(day) ?? [];
      if (told.has(day)) skipped.push({ day, reason: "already-backfilled" });
      else if (paths.length === 0) skipped.push({ day, reason: "no-notes" });
      else {
        const body = await dayEntry(context, root, day, paths);
        if (body === undefined) {
          skipped.push({ day, reason: "nothing-to-tell" });
          continue;
        }
        const source = BACKFILL_SOURCE;
        const next = appendDiaryEntry(text, { at: now, timeZone, body, backfill: { day, source } }).text;
        const entry = markedEntries(next).entries.find((each) => each.day === day && each.source === source);
        if (entry === undefined)
          throw new LucidError("INTERNAL", `The backfill entry of ${day} did not land.`);
        const gap = next.length - text.length === entry.text.length + 1;
        const value: BackfillRecord = { source, notes: paths, hash: entry.hash, gap, at: now };
        records.push({ key: day, value, updatedAt: now });
        written.push({ day, source, notes: paths });
        text = next;
      }
    }
    const event = backfillEvent(now, {
      phase: "backfill",
      outcome: "completed",
      from: options.from,
      to: options.to,
      written: written.length,
      skipped: skipped.length,
    });
    // The diary as it was before the first backfill that gave it its diary section: a rollback that
    // leaves the section empty gives those bytes back (or removes a file the backfill created).
    const framed = records.length > 0 && !before.includes(DIARY_START);
    const preimage = framed
      ? [{ key: "diary", value: { text: before, existed: (await locateDiary(root)).exists }, updatedAt: now }]
      : [];
    const diary = await context.store.transaction(async (tx) => {
      await tx.putSleepState(root, BACKFILL_STATE, records);
      if ((await tx.getSleepState(root, BACKFILL_PREIMAGE, ["diary"])).length === 0)
        await tx.putSleepState(root, BACKFILL_PREIMAGE, preimage);
      await tx.appendSleepEvents(root, [event]);
      // Last: a diary that cannot be written takes the records and the event back with it.
      return writeOver(root, before, text);
    });
    return { diary, written, skipped };
  });
}

/**
 * Removes the entries Lucid's backfills wrote, as recorded; everything else in the diary stays.
 *
 * @throws LucidError `SLEEP_CONFLICT` when the diary changed while the run read it; `IO_ERROR` when
 *   it cannot be written; `DREAM_LEASE_HELD` when a sweep holds the workspace.
 * @example
 * await rollbackBackfill(context, "/home/ana/notes");
 * // => { removed: 12, days: ["2026-03-02", …], kept: [], missing: [] }
 */
export async function rollbackBackfill(
  context: MemoryContext,
  workspace: string,
  options: { readonly now?: string; readonly force?: boolean } = {},
): Promise<BackfillRollback> {
  const root = resolve(workspace);
  const now = sleepNow(context.clock, options.now);
  return withLease(context, await sleepLeaseKey(root), { what: "sleep" }, async () => {
    const records = await context.store.listSleepState(root, BACKFILL_STATE);
    const before = await readDiary(root);
    const { lines, open, entries } = markedEntries(before);
    const doomed: (MarkedEntry & { gap: boolean })[] = [];
    const days: string[] = [];
    const kept: { day: string; reason: "edited" }[] = [];
    const missing: string[] = [];
    for (const { key: day, value } of records) {
      const record = readRecord(value);
      const mine = entries.filter((entry) => entry.day === day && entry.source === record.source);
      const exact = mine.find((entry) => entry.hash === record.hash);
      const remove = exact !== undefined ? [exact] : options.force === true ? mine : [];
      if (remove.length > 0) {
        doomed.push(...remove.map((entry) => ({ ...entry, gap: record.gap })));
        days.push(day);
      } else if (mine.length > 0) kept.push({ day, reason: "edited" });
      else missing.push(day);
    }
    for (const entry of doomed.sort((a, b) => b.from - a.from)) {
      lines.splice(entry.from, entry.lines);
      // The blank line put before it goes too, unless an entry now follows it (and needs it).
      const previous = lines[entry.from - 1] ?? "";
      const last = (lines[entry.from] ?? "").replace(/\r?\n$/u, "") !== "---";
      if (entry.gap && last && entry.from - 1 > open && previous.trim() === "")
        lines.splice(entry.from - 1, 1);
    }
    const event = backfillEvent(now, {
      phase: "backfill-rollback",
      outcome: "completed",
      removed: doomed.length,
      kept: kept.length,
      missing: missing.length,
    });
    await context.store.transaction(async (tx) => {
      await tx.deleteSleepState(root, BACKFILL_STATE, [...days, ...missing]);
      await tx.appendSleepEvents(root, [event]);
      const left = (await tx.listSleepState(root, BACKFILL_STATE)).length;
      const [preimage] = await tx.getSleepState(root, BACKFILL_PREIMAGE, ["diary"]);
      const after = lines.join("");
      const restored = left === 0 ? unframed(after, preimage?.value) : undefined;
      if (restored !== undefined) await tx.deleteSleepState(root, BACKFILL_PREIMAGE, ["diary"]);
      if (restored === null) await removeDiary(root, before);
      else await writeOver(root, before, restored ?? after);
    });
    return { removed: doomed.length, days, kept, missing };
  });
}

/** The days of `[from, to]`, checked. */
function dayRange(from: string, to: string): string[] {
  checkDay(from, "from");
  checkDay(to, "to");
  if (from > to) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `from (${from}) is after to (${to}); give the earlier day first.`,
      {
        details: { from, to },
      },
    );
  }
  const count =
    Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
  if (count > MAX_BACKFILL_DAYS) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `${from} to ${to} is ${count} days; backfill at most ${MAX_BACKFILL_DAYS} (about ten years) at a time.`,
      { details: { from, to, days: count } },
    );
  }
  return Array.from({ length: count }, (_, index) => addDays(from, index));
}

function checkDay(day: string, name: string): void {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/u.exec(day);
  const real =
    match !== null &&
    new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
      .toISOString()
      .slice(0, 10) === day;
  if (!real) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `${name} must be a real day written YYYY-MM-DD (2026-03-17), got ${JSON.stringify(day)}.`,
      { details: { [name]: day } },
    );
  }
}

/** The daily notes of the range under `memory/`, by day, each day's paths sorted. */
async function dailyNotes(root: string, from: string, to: string): Promise<Map<string, string[]>> {
  const byDay = new Map<string, string[]>();
  // Links are followed as the index follows them: while they stay inside the workspace.
  for (const note of (await listNotes(root)).notes) {
    const day = shortTermDay(note.path);
    if (note.size > MAX_NOTE_BYTES || day === undefined || day < from || day > to) continue;
    byDay.set(day, [...(byDay.get(day) ?? []), note.path]);
  }
  for (const paths of byDay.values()) paths.sort();
  return byDay;
}

interface Snippet extends EntryRange {
  readonly tags: readonly string[];
  readonly redacted: boolean;
}

/** The day's entry, or undefined when its notes hold nothing fit to quote. */
async function dayEntry(
  context: MemoryContext,
  root: string,
  day: string,
  paths: readonly string[],
): Promise<string | undefined> {
  const scanner = secretsGuardOf(context).scanner;
  const snippets: Snippet[] = [];
  const seen = new Set<string>();
  const real = await realRoot(root);
  for (const path of paths) {
    const bytes = await readWorkspaceBytes(root, path, real);
    if (bytes === null) continue; // Gone (or linked away) since the walk.
    const text = Buffer.from(bytes).toString("utf8");
    for (const chunk of chunkNote(redactNote(text, scanner))) {
      const snippet = chunk.text;
      if (contaminationOf(snippet) !== undefined || seen.has(snippet.toLowerCase())) continue;
      seen.add(snippet.toLowerCase());
      // A redaction's `[REDACTED:github-pat]` is no theme of the day.
      const tags = conceptTags(path, snippet.replace(/\[[A-Za-z0-9._-]+:[A-Za-z0-9._-]+\]/gu, " "));
      const { startLine, endLine } = chunk;
      snippets.push({
        path,
        startLine,
        endLine,
        snippet,
        tags,
        redacted: /\[REDACTED:[^\]]+\]/u.test(snippet),
      });
    }
  }
  const carriers = new Map<string, number>();
  for (const snippet of snippets)
    for (const tag of snippet.tags) carriers.set(tag, (carriers.get(tag) ?? 0) + 1);
  // A stable sort: ties keep the order the notes first name them in.
  const themes = [...carriers]
    .filter(([, count]) => count >= 2)
    .sort(([, a], [, b]) => b - a)
    .map(([tag]) => tag)
    .slice(0, ENTRY_LIMITS.themes);
  const carried = (snippet: Snippet) => snippet.tags.filter((tag) => themes.includes(tag)).length;
  const staged = snippets
    .map((snippet, order) => ({ snippet, order }))
    .sort(
      (a, b) =>
        Number(a.snippet.redacted) - Number(b.snippet.redacted) ||
        carried(b.snippet) - carried(a.snippet) ||
        b.snippet.tags.length - a.snippet.tags.length ||
        b.snippet.snippet.length - a.snippet.snippet.length ||
        a.order - b.order,
    )
    .slice(0, ENTRY_LIMITS.staged)
    .sort((a, b) => a.order - b.order)
    .map(({ snippet: { path, startLine, endLine, snippet } }) => ({ path, startLine, endLine, snippet }));
  return composeDiaryEntry({ day, themes, staged, reflections: [], truths: [], promoted: [] });
}

interface MarkedEntry {
  /** Its `---` line's index. */
  readonly from: number;
  /** How many lines it spans: up to the next `---` or the section's end. */
  readonly lines: number;
  readonly text: string;
  readonly day: string;
  readonly source: string;
  readonly hash: string;
}

const BACKFILL_MARKER = /^\s*<!--\s*openclaw:dreaming:backfill-entry\b(.*?)-->\s*$/u;

/**
 * The diary section's backfill entries, cut as `dream-diary.ts` cuts the section (at its `---`
 * lines), with the file's lines and the section's start marker line (-1 without a section).
 */
function markedEntries(text: string): { lines: string[]; open: number; entries: MarkedEntry[] } {
  const lines = splitLines(text);
  const section = markedSpans(lines, "diary")[0];
  if (section === undefined) return { lines, open: -1, entries: [] };
  const entries: MarkedEntry[] = [];
  const close = (from: number, to: number) => {
    const own = lines.slice(from, to);
    const marker = own.map((line) => BACKFILL_MARKER.exec(line)).find((match) => match !== null);
    const attributes = marker?.[1] ?? "";
    const day = /(?:^|\s)day=(\d{4}-\d{2}-\d{2})(?=\s|$)/u.exec(attributes)?.[1];
    const source = /(?:^|\s)source=(\S+)/u.exec(attributes)?.[1];
    if (day === undefined || source === undefined) return;
    const normal = own
      .map((line) => line.replace(/\r?\n$/u, "").trimEnd())
      .join("\n")
      .trim();
    entries.push({ from, lines: to - from, text: own.join(""), day, source, hash: sha256(normal) });
  };
  let start = -1;
  for (let at = section.open + 1; at <= section.to; at++) {
    if (at < section.to && (lines[at] ?? "").replace(/\r?\n$/u, "") !== "---") continue;
    if (start >= 0) close(start, at);
    start = at;
  }
  return { lines, open: section.open, entries };
}

function readRecord(value: unknown): Pick<BackfillRecord, "source" | "hash" | "gap"> {
  const record = (typeof value === "object" && value !== null ? value : {}) as Partial<BackfillRecord>;
  return {
    source: typeof record.source === "string" ? record.source : BACKFILL_SOURCE,
    // A record without its hash cannot show the entry unchanged: only `force` removes it.
    hash: typeof record.hash === "string" ? record.hash : "",
    gap: record.gap === true,
  };
}

function backfillEvent(at: string, data: Record<string, unknown>): SleepEventInput {
  return { type: "memory.dream.completed", at, data };
}

/** Writes `next` as the diary unless it is `before`; refuses when the diary is no longer `before`. */
/** Where the diary's bytes before a backfill framed it are kept. */
const BACKFILL_PREIMAGE = "diary-backfill-preimage";

/**
 * The diary as it was before the backfill gave it a section, when `after` is that text with only
 * an empty generated section added (no entry left in it); `null` when the backfill created the file
 * (it goes); undefined when the diary holds anything else since (kept as it is).
 */
function unframed(after: string, value: unknown): string | null | undefined {
  const preimage = value as { text?: unknown; existed?: unknown } | undefined;
  if (typeof preimage?.text !== "string" || diaryEntries(after).length > 0) return undefined;
  const generated = new Set([DIARY_HEADING, DIARY_START, DIARY_END]);
  const content = (text: string) =>
    text.split(/\r?\n/u).filter((line) => line.trim() !== "" && !generated.has(line.trim()));
  if (content(after).join("\n") !== content(preimage.text).join("\n")) return undefined;
  return preimage.existed === false ? null : preimage.text;
}

/** Removes a diary only a backfill wrote, if it is still the text the rollback read. */
async function removeDiary(root: string, before: string): Promise<void> {
  const { path } = await locateDiary(root);
  if ((await readDiary(root)) !== before) {
    throw new LucidError(
      "SLEEP_CONFLICT",
      "DREAMS.md changed while sleep was rolling its backfill back; nothing was written. Run it again.",
      { details: { workspace: root } },
    );
  }
  await rm(path, { force: true });
}

async function writeOver(root: string, before: string, next: string): Promise<string> {
  if (next === before) return (await locateDiary(root)).path;
  const result = await updateDiary(root, (current) => {
    if (current !== before) {
      throw new LucidError(
        "SLEEP_CONFLICT",
        "DREAMS.md changed while sleep was backfilling it; nothing was written. Run it again.",
        { details: { workspace: root } },
      );
    }
    return next;
  });
  if (result.reason !== undefined) {
    throw new LucidError(
      "IO_ERROR",
      `Sleep left ${result.path} as it is (${result.reason === "too-large" ? "over 16 MiB" : "not UTF-8"}); nothing was written.`,
      { details: { path: result.path } },
    );
  }
  return result.path;
}
