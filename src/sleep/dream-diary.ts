/**
 * `DREAMS.md`, the Dream Diary (`openclaw-dreaming.md` §1, §10), in OpenClaw's layout so both can
 * write one diary:
 *
 * ```
 * # Dream Diary
 *
 * <!-- openclaw:dreaming:diary:start -->
 * ---
 *
 * *April 5, 2026, 3:00 AM PDT*
 *
 * We went back over the day's notes…
 *
 * <!-- openclaw:dreaming:diary:end -->
 *
 * ## Deep Sleep
 * <!-- openclaw:dreaming:deep:start -->
 * - Ranked 4 candidate(s) for durable promotion.
 * - Promoted 2 candidate(s) into MEMORY.md.
 * <!-- openclaw:dreaming:deep:end -->
 * ```
 *
 * Each entry is `---`, a blank line, the date in italics, a blank line, the body and a blank line,
 * inserted just before the end marker; so entries are separated by `\n---\n`, as OpenClaw splits
 * them. A file without the section gets it above everything it holds. The text functions are pure;
 * {@link updateDiary} reads, edits and writes the file (atomically; a symbolic link or anything but
 * a regular file is refused, a file over 16 MiB left untouched).
 *
 * @module
 */

import { lstat, mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { LucidError } from "../errors.js";
import {
  MARKDOWN_MAX_BYTES,
  managedBlockBody,
  markedSpans,
  PHASE_HEADINGS,
  readMarkdown,
  renderManagedBlock,
  rewriteMarkdown,
  splitLines,
  upsertManagedBlock,
} from "./managed-block.js";
import { writeAtomically } from "./memory-file.js";

export const DIARY_HEADING = "# Dream Diary";
export const DIARY_START = "<!-- openclaw:dreaming:diary:start -->";
export const DIARY_END = "<!-- openclaw:dreaming:diary:end -->";

/** Where OpenClaw looks for the diary, in order. */
export const DIARY_NAMES = ["DREAMS.md", "dreams.md"] as const;
const BACKFILL_MARKER = /^\s*<!--\s*openclaw:dreaming:backfill-entry\b(.*?)-->\s*$/u;
const ANY_DREAMING_COMMENT = /^\s*<!--\s*openclaw:dreaming:/u;
const DAY = /^\d{4}-\d{2}-\d{2}$/u;

export interface DiaryLocation {
  readonly path: string;
  readonly exists: boolean;
  /** Over 16 MiB: sleep leaves it as it is and says so. */
  readonly tooLarge: boolean;
}

export interface DiaryEntryInput {
  /** When the sweep ran: an ISO timestamp. */
  readonly at: string;
  /** IANA zone the date is shown in (`America/Los_Angeles`, `UTC`). */
  readonly timeZone: string;
  readonly body: string;
  /** An entry written for a past day: labelled with that day and marked so it can be rolled back. */
  readonly backfill?: { readonly day: string; readonly source: string };
}

export interface DiaryEntry {
  /** The italic date line, without its asterisks ("" when the entry has none). */
  readonly date: string;
  readonly body: string;
  readonly backfillDay?: string;
}

export interface DeepReportCounts {
  readonly ranked: number;
  readonly promoted: number;
  /** Ranked candidates not promoted, by why (`budget`, `source-changed`…). */
  readonly refusedByReason: Readonly<Record<string, number>>;
}

/**
 * `DREAMS.md`, or an existing lower-case `dreams.md`; `DREAMS.md` when neither exists.
 *
 * @throws LucidError `IO_ERROR` when the diary is a symbolic link or not a regular file.
 * @example
 * await locateDiary("/home/nadia/.openclaw/workspace");
 * // => { path: "/home/nadia/.openclaw/workspace/DREAMS.md", exists: false, tooLarge: false }
 */
export async function locateDiary(workspace: string, maxBytes = MARKDOWN_MAX_BYTES): Promise<DiaryLocation> {
  for (const name of DIARY_NAMES) {
    const path = join(workspace, name);
    const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    if (info === undefined) continue;
    checkRegular(path, info);
    return { path, exists: true, tooLarge: info.size > maxBytes };
  }
  return { path: join(workspace, DIARY_NAMES[0]), exists: false, tooLarge: false };
}

/**
 * The diary's text for reading back entries: "" when there is none, or when it cannot be read
 * safely (a symbolic link, not a file, over 16 MiB, not UTF-8), as OpenClaw reads it.
 *
 * @example
 * diaryEntries(await readDiary(workspace)).slice(-4);
 */
export async function readDiary(workspace: string): Promise<string> {
  for (const name of DIARY_NAMES) {
    const file = await readMarkdown(join(workspace, name));
    if (file.kind === "text") return file.text;
    if (file.kind === "refused") return "";
  }
  return "";
}

/**
 * Reads the diary, applies `edit` to its text ("" when it does not exist yet) and writes the result
 * when it differs. A diary over 16 MiB, or whose bytes are not UTF-8, is left untouched and the
 * reason returned.
 *
 * @throws LucidError `IO_ERROR` when the diary is a symbolic link or not a regular file.
 * @example
 * await updateDiary(workspace, (text) => appendDiaryEntry(text, { at, timeZone, body }).text);
 * // => { path: ".../DREAMS.md", written: true }
 */
export async function updateDiary(
  workspace: string,
  edit: (text: string) => string,
): Promise<{ path: string; written: boolean; reason?: "too-large" | "not-utf8" }> {
  const diary = await locateDiary(workspace);
  if (diary.tooLarge) return { path: diary.path, written: false, reason: "too-large" };
  // Re-read just before the write, and the edit made again if someone wrote the diary meanwhile.
  const result = await rewriteMarkdown(diary.path, (text) => edit(text ?? ""));
  if (result.reason === "not-a-file") throw notRegular(diary.path, "not a regular file");
  if (result.reason === "too-large") return { path: diary.path, written: false, reason: "too-large" };
  if (result.reason === "not-utf8") return { path: diary.path, written: false, reason: "not-utf8" };
  return { path: diary.path, written: result.written };
}

/**
 * Writes `next` as the diary, atomically (a temporary file renamed over it).
 *
 * @throws LucidError `IO_ERROR` when `path` is a symbolic link or not a regular file.
 * @example
 * await writeDiary(diary.path, appendDiaryEntry(text, entry).text);
 */
export async function writeDiary(path: string, next: string): Promise<void> {
  const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (info !== undefined) checkRegular(path, info);
  else await mkdir(dirname(path), { recursive: true });
  await writeAtomically(path, next);
}

/**
 * The en-US date an entry is labelled with, in `timeZone`, spelled the same whatever the ICU
 * version (newer ones say "April 5, 2026 at 3:00 AM PDT"; the parts are joined here).
 *
 * @throws LucidError `INVALID_ARGUMENT` for a time that does not parse or an unknown zone.
 * @example
 * diaryDateLabel("2026-04-05T10:00:00Z", "America/Los_Angeles"); // => "April 5, 2026, 3:00 AM PDT"
 */
export function diaryDateLabel(at: string, timeZone: string): string {
  const time = Date.parse(at);
  if (Number.isNaN(time)) {
    throw new LucidError("INVALID_ARGUMENT", `at must be an ISO timestamp, got ${JSON.stringify(at)}.`);
  }
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "long",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      hourCycle: "h12",
      timeZoneName: "short",
    });
  } catch (error) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `timeZone must be an IANA zone such as "America/Los_Angeles" or "UTC", got ${JSON.stringify(timeZone)}.`,
      { cause: error },
    );
  }
  const part = new Map(format.formatToParts(new Date(time)).map((each) => [each.type, each.value]));
  const get = (type: Intl.DateTimeFormatPartTypes) => part.get(type) ?? "";
  return `${get("month")} ${get("day")}, ${get("year")}, ${get("hour")}:${get("minute")} ${get("dayPeriod")} ${get("timeZoneName")}`;
}

