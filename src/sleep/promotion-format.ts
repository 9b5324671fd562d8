/**
 * What the deep phase writes into `MEMORY.md` (`openclaw-dreaming.md` §8, "Append format"), in the
 * exact form OpenClaw writes it, so both can share a workspace:
 *
 * ```
 * ## Promoted From Short-Term Memory (2026-11-29)
 *
 * <!-- openclaw-memory-promotion:memory:memory/2026-11-04.md:3:3 -->
 * - Travel: book the ryokan in Kyoto by March [score=0.881 signals=5 recalls=5 avg=0.912 source=memory/2026-11-04.md:3-3] <!-- trigger: travel, ryokan, kyoto --> <!-- importance: 9 -->
 * ```
 *
 * Pure text: writing the file (atomically, under a lease) is the apply step's.
 *
 * @module
 */

/** Visible characters of a promoted snippet: 160 tokens of 4 characters. */
export const VISIBLE_SNIPPET_CHARS = 640;
/** The heading an empty `MEMORY.md` starts with. */
export const MEMORY_HEADER = "# Long-Term Memory\n\n";

const MARKER = /<!--\s*openclaw-memory-promotion:(.*?)\s*-->/gu;

export interface PromotedCandidate {
  readonly key: string;
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly snippet: string;
  /** The final score, 0–1. */
  readonly score: number;
  readonly signalCount: number;
  readonly recallCount: number;
  /** Average score of its signals. */
  readonly averageScore: number;
  readonly conceptTags: readonly string[];
}

/**
 * The snippet as `MEMORY.md` shows it: its leading list marker gone, and past the limit cut at a
 * sentence end (if one falls at 55% of the limit or later), else at a word (at 65% or later), else
 * at the limit, with `...`. The recall store keeps it whole.
 *
 * @example
 * visibleSnippet("- Book the ryokan in Kyoto by March"); // => "Book the ryokan in Kyoto by March"
 */
export function visibleSnippet(snippet: string, limit = VISIBLE_SNIPPET_CHARS): string {
  const text = snippet
    .replace(/\s+/gu, " ")
    .trim()
    .replace(/^(?:[-*+]|\d+[.)])\s+/u, "");
  if (text === "") return "(no snippet captured)";
  if (text.length <= limit) return text;
  const head = text.slice(0, limit);
  // The last sentence end inside the limit: a . ! or ? followed by a space (or by the cut itself).
  let sentence = -1;
  for (let at = head.length - 1; at >= 0 && sentence < 0; at--) {
    if (/[.!?]/u.test(head[at] ?? "") && /\s/u.test(text[at + 1] ?? " ")) sentence = at;
  }
  if (sentence >= 0 && sentence + 1 >= limit * 0.55) return `${head.slice(0, sentence + 1)}...`;
  const word = head.lastIndexOf(" ");
  if (word >= limit * 0.65) return `${head.slice(0, word)}...`;
  return `${head}...`;
}

/**
 * The annotations after a promoted bullet: the first three concept tags as its trigger, and an
 * importance from 3 to 10 (OpenClaw's code clamps at 3, whatever its docs say).
 *
 * @example
 * recallAnnotations(["travel", "ryokan", "kyoto", "march"], 0.88); // => "<!-- trigger: travel, ryokan, kyoto --> <!-- importance: 9 -->"
 */
export function recallAnnotations(tags: readonly string[], score: number): string {
  const trigger = tags
    .slice(0, 3)
    .map((tag) =>
      [
        ...tag
          .replace(/\s+/gu, " ")
          .replace(/[,;]|<!--|-->/gu, "")
          .trim(),
      ]
        .slice(0, 64)
        .join(""),
    )
    .filter((tag) => tag !== "")
    .join(", ");
  const importance = Math.min(Math.max(Math.round(score * 10), 3), 10);
  return `${trigger === "" ? "" : `<!-- trigger: ${trigger} --> `}<!-- importance: ${importance} -->`;
}

/** The section one apply appends: its heading, then a marker and a bullet per candidate. */
export function promotionSection(
  day: string,
  candidates: readonly PromotedCandidate[],
  visibleChars = VISIBLE_SNIPPET_CHARS,
): string {
  const entries = candidates.map((candidate) => {
    const citation =
      `[score=${candidate.score.toFixed(3)} signals=${candidate.signalCount} recalls=${candidate.recallCount} ` +
      `avg=${candidate.averageScore.toFixed(3)} source=${candidate.path}:${candidate.startLine}-${candidate.endLine}]`;
    return [
      `<!-- openclaw-memory-promotion:${candidate.key} -->`,
      `- ${visibleSnippet(candidate.snippet, visibleChars)} ${citation} ${recallAnnotations(candidate.conceptTags, candidate.score)}`,
    ].join("\n");
  });
  return [`## Promoted From Short-Term Memory (${day})`, "", ...entries, ""].join("\n");
}

/** The keys `MEMORY.md` already holds a promotion marker for: those are never appended again. */
export function promotedKeys(memoryFile: string): Set<string> {
  return new Set([...memoryFile.matchAll(MARKER)].map((match) => (match[1] ?? "").trim()));
}

/**
 * `MEMORY.md` with `section` appended: every byte of what was there stays, in order; an empty
 * file gets the header first; one blank line separates the section from the text before it.
 */
export function appendSection(memoryFile: string, section: string): string {
  if (memoryFile.trim() === "") return `${MEMORY_HEADER}${section}`;
  const separator = memoryFile.endsWith("\n\n") ? "" : memoryFile.endsWith("\n") ? "\n" : "\n\n";
  return `${memoryFile}${separator}${section}`;
}
