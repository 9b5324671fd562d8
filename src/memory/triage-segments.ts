/**
 * A user message cut for triage: fenced code, paragraphs that read as program output (logs,
 * stack traces, JSON, diffs), and the prose between, which alone is read sentence by sentence.
 *
 * @module
 */

export type Segment = { kind: "prose" | "code" | "tool_output"; text: string };

const FENCE = /```[\s\S]*?(?:```|$)/gu;

/** A message cut into paragraphs, fenced code and paragraphs that read as program output. */
export function segments(content: string): Segment[] {
  const result: Segment[] = [];
  let last = 0;
  for (const match of content.matchAll(FENCE)) {
    result.push(...paragraphs(content.slice(last, match.index)));
    result.push({ kind: "code", text: match[0] });
    last = (match.index ?? 0) + match[0].length;
  }
  result.push(...paragraphs(content.slice(last)));
  return result;
}

function paragraphs(text: string): Segment[] {
  return text
    .split(/\n\s*\n/u)
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => ({ kind: looksLikeOutput(part) ? "tool_output" : "prose", text: part }));
}

// Lines as programs print them: stack frames, prompts, diffs, log stamps, key=value dumps,
// brackets, statements ending in `;` or `{`, tables aligned with runs of spaces.
const OUTPUT_LINE =
  /^\s*(?:at\s+\S+|\$\s|>\s|[+-]{1,3}\s|@@|#\d|\d{2}:\d{2}:\d{2}|\d{4}-\d{2}-\d{2}[T ]\d{2}:|[[{(<|]|(?:error|warn(?:ing)?|info|debug|traceback|exception)\b[:\s[]|\S+=\S+(?:\s+\S+=\S+)+|.*[{};]\s*$|.*\S\s{3,}\S)/iu;

function looksLikeOutput(text: string): boolean {
  const trimmed = text.trim();
  if (/^[[{]/u.test(trimmed)) {
    try {
      JSON.parse(trimmed);
      return true;
    } catch {
      // not JSON: read as text below
    }
  }
  const lines = trimmed.split("\n").filter((line) => line.trim() !== "");
  if (lines.length >= 2 && lines.filter((line) => OUTPUT_LINE.test(line)).length / lines.length >= 0.5) {
    return true;
  }
  const letters = trimmed.match(/[\p{L}\s]/gu)?.length ?? 0;
  return trimmed.length >= 20 && letters / trimmed.length < 0.7;
}