/**
 * A backfilled day's label: the day itself, with no time and no zone, as OpenClaw writes it.
 *
 * @example
 * backfillDateLabel("2026-03-17"); // => "March 17, 2026"
 */
export function backfillDateLabel(day: string): string {
  const [year, month, date] = checkDay(day).split("-").map(Number);
  const noon = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, date ?? 1, 12));
  const monthName = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", month: "long" }).format(noon);
  return `${monthName} ${date}, ${year}`;
}

/**
 * The diary with one more entry, before the section's end marker; unchanged (`added: false`) when
 * the section already holds an entry with the same date and body. The body is tidied: line breaks
 * made `\n`, trailing spaces and `openclaw:dreaming` marker lines dropped, a `---` line (which
 * would split the entry in two) written `* * *`, runs of blank lines made one.
 *
 * @throws LucidError `INVALID_ARGUMENT` for an empty body, a bad time, zone, day or source.
 * @example
 * appendDiaryEntry("", { at: "2026-04-05T10:00:00Z", timeZone: "America/Los_Angeles", body: "Quiet night." }).text;
 * // => "# Dream Diary\n\n<!-- openclaw:dreaming:diary:start -->\n---\n\n*April 5, 2026, 3:00 AM PDT*\n\nQuiet night.\n\n<!-- openclaw:dreaming:diary:end -->\n"
 */
