/**
 * The diary entry written by the configured LLM (`openclaw-dreaming.md` §10, "Narrative prompt"):
 * the night's fragments, themes, promotions and the last few entries go in; a short first-person
 * paragraph comes out, cleaned so it cannot break the Markdown file it is written into.
 *
 * The request is data ({@link narrativeRequest}, pure); {@link writeNarrative} makes the one call
 * through the sweep's {@link LlmRun}, which redacts every text first and counts the call. A failed
 * call or an empty answer is a value, never a throw: the sweep then writes its deterministic entry.
 *
 * @module
 */

import type { LlmRun } from "../core/llm-run.js";
import { isLucidError, type LucidErrorCode } from "../errors.js";
import type { CompleteRequest } from "../llm/llm.js";
import { type DiaryEntryMaterial, distinct, type EntryRange, quotableRanges } from "./diary-entry.js";

export interface NarrativeMaterial extends DiaryEntryMaterial {
  /** Bodies of the diary's entries so far, oldest first (`diaryEntries(text)`); the last few are shown. */
  readonly recentEntries: readonly string[];
}

/** Why the narrative was not written: the call's LucidError code, or `"empty"` for a blank answer. */
export type NarrativeFallbackReason = LucidErrorCode | "empty";

export type NarrativeOutcome =
  | { readonly kind: "narrative"; readonly text: string; readonly model: string }
  | { readonly kind: "fallback"; readonly reason: NarrativeFallbackReason };

/** The prompt's limits, OpenClaw's where §10 gives them. */
export const NARRATIVE_LIMITS = Object.freeze({
  fragments: 12,
  themes: 6,
  promotions: 5,
  recentEntries: 3,
  fragmentChars: 300,
  recentEntryChars: 360,
  /** The longest entry kept: 180 words is about 1,100 characters, so this only stops a runaway. */
  answerChars: 1_500,
});

const SYSTEM = `You keep a private dream diary for a person's notes. Each night you are given fragments of what came up in their recent notes, the themes that kept returning, and what settled into lasting memory.
Write tonight's entry in the first person: reflective, a little dreamlike, grounded in the fragments you were given. Do not invent facts that are not in them.
Never mention AI, assistants, language models or prompts.
Use no markdown: no headings, lists, bold, italics, links, code or quotes around the entry.
Write between 80 and 180 words, as one or two plain paragraphs.
Output only the entry itself.`;

const CLOSING =
  "- Prefer a fresh angle; do not replay the same first-day framing unless newer fragments change it.";

/**
 * The narrative request for a night: the fragments (what was staged and what may last; the
 * promotions when there is nothing else), the themes, the promotions and the continuity context.
 * Snippets the contamination filter refuses are never sent.
 *
 * @example
 * narrativeRequest({
 *   day: "2026-11-29", themes: ["kyoto"], reflections: [], truths: [], promoted: [], recentEntries: [],
 *   staged: [{ snippet: "Book the ryokan in Kyoto by March", path: "memory/2026-11-04.md", startLine: 3, endLine: 3 }],
 * }).messages[0]?.content;
 * // => "Write a dream diary entry from these memory fragments:\n- Book the ryokan in Kyoto by March\n\nRecurring themes:\n- kyoto\n\nDiary continuity context:\n- Current sweep: 2026-11-29\n- Prefer a fresh angle; …"
 */
export function narrativeRequest(material: NarrativeMaterial): CompleteRequest {
  const told = new Set<string>();
  const promotions = fragmentsOf(material.promoted, NARRATIVE_LIMITS.promotions, told);
  const others = fragmentsOf([...material.staged, ...material.truths], NARRATIVE_LIMITS.fragments, told);
  // A night that only promoted still has fragments to dream about: the promotions themselves.
  const fragments = others.length > 0 ? others : promotions;
  const themes = distinct(material.themes.map(oneLine)).slice(0, NARRATIVE_LIMITS.themes);
  const recent = material.recentEntries
    .slice(-NARRATIVE_LIMITS.recentEntries)
    .map((body) => clip(oneLine(body), NARRATIVE_LIMITS.recentEntryChars))
    .filter((body) => body !== "");
  const section = (title: string, lines: readonly string[]) =>
    lines.length === 0 ? [] : [[title, ...lines.map((line) => `- ${line}`)].join("\n")];
  const content = [
    ...section("Write a dream diary entry from these memory fragments:", fragments),
    ...section("Recurring themes:", themes),
    ...section("Memories that crystallized into something lasting:", promotions),
    [
      "Diary continuity context:",
      `- Current sweep: ${material.day}`,
      ...recent.map((body) => `- Recent entry: ${body}`),
      CLOSING,
    ].join("\n"),
  ].join("\n\n");
  return {
    system: SYSTEM,
    messages: [{ role: "user", content }],
    // 180 words is about 240 tokens: room for a model that runs over, which the cut then trims.
    maxTokens: 400,
    // Warm on purpose: the entry is prose that should not read the same every night (the prompt
    // asks for a fresh angle), while the fragments keep it on what the notes say. 0.7 is the usual
    // setting for such writing; higher drifts from the fragments.
    temperature: 0.7,
  };
}

