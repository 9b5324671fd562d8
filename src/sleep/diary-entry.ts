/**
 * The diary entry sleep writes when no model is configured (`openclaw-dreaming.md` §10): one plain
 * paragraph made from what the phases found — the themes, what was staged, the threads that ran
 * through many memories, what may last and what was promoted — each quoted snippet cited by its
 * address (`memory/2026-11-04.md#L3-L5`). OpenClaw would write its stub ("A memory trace surfaced,
 * but details were unavailable in this run."); this says what the night actually did.
 *
 * Deterministic: the same input gives the same words; the opening and closing sentences vary with
 * the day, so consecutive entries do not all start alike. About 180 words at most besides the
 * citations: each quote is cut to fit. Snippets the contamination filter refuses are never quoted.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import { contaminationOf } from "./contamination.js";
import { visibleSnippet } from "./promotion-format.js";
import { noteAddress } from "./recall-keys.js";

export interface EntryRange {
  readonly snippet: string;
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
}

export interface DiaryEntryMaterial {
  /** Concept tags of what the night went through. */
  readonly themes: readonly string[];
  /** What the light phase staged, most relevant first. */
  readonly staged: readonly EntryRange[];
  /** The REM phase's reflections: a tag and how many memories carry it. */
  readonly reflections: readonly { readonly tag: string; readonly count: number }[];
  /** The REM phase's possible lasting truths, most confident first. */
  readonly truths: readonly (EntryRange & { readonly confidence: number })[];
  /** What the deep phase promoted into `MEMORY.md`. */
  readonly promoted: readonly EntryRange[];
  /** The sweep's day, `YYYY-MM-DD`. */
  readonly day: string;
}

/** How many of each the entry mentions. */
export const ENTRY_LIMITS = Object.freeze({ staged: 3, truths: 3, promoted: 5, themes: 6, reflections: 3 });

/** OpenClaw's narrative prompt asks for 80–180 words; the quotes get what the sentences leave. */
const MAX_WORDS = 180;
const MIN_QUOTE_WORDS = 4;
const MAX_QUOTE_WORDS = 25;

const OPENINGS_WITH_THEMES: readonly [(themes: string) => string, ...((themes: string) => string)[]] = [
  (themes: string) => `We went back over the day's notes, and they kept returning to ${themes}.`,
  (themes: string) => `Tonight's pass over recent notes circled around ${themes}.`,
  (themes: string) => `Looking back over what came up lately, the same ground kept showing: ${themes}.`,
];
const OPENINGS: readonly [string, ...string[]] = [
  "We went back over the day's notes.",
  "Tonight was a quiet pass over recent notes.",
  "Looking back over what came up lately, a few things stood out.",
];
const CLOSINGS: readonly [string, ...string[]] = [
  "The rest can wait for another night.",
  "Everything else stays in the daily notes for now.",
  "That is enough for one night.",
];

/**
 * The entry, or undefined when there is nothing to tell: no snippet fit to quote and no promotion.
 *
 * @throws LucidError `INVALID_ARGUMENT` when `day` is not `YYYY-MM-DD`.
 * @example
 * composeDiaryEntry({
 *   themes: ["travel", "kyoto"],
 *   staged: [{ snippet: "Travel: book the ryokan in Kyoto by March", path: "memory/2026-11-04.md", startLine: 3, endLine: 3 }],
 *   reflections: [], truths: [], promoted: [], day: "2026-11-29",
 * });
 * // => "Tonight's pass over recent notes circled around travel and kyoto. One thing came back more than
 * //     once: “Travel: book the ryokan in Kyoto by March” (memory/2026-11-04.md#L3-L3). Everything else
 * //     stays in the daily notes for now."
 */
export function composeDiaryEntry(material: DiaryEntryMaterial): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/u.test(material.day)) {
    throw new LucidError("INVALID_ARGUMENT", `day must be YYYY-MM-DD, got ${JSON.stringify(material.day)}.`);
  }
  // What was promoted is told once, as promoted; a truth is not told again as staged.
  const told = new Set<string>();
  const promoted = quotableRanges(material.promoted, ENTRY_LIMITS.promoted, told);
  const truths = quotableRanges(material.truths, ENTRY_LIMITS.truths, told);
  const staged = quotableRanges(material.staged, ENTRY_LIMITS.staged, told);
  if (promoted.length + truths.length + staged.length === 0) return undefined;

  const variant = dayVariant(material.day);
  const parts: EntryParts = {
    promoted,
    truths,
    staged,
    variant,
    themes: distinct(material.themes.map(plainWord)).slice(0, ENTRY_LIMITS.themes),
    reflections: material.reflections
      .map((reflection) => ({ tag: plainWord(reflection.tag), count: reflection.count }))
      .filter((reflection) => reflection.tag !== "" && reflection.count > 0)
      .slice(0, ENTRY_LIMITS.reflections),
  };
  // The quotes share what the sentences around them leave of the word budget.
  const around = countWords(render(parts, 0));
  const quotes = promoted.length + truths.length + staged.length;
  const words = Math.floor((MAX_WORDS - around) / quotes);
  return render(parts, Math.min(MAX_QUOTE_WORDS, Math.max(MIN_QUOTE_WORDS, words)));
}

