/**
 * Text a tool printed, pasted whole: most of its lines are machine lines — columns, counters,
 * paths, bars, key/value fields, box drawing — and none says what someone wants. "Filesystem  Size
 * Used Avail…", "PLAY RECAP ****", "Reading package lists... Done", a Vite or Cypress summary,
 * "Pod installation complete!". The shape is read from each line's make-up, not from a list of
 * tools: a line of prose is mostly plain words; a line a program printed is mostly not.
 *
 * A snippet someone introduces ("User's .gitconfig:", "We deploy with:") is kept: its first line
 * says who or why.
 *
 * @module
 */

import { linesOf, type NoiseRule } from "./noise-rule.js";

/** Share of a text's lines that must be machine lines, and how many at least. */
const MIN_MACHINE_SHARE = 0.6;
const MIN_MACHINE_LINES = 2;
/** A line counts as prose when this share of its tokens are plain words. */
const PROSE_SHARE = 0.6;
const PLAIN_WORD = /^["'(]?[A-Za-z][a-z]{0,15}(?:'[a-z]+)?[,.;:!?)"']*$/u;
// Columns (three spaces between fields), box drawing and bars, prompts and markers a tool starts
// its lines with.
const COLUMNS = /\S {3,}\S/u;
const DRAWN = /[│├└┌┐┘┬┴┼─═║╔╗╚╝█▏▎▍▌▋▊▉]|\*{4,}|={4,}|-{4,}/u;
const MARKER = /^\s*(?:[>$#~✓✔✗✖×•›»→+]|=>|-->|\[[\w+ /:.-]{1,20}\]|\d+\/\d+\b|[A-Z][A-Z_]{2,}:)/u;
// What a tool says while it works: a line that opens with a verb in -ing and no subject ("Reading
// package lists... Done", "Installing hermes-engine (0.74.1)"), or ends with its status.
const PROGRESS = /^\s*[A-Z][a-z]{2,}ing\b(?![^.!?]*\b(?:is|are|was|were)\b)/u;
const STATUS_END =
  /(?:\.\.\.|…)\s*(?:done|ok)\b|\b(?:done|complete|completed|finished|succeeded|failed)[.!]?\s*$/iu;
const INTENT =
  /\b(?:user|user's|i|we|my|our|prefers?|wants?|should|must|always|never|remember|because|lesson|learned|so that|decided|policy|rule|note|notes|todo)\b/iu;

/**
 * @example
 * toolText("Reading package lists... Done\nBuilding dependency tree... Done\n0 upgraded, 0 newly installed", {});
 * // => { rule: "tool_text", … }
 */
export const toolText: NoiseRule = (text) => {
  const lines = linesOf(text);
  if (lines.length < MIN_MACHINE_LINES || INTENT.test(lines[0] as string)) return undefined;
  const machine = lines.filter(isMachineLine).length;
  return machine >= MIN_MACHINE_LINES && machine >= lines.length * MIN_MACHINE_SHARE
    ? { rule: "tool_text", detail: `text a tool printed (${machine} of ${lines.length} lines)` }
    : undefined;
};

// A Markdown table is something a person writes: its rule row is no sign of a tool, and a row is
// judged by the words in its cells.
const MARKDOWN_RULE = /^\s*\|[\s:|-]+\|\s*$/u;
const MARKDOWN_ROW = /^\s*\|.*\|\s*$/u;

function isMachineLine(line: string): boolean {
  if (MARKDOWN_RULE.test(line)) return false;
  if (MARKDOWN_ROW.test(line)) return !isProse(line.replace(/\|/gu, " "));
  if (DRAWN.test(line) || MARKER.test(line) || (COLUMNS.test(line) && /\d/u.test(line))) return true;
  if (PROGRESS.test(line) || STATUS_END.test(line)) return true;
  return !isProse(line);
}

function isProse(line: string): boolean {
  const tokens = line.trim().split(/\s+/u);
  const plain = tokens.filter((token) => PLAIN_WORD.test(token)).length;
  return plain >= tokens.length * PROSE_SHARE;
}