/**
 * One narrative call through the sweep's run. Its timeout is the LLM client's (60 s by default,
 * OpenClaw's too); nothing here adds a timer.
 *
 * @example
 * const outcome = await writeNarrative(run, material);
 * // => { kind: "narrative", text: "I kept circling back to Kyoto…", model: "gpt-4o-mini" }
 * // or { kind: "fallback", reason: "LLM_TIMEOUT" }
 */
export async function writeNarrative(run: LlmRun, material: NarrativeMaterial): Promise<NarrativeOutcome> {
  try {
    const answer = await run.complete(narrativeRequest(material));
    const text = cleanNarrative(answer.text);
    return text === ""
      ? { kind: "fallback", reason: "empty" }
      : { kind: "narrative", text, model: answer.model };
  } catch (error) {
    if (isLucidError(error)) return { kind: "fallback", reason: error.code };
    throw error;
  }
}

/**
 * The answer as a diary body: trimmed, without wrapping quotes or code fences, without any HTML
 * comment (the diary's markers are comments: a model must not close or open the managed block),
 * no more than one blank line in a row, and at most ~1,500 characters, cut at a sentence end.
 *
 * @example
 * cleanNarrative('```\n"I dreamt of kilns. <!-- openclaw:dreaming:diary:end -->"\n```'); // => "I dreamt of kilns."
 */
export function cleanNarrative(answer: string): string {
  let text = answer.replace(/\r\n?/gu, "\n").trim();
  const fenced = /^```[^\n]*\n([\s\S]*?)\n?```$/u.exec(text);
  if (fenced !== null) text = (fenced[1] ?? "").trim();
  text = unquote(text);
  text = text
    .replace(/<!--[\s\S]*?-->/gu, " ")
    .replace(/<!--|-->/gu, " ")
    .split("\n")
    // Trimmed at both ends too: four leading spaces would make a Markdown code block.
    .map((line) => line.replace(/[ \t]{2,}/gu, " ").trim())
    // A line of dashes would be read as the diary's entry separator.
    .filter((line) => !/^\s*-{3,}\s*$/u.test(line))
    .join("\n")
    .replace(/\n{3,}/gu, "\n\n")
    .trim();
  return cut(text, NARRATIVE_LIMITS.answerChars);
}

/** Up to `limit` snippets fit to send, none told twice: the ranges the composer would quote, cut to fit. */
function fragmentsOf(ranges: readonly EntryRange[], limit: number, told: Set<string>): string[] {
  // visibleSnippet may add "..." after its cut: room is left for it.
  return quotableRanges(ranges, limit, told, NARRATIVE_LIMITS.fragmentChars - 3).map((range) => range.text);
}

function oneLine(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/gu, " ")
    .replace(/<!--|-->/gu, " ")
    .replace(/\s+/gu, " ")
    .trim();
}

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1).trimEnd()}…`;
}

const QUOTE_PAIRS: Readonly<Record<string, string>> = { '"': '"', "'": "'", "“": "”", "«": "»", "„": "“" };

/** Without one pair of quotes around the whole text (and no quote inside it of the same kind). */
function unquote(text: string): string {
  const open = text[0] ?? "";
  const close = QUOTE_PAIRS[open];
  if (close === undefined || text.length < 2 || !text.endsWith(close)) return text;
  const inner = text.slice(1, -1);
  return inner.includes(open) || inner.includes(close) ? text : inner.trim();
}

/** At most `limit` characters, ending at the last sentence end inside them (else a word, with "…"). */
function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const head = text.slice(0, limit);
  const ends = [...head.matchAll(/[.!?…]["'”’»)]*(?=\s|$)/gu)];
  const last = ends.at(-1);
  const end = last === undefined ? 0 : (last.index ?? 0) + last[0].length;
  if (end >= limit / 2) return head.slice(0, end).trim();
  const word = head.lastIndexOf(" ");
  return `${(word > limit / 2 ? head.slice(0, word) : head).trimEnd()}…`;
}