interface EntryParts {
  readonly promoted: readonly Picked[];
  readonly truths: readonly Picked[];
  readonly staged: readonly Picked[];
  readonly themes: readonly string[];
  readonly reflections: readonly { readonly tag: string; readonly count: number }[];
  readonly variant: number;
}

/** The paragraph, each quote cut to `words` words. */
function render(parts: EntryParts, words: number): string {
  const { promoted, truths, staged, themes, reflections, variant } = parts;
  const cite = (range: Picked) => `“${quote(range.text, words)}” (${range.address})`;
  const sentences: string[] = [
    themes.length > 0 ? choose(OPENINGS_WITH_THEMES, variant)(series(themes)) : choose(OPENINGS, variant),
  ];
  if (staged.length === 1) sentences.push(`One thing came back more than once: ${series(staged.map(cite))}.`);
  else if (staged.length > 1)
    sentences.push(`A few things came back more than once: ${series(staged.map(cite))}.`);
  const [thread, ...others] = reflections;
  if (thread !== undefined && others.length === 0) {
    sentences.push(`One thread ran through ${memories(thread.count)}: ${thread.tag}.`);
  } else if (thread !== undefined) {
    const counts = reflections.map((reflection) => `${reflection.tag} in ${reflection.count}`);
    sentences.push(`Some threads ran through many memories at once: ${series(counts)}.`);
  }
  if (truths.length === 1)
    sentences.push(`Something here may hold for the long run: ${series(truths.map(cite))}.`);
  else if (truths.length > 1)
    sentences.push(`Some of it may hold for the long run: ${series(truths.map(cite))}.`);
  const [kept] = promoted;
  if (kept !== undefined && promoted.length === 1) {
    sentences.push(`We kept ${cite(kept)} for good; it now lives in MEMORY.md.`);
  } else if (kept !== undefined) {
    sentences.push(
      `A few memories became lasting ones and now live in MEMORY.md: ${series(promoted.map(cite))}.`,
    );
  }
  sentences.push(choose(CLOSINGS, variant));
  return sentences.join(" ");
}

/** Words of the entry, its citations aside: what the ~180-word bound counts. */
export function countWords(entry: string): number {
  return entry
    .replace(/\s*\([^()]*#L\d+-L\d+\)/gu, "")
    .split(/\s+/u)
    .filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

export interface Picked {
  readonly text: string;
  readonly address: string;
}

/**
 * Up to `limit` ranges fit to quote and not told yet (each marked told), in their order: a snippet
 * the contamination filter refuses, or empty once the diary's markers are taken out, is skipped;
 * each is cut to `width` characters (the narrative's request cuts, the entry does not).
 *
 * @example
 * quotableRanges(material.staged, 6, new Set()); // => [{ text: "Book the ryokan", address: "memory/2026-11-04.md#L3" }]
 */
export function quotableRanges(
  ranges: readonly EntryRange[],
  limit: number,
  told: Set<string>,
  width = Number.MAX_SAFE_INTEGER,
): Picked[] {
  const picked: Picked[] = [];
  for (const range of ranges) {
    if (picked.length >= limit) break;
    const address = noteAddress(range.path, range.startLine, range.endLine);
    if (told.has(address) || contaminationOf(range.snippet) !== undefined) continue;
    const text = range.snippet
      .replace(/<!--[\s\S]*?-->/gu, " ")
      .replace(/<!--|-->/gu, " ")
      .trim();
    if (text === "") continue;
    told.add(address);
    picked.push({ text: visibleSnippet(text, width), address });
  }
  return picked;
}

/** The snippet's first `words` words (with an ellipsis when cut), its backticks balanced. */
function quote(text: string, words: number): string {
  if (words === 0) return "";
  const all = text.split(" ");
  const cut =
    all.length <= words
      ? text
      : `${all
          .slice(0, words)
          .join(" ")
          .replace(/[,;:]+$/u, "")}…`;
  // A cut (or the note itself) can leave a code span open: its backticks go, its words stay.
  return (cut.match(/`/gu)?.length ?? 0) % 2 === 1 ? cut.replace(/`/gu, "") : cut;
}

/** "a", "a and b", "a, b and c". */
function series(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function memories(count: number): string {
  return count === 1 ? "one memory" : `${count} memories`;
}

/** A tag as a word of the sentence: one line, no code marks. */
function plainWord(tag: string): string {
  return tag
    .replace(/[`\r\n]/gu, " ")
    .replace(/\s+/gu, " ")
    .trim();
}

/**
 * The items without blanks and without a repeat (case aside), in their order.
 *
 * @example
 * distinct(["Travel", "travel", "", "Kyoto"]); // => ["Travel", "Kyoto"]
 */
export function distinct(items: readonly string[]): string[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = item.toLowerCase();
    if (item === "" || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A number fixed by the day: which opening and closing the entry uses. */
function dayVariant(day: string): number {
  let hash = 7;
  for (const char of day) hash = (hash * 31 + char.charCodeAt(0)) % 1_000_003;
  return hash;
}

function choose<T>(options: readonly [T, ...T[]], variant: number): T {
  return options[variant % options.length] ?? options[0];
}
