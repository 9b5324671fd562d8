/**
 * The blocks the sleep phases manage inside Markdown files (`openclaw-dreaming.md` §5 step 8, §6
 * step 7, §10), in OpenClaw's exact layout (its `replaceManagedMarkdownBlock`), so a workspace both
 * dream in gets one block per phase, never two:
 *
 * ```
 * ## Light Sleep
 * <!-- openclaw:dreaming:light:start -->
 * - Candidate: …
 * <!-- openclaw:dreaming:light:end -->
 * ```
 *
 * The heading sits above the start marker, outside it, as OpenClaw writes it. A marker is a line of
 * its own (spaces around it allowed); a marker inside a line of prose is prose. A start marker with
 * no end marker after it is left where it is, with everything after it: a fresh block is appended
 * at the end of the file, and the dangling marker stays for a person to look at.
 *
 * Every line outside the block is kept byte for byte; the block itself is always written with `\n`.
 *
 * @module
 */

import { lstat, mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { LucidError } from "../errors.js";
import { checkWritable } from "./confined-path.js";
import { readBytes, writeAtomically } from "./memory-file.js";

export const PHASES = ["light", "rem", "deep"] as const;
export type Phase = (typeof PHASES)[number];

/** The headings OpenClaw gives each phase's block. */
export const PHASE_HEADINGS: Readonly<Record<Phase, string>> = Object.freeze({
  light: "Light Sleep",
  rem: "REM Sleep",
  deep: "Deep Sleep",
});

/** OpenClaw's `MEMORY_DREAMING_MARKDOWN_MAX_BYTES`: a larger file is left untouched. */
export const MARKDOWN_MAX_BYTES = 16 * 1024 * 1024;

/** Why {@link writeManagedBlock} left a file as it was. */
export type ManagedWriteRefusal = "too-large" | "not-a-file" | "not-utf8";

const ANY_MARKER = /^\s*<!--\s*openclaw:dreaming:[\w-]+:(?:start|end)\s*-->\s*$/u;

/**
 * @example
 * managedMarkers("light"); // => { start: "<!-- openclaw:dreaming:light:start -->", end: "<!-- openclaw:dreaming:light:end -->" }
 */
export function managedMarkers(phase: Phase): { start: string; end: string } {
  return {
    start: `<!-- openclaw:dreaming:${phase}:start -->`,
    end: `<!-- openclaw:dreaming:${phase}:end -->`,
  };
}

/**
 * The block as written, without a final line break: heading, start marker, body, end marker.
 *
 * @example
 * renderManagedBlock("rem", "REM Sleep", "- No strong patterns surfaced.");
 * // => "## REM Sleep\n<!-- openclaw:dreaming:rem:start -->\n- No strong patterns surfaced.\n<!-- openclaw:dreaming:rem:end -->"
 */
export function renderManagedBlock(phase: Phase, heading: string, body: string): string {
  const { start, end } = managedMarkers(phase);
  return `${headingLine(heading)}\n${start}\n${checkBody(body)}\n${end}`;
}

/**
 * `text` with the phase's block holding `body`: the first such block replaced (its heading too,
 * when it is the heading given), any further ones removed (a corrupted file), or else the block
 * appended after one blank line. Idempotent: the same body again gives the same bytes.
 *
 * @throws LucidError `INVALID_ARGUMENT` when the heading spans lines or the body holds a marker line.
 * @example
 * upsertManagedBlock("# 2026-11-29\n\n- call the bank\n", "light", "Light Sleep", "- No notable updates.");
 * // => "# 2026-11-29\n\n- call the bank\n\n## Light Sleep\n<!-- openclaw:dreaming:light:start -->\n- No notable updates.\n<!-- openclaw:dreaming:light:end -->\n"
 */
export function upsertManagedBlock(text: string, phase: Phase, heading: string, body: string): string {
  const block = renderManagedBlock(phase, heading, body);
  const lines = splitLines(text);
  const spans = findBlocks(lines, phase, headingLine(heading));
  const [first, ...others] = spans;
  if (first === undefined) return appendBlock(text, block);
  for (const span of others.reverse()) dropSpan(lines, span);
  const ending = lineEnding(lines[first.to] ?? "");
  lines.splice(first.from, first.to - first.from + 1, `${block}${ending}`);
  return lines.join("");
}

/**
 * `text` without the light, REM and deep blocks (their OpenClaw headings too): each goes with the
 * blank lines that separated it from the text before it when only blank lines or the end follow.
 *
 * @example
 * removeManagedBlocks("Notes\n\n## Light Sleep\n<!-- openclaw:dreaming:light:start -->\n- x\n<!-- openclaw:dreaming:light:end -->\n");
 * // => "Notes\n"
 */
export function removeManagedBlocks(text: string): string {
  const lines = splitLines(text);
  const spans = PHASES.flatMap((phase) => findBlocks(lines, phase, headingLine(PHASE_HEADINGS[phase]))).sort(
    (a, b) => a.from - b.from,
  );
  // A block inside another (corrupted nesting) goes with the outer one.
  const outer: Span[] = [];
  for (const span of spans) {
    const last = outer.at(-1);
    if (last === undefined || span.from > last.to) outer.push(span);
    else if (span.to > last.to) last.to = span.to;
  }
  for (const span of outer.reverse()) dropSpan(lines, span);
  return lines.join("");
}

/**
 * What the phase's first complete block holds between its markers, or undefined when there is none.
 *
 * @example
 * managedBlockBody("## REM Sleep\n<!-- openclaw:dreaming:rem:start -->\n- a\n- b\n<!-- openclaw:dreaming:rem:end -->\n", "rem");
 * // => "- a\n- b"
 */
export function managedBlockBody(text: string, phase: Phase): string | undefined {
  const lines = splitLines(text);
  const [first] = findBlocks(lines, phase, undefined);
  if (first === undefined) return undefined;
  return lines
    .slice(first.open + 1, first.to)
    .join("")
    .replace(/\r?\n$/u, "");
}

/**
 * Writes the phase's block into `file` (a day's note), atomically, creating the file and its
 * folders when missing. A file over {@link MARKDOWN_MAX_BYTES}, a symbolic link or anything but a
 * regular file, or bytes that are not UTF-8 (rewriting them would change text outside the block)
 * are left untouched and the reason returned. `written` is false without a reason when the file
 * already held these bytes.
 *
 * @example
 * await writeManagedBlock(join(workspace, "memory", "2026-11-29.md"), "light", "Light Sleep", body);
 * // => { written: true }
 */
export async function writeManagedBlock(
  file: string,
  phase: Phase,
  heading: string,
  body: string,
): Promise<{ written: boolean; reason?: ManagedWriteRefusal }> {
  return rewriteMarkdown(file, (text) => upsertManagedBlock(text ?? "", phase, heading, body));
}

/** Tries of a rewrite whose file another writer changed between the read and the write. */
const REWRITE_TRIES = 5;

/**
 * Reads a Markdown file sleep may rewrite (`undefined` text: it does not exist), applies `edit`, and
 * writes the result atomically unless it is the same. Just before the write the file is read again:
 * when another writer changed it meanwhile (an agent appending to the day's note), the edit is made
 * again on the new text, so the appended lines are kept. A file still changing after a few tries
 * is `SLEEP_CONFLICT`, nothing written. (The re-read and the rename are not one step: a write in the
 * microseconds between them can still be lost; a note written that fast is not hand-written.)
 *
 * @throws LucidError `SLEEP_CONFLICT` when the file keeps changing.
 */
export async function rewriteMarkdown(
  file: string,
  edit: (text: string | undefined) => string,
): Promise<{ written: boolean; reason?: ManagedWriteRefusal }> {
  for (let attempt = 0; attempt < REWRITE_TRIES; attempt++) {
    const before = await readMarkdown(file);
    if (before.kind === "refused") return { written: false, reason: before.reason };
    const text = before.kind === "text" ? before.text : undefined;
    const next = edit(text);
    if (text !== undefined && next === text) return { written: false };
    if (text === undefined) await mkdir(dirname(file), { recursive: true });
    const now = await readMarkdown(file);
    const same = now.kind === before.kind && (now.kind !== "text" || now.text === text);
    if (!same) continue;
    await writeAtomically(file, next);
    return { written: true };
  }
  throw new LucidError(
    "SLEEP_CONFLICT",
    `${file} kept changing while sleep was writing into it; nothing was written. Run the sweep again.`,
    { details: { file } },
  );
}

/**
 * Writes `memory/dreaming/<phase>/<day>.md` as `# <heading>\n\n<body>\n`, atomically, replacing a
 * previous report of that day; returns its path.
 *
 * @throws LucidError `INVALID_ARGUMENT` when `day` is not `YYYY-MM-DD`; `IO_ERROR` when the report
 *   is a symbolic link or its folder links outside the workspace.
 * @example
 * await writeSeparateReport(workspace, "rem", "2026-11-29", "REM Sleep", body);
 * // => "<workspace>/memory/dreaming/rem/2026-11-29.md"
 */
export async function writeSeparateReport(
  workspace: string,
  phase: Phase,
  day: string,
  heading: string,
  body: string,
): Promise<string> {
  if (!/^\d{4}-\d{2}-\d{2}$/u.test(day)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `day must be YYYY-MM-DD (2026-11-29), got ${JSON.stringify(day)}.`,
    );
  }
  const path = join(workspace, "memory", "dreaming", phase, `${day}.md`);
  await checkWritable(workspace, path);
  await mkdir(dirname(path), { recursive: true });
  await writeAtomically(path, `# ${headingText(heading)}\n\n${checkBody(body)}\n`);
  return path;
}