export function appendDiaryEntry(text: string, entry: DiaryEntryInput): { text: string; added: boolean } {
  const block = renderEntry(entry);
  const lines = splitLines(text);
  const section = markedSpans(lines, "diary")[0];
  if (section !== undefined) {
    const fingerprint = entryFingerprint(splitLines(block).slice(1));
    const seen = sectionSegments(lines, section).some(
      (segment) => entryFingerprint(segment.lines.slice(segment.separator ? 1 : 0)) === fingerprint,
    );
    if (seen) return { text, added: false };
    const previous = lines[section.to - 1] ?? "";
    // `---` right under a line of text would make that text a heading.
    const gap = section.to - 1 === section.open || previous.trim() === "" ? "" : "\n";
    return {
      text: `${lines.slice(0, section.to).join("")}${gap}${block}${lines.slice(section.to).join("")}`,
      added: true,
    };
  }
  const dangling = lines.findIndex((line) => markedStart.test(line));
  if (dangling >= 0) {
    // The start marker stays where it is; the entry and an end marker go right under it, and what
    // followed it follows the section.
    const head = withLineBreak(lines.slice(0, dangling + 1).join(""));
    return { text: `${head}${block}${DIARY_END}\n${separated(lines, dangling + 1)}`, added: true };
  }
  const fresh = `${DIARY_START}\n${block}${DIARY_END}\n`;
  if ((lines[0] ?? "").trimEnd() === DIARY_HEADING) {
    const head = withLineBreak(lines[0] ?? "");
    return { text: `${head}\n${fresh}${separated(lines, 1)}`, added: true };
  }
  return { text: `${DIARY_HEADING}\n\n${fresh}${separated(lines, 0)}`, added: true };
}

/**
 * The diary without its backfilled entries (those marked `openclaw:dreaming:backfill-entry`), or
 * only those of the given days; every other byte stays.
 *
 * @example
 * removeBackfillEntries(diary, { days: ["2026-03-17"] }); // => { text: "…", removed: 1 }
 */
export function removeBackfillEntries(
  text: string,
  filter: { readonly days?: readonly string[] } = {},
): { text: string; removed: number } {
  const lines = splitLines(text);
  const section = markedSpans(lines, "diary")[0];
  if (section === undefined) return { text, removed: 0 };
  const days = filter.days === undefined ? undefined : new Set(filter.days);
  const doomed = sectionSegments(lines, section).filter((segment) => {
    if (!segment.separator) return false;
    const marker = segment.lines.map((line) => BACKFILL_MARKER.exec(line)).find((match) => match !== null);
    if (marker === undefined) return false;
    return days === undefined || days.has(backfillDay(marker[1] ?? "") ?? "");
  });
  for (const segment of doomed.reverse()) lines.splice(segment.from, segment.lines.length);
  return { text: lines.join(""), removed: doomed.length };
}