/** A Markdown file as sleep may rewrite it: its text, absent, or refused with the reason. */
export type MarkdownFile =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "missing" }
  | { readonly kind: "refused"; readonly reason: ManagedWriteRefusal };

/**
 * Reads a Markdown file sleep may rewrite. Symbolic links are refused as OpenClaw refuses them
 * (replacing one atomically would put a file where the link was), and so are files over `maxBytes`
 * and bytes that do not survive decoding as UTF-8.
 *
 * @example
 * await readMarkdown(join(workspace, "memory", "2026-11-29.md")); // => { kind: "missing" }
 */
export async function readMarkdown(file: string, maxBytes = MARKDOWN_MAX_BYTES): Promise<MarkdownFile> {
  const info = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (info === undefined) return { kind: "missing" };
  if (!info.isFile()) return { kind: "refused", reason: "not-a-file" };
  if (info.size > maxBytes) return { kind: "refused", reason: "too-large" };
  const bytes = await readBytes(file);
  if (bytes === null) return { kind: "missing" };
  const text = Buffer.from(bytes).toString("utf8");
  if (!Buffer.from(text, "utf8").equals(bytes)) return { kind: "refused", reason: "not-utf8" };
  return { kind: "text", text };
}

/** One block's lines: `from` (its heading, or its start marker), `open` (the start marker), `to` (the end marker). */
interface Span {
  from: number;
  open: number;
  to: number;
}

/** The lines of `text`, each with its line break, so joining them gives `text` back. */
export function splitLines(text: string): string[] {
  return text === "" ? [] : (text.match(/[^\n]*\n|[^\n]+$/gu) ?? []);
}

function lineEnding(line: string): string {
  return /\r?\n$/u.exec(line)?.[0] ?? "";
}

const content = (line: string) => line.replace(/\r?\n$/u, "");
const isBlank = (line: string | undefined) => line !== undefined && line.trim() === "";

function markerPattern(name: string, edge: "start" | "end"): RegExp {
  return new RegExp(`^\\s*<!--\\s*openclaw:dreaming:${name}:${edge}\\s*-->\\s*$`, "u");
}

/**
 * The complete `<!-- openclaw:dreaming:<name>:start -->` … `end -->` pairs of `lines` (as
 * {@link splitLines} gives them), in order: the line of each start marker and of its end marker.
 * A start marker opens a pair and the next end marker closes it; a start marker followed by another
 * start marker before any end, or by none, dangles and is no pair's.
 */
export function markedSpans(lines: readonly string[], name: string): { open: number; to: number }[] {
  const start = markerPattern(name, "start");
  const end = markerPattern(name, "end");
  const spans: { open: number; to: number }[] = [];
  let open = -1;
  lines.forEach((line, index) => {
    if (start.test(line)) open = index;
    else if (end.test(line) && open >= 0) {
      spans.push({ open, to: index });
      open = -1;
    }
  });
  return spans;
}

function findBlocks(lines: readonly string[], phase: Phase, heading: string | undefined): Span[] {
  return markedSpans(lines, phase).map(({ open, to }) => ({
    from: headingAbove(lines, open, heading),
    open,
    to,
  }));
}

/** The heading line above a start marker (blank lines between allowed, as OpenClaw allows them). */
function headingAbove(lines: readonly string[], open: number, heading: string | undefined): number {
  if (heading === undefined) return open;
  let at = open - 1;
  while (at >= 0 && isBlank(lines[at])) at--;
  return at >= 0 && content(lines[at] ?? "").trimEnd() === heading ? at : open;
}

/**
 * Removes a block's lines; with them the blank lines before it when only blank lines or the end
 * follow (they separated it), or the blank lines after it when it opens the file.
 */
function dropSpan(lines: string[], span: Span): void {
  let from = span.from;
  let to = span.to;
  if (to + 1 >= lines.length || isBlank(lines[to + 1])) {
    while (from > 0 && isBlank(lines[from - 1])) from--;
  }
  if (from === 0) {
    while (to + 1 < lines.length && isBlank(lines[to + 1])) to++;
  }
  lines.splice(from, to - from + 1);
}

/** After the text, one blank line between: the text's own bytes stay as they are. */
function appendBlock(text: string, block: string): string {
  if (text === "") return `${block}\n`;
  const separator = text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
  return `${text}${separator}${block}\n`;
}

function headingText(heading: string): string {
  const text = heading.replace(/^\s*#+\s*/u, "").trim();
  if (text === "" || /[\r\n]/u.test(text)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `A managed block's heading must be one non-empty line (e.g. "Light Sleep"), got ${JSON.stringify(heading)}.`,
    );
  }
  return text;
}

function headingLine(heading: string): string {
  return `## ${headingText(heading)}`;
}

/** The body without trailing line breaks; a marker line in it would cut the block short. */
function checkBody(body: string): string {
  const trimmed = body.replace(/(?:\r?\n)+$/u, "");
  if (trimmed.split("\n").some((line) => ANY_MARKER.test(line))) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      "A managed block's body must not hold an <!-- openclaw:dreaming:… --> marker line; drop that line.",
    );
  }
  return trimmed;
}