/**
 * The section's entries, oldest first; [] when the diary has no complete section.
 *
 * @example
 * diaryEntries(diary).slice(-4); // the four most recent, for the light phase's coverage check
 */
export function diaryEntries(text: string): DiaryEntry[] {
  const lines = splitLines(text);
  const section = markedSpans(lines, "diary")[0];
  if (section === undefined) return [];
  return sectionSegments(lines, section).flatMap((segment) => {
    const entry = parseEntry(segment.lines.slice(segment.separator ? 1 : 0));
    return entry.date === "" && entry.body === "" ? [] : [entry];
  });
}

/**
 * The diary with its `## Deep Sleep` block holding `body`: replaced where it is, or else put right
 * after the diary section (at the end when there is none). An empty body changes nothing.
 *
 * @example
 * upsertDeepReport(diary, deepReportBody({ ranked: 4, promoted: 2, refusedByReason: { budget: 2 } }));
 */
export function upsertDeepReport(text: string, body: string): string {
  if (body.trim() === "") return text;
  const heading = PHASE_HEADINGS.deep;
  if (managedBlockBody(text, "deep") !== undefined) return upsertManagedBlock(text, "deep", heading, body);
  const lines = splitLines(text);
  const section = markedSpans(lines, "diary")[0];
  if (section === undefined) return upsertManagedBlock(text, "deep", heading, body);
  const head = withLineBreak(lines.slice(0, section.to + 1).join(""));
  return `${head}\n${renderManagedBlock("deep", heading, body)}\n${separated(lines, section.to + 1)}`;
}

/**
 * The deep report's lines: OpenClaw's two, then how many ranked candidates were held back for each
 * reason, most first (counts only, never a snippet). "" when nothing was ranked nor refused: an
 * empty sweep writes no report.
 *
 * @example
 * deepReportBody({ ranked: 4, promoted: 2, refusedByReason: { budget: 1, "source-changed": 1 } });
 * // => "- Ranked 4 candidate(s) for durable promotion.\n- Promoted 2 candidate(s) into MEMORY.md.\n- Held back 1 candidate(s): budget.\n- Held back 1 candidate(s): source-changed."
 */
export function deepReportBody(counts: DeepReportCounts): string {
  const refused = Object.entries(counts.refusedByReason)
    .map(([reason, count]) => [reasonText(reason), checkCount(count, `refusedByReason.${reason}`)] as const)
    .filter(([, count]) => count > 0)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  const ranked = checkCount(counts.ranked, "ranked");
  const promoted = checkCount(counts.promoted, "promoted");
  if (ranked === 0 && promoted === 0 && refused.length === 0) return "";
  return [
    `- Ranked ${ranked} candidate(s) for durable promotion.`,
    `- Promoted ${promoted} candidate(s) into MEMORY.md.`,
    ...refused.map(([reason, count]) => `- Held back ${count} candidate(s): ${reason}.`),
  ].join("\n");
}

const markedStart = /^\s*<!--\s*openclaw:dreaming:diary:start\s*-->\s*$/u;

interface Segment {
  /** Index of its first line in the file's lines. */
  readonly from: number;
  readonly lines: string[];
  /** Whether it opens with a `---` line (an entry), or is the text before the first one. */
  readonly separator: boolean;
}

/** The section's inside cut at its `---` lines: the text before the first, then one per entry. */
function sectionSegments(lines: readonly string[], section: { open: number; to: number }): Segment[] {
  const segments: Segment[] = [];
  for (let at = section.open + 1; at < section.to; at++) {
    const line = lines[at] ?? "";
    const current = segments.at(-1);
    if (line.replace(/\r?\n$/u, "") === "---") {
      segments.push({ from: at, lines: [line], separator: true });
    } else if (current === undefined) segments.push({ from: at, lines: [line], separator: false });
    else current.lines.push(line);
  }
  return segments;
}

function parseEntry(lines: readonly string[]): DiaryEntry {
  let date: string | undefined;
  let backfill: string | undefined;
  const body: string[] = [];
  for (const raw of lines) {
    const line = raw.replace(/\r?\n$/u, "").replace(/\r$/u, "");
    const trimmed = line.trim();
    const marker = BACKFILL_MARKER.exec(line);
    if (date === undefined && isDateLine(trimmed)) date = trimmed.slice(1, -1).trim();
    else if (marker !== null && backfill === undefined) backfill = backfillDay(marker[1] ?? "") ?? "";
    else body.push(line.trimEnd());
  }
  const entry = { date: date ?? "", body: body.join("\n").trim() };
  return backfill === undefined || backfill === "" ? entry : { ...entry, backfillDay: backfill };
}

/**
 * OpenClaw's `normalizeDiaryBlockFingerprint`: the first italic line as the date, then the other
 * lines trimmed, without comments and headings.
 */
function entryFingerprint(lines: readonly string[]): string {
  let date = "";
  const body: string[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (line === "") continue;
    if (date === "" && isDateLine(line)) date = line.slice(1, -1).trim();
    else if (!line.startsWith("<!--") && !line.startsWith("#")) body.push(line);
  }
  return `${date.replace(/\s+/gu, " ")}\n${body.join("\n")}`;
}

const isDateLine = (line: string) => line.length > 2 && line.startsWith("*") && line.endsWith("*");

function renderEntry(entry: DiaryEntryInput): string {
  const body = tidyBody(entry.body);
  const date = diaryDateLabel(entry.at, entry.timeZone);
  if (entry.backfill === undefined) return `---\n\n*${date}*\n\n${body}\n\n`;
  const day = checkDay(entry.backfill.day);
  const source = entry.backfill.source;
  if (source.trim() === "" || /[\r\n]|-->/u.test(source)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `A backfill source must be one line without "-->" (memory/2026-03-17.md), got ${JSON.stringify(source)}.`,
    );
  }
  const marker = `<!-- openclaw:dreaming:backfill-entry day=${day} source=${source.trim()} -->`;
  return `---\n\n*${backfillDateLabel(day)}*\n\n${marker}\n\n${body}\n\n`;
}

function tidyBody(body: string): string {
  const tidy = body
    .replace(/\r\n?/gu, "\n")
    .split("\n")
    .filter((line) => !ANY_DREAMING_COMMENT.test(line))
    .map((line) => (line.trim() === "---" ? "* * *" : line.trimEnd()))
    .join("\n")
    .replace(/\n{3,}/gu, "\n\n")
    .trim();
  if (tidy === "") {
    throw new LucidError("INVALID_ARGUMENT", "A diary entry needs a body; write the fallback entry instead.");
  }
  return tidy;
}

function backfillDay(attributes: string): string | undefined {
  return /(?:^|\s)day=(\d{4}-\d{2}-\d{2})(?=\s|$)/u.exec(attributes)?.[1];
}

function checkDay(day: string): string {
  if (!DAY.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `day must be YYYY-MM-DD (2026-03-17), got ${JSON.stringify(day)}.`,
    );
  }
  return day;
}

function checkCount(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `${name} must be a count (0 or more), got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

function reasonText(reason: string): string {
  const text = reason
    .replace(/<!--|-->/gu, "")
    .replace(/\s+/gu, " ")
    .trim();
  return text === "" ? "unspecified" : text;
}

function checkRegular(path: string, info: { isSymbolicLink(): boolean; isFile(): boolean }): void {
  if (info.isSymbolicLink()) throw notRegular(path, "a symbolic link");
  if (!info.isFile()) throw notRegular(path, "not a regular file");
}

function notRegular(path: string, what: string): LucidError {
  return new LucidError(
    "IO_ERROR",
    `Refusing to write the dream diary ${path}: it is ${what}. Replace it with a regular file (or move it away) and run sleep again.`,
    { details: { path } },
  );
}

function withLineBreak(text: string): string {
  return text === "" || text.endsWith("\n") ? text : `${text}\n`;
}

/** The lines from `from` on, after one blank line unless they already open with one. */
function separated(lines: readonly string[], from: number): string {
  const rest = lines.slice(from).join("");
  return rest === "" || (lines[from] ?? "").trim() === "" ? rest : `\n${rest}`;
}
