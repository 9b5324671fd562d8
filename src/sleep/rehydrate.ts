/**
 * Rehydration (`openclaw-dreaming.md` §8): before a recalled range is promoted, it is found again in
 * the live note. The recall store's lines may be stale — the note was edited since — so the stored
 * snippet is looked for where it was, and then in every window of up to `max(span + 3, 8)` lines:
 * an exact match is best (3), then a window that contains the snippet (2), then a snippet that
 * contains the window (1: the snippet carries its heading or list ancestors); the nearest start and
 * the closest span break ties. A range that overlaps a managed `<!-- openclaw:dreaming:… -->` block
 * is refused: sleep's own output is never promoted.
 *
 * Texts are compared as words (punctuation, Markdown marks and spacing dropped, case folded) and with credentials redacted on the live side too, as the store's copy is.
 *
 * Pure.
 *
 * @module
 */

export type RehydrateRefusal = "not-found" | "inside-fence";

export type Rehydrated =
  | { readonly found: true; readonly startLine: number; readonly endLine: number; readonly moved: boolean }
  | { readonly found: false; readonly reason: RehydrateRefusal };

export interface RangeToFind {
  readonly startLine: number;
  readonly endLine: number;
  readonly snippet: string;
}

const FENCE_START = /<!--\s*openclaw:dreaming:[\w-]+:start\s*-->/u;
const FENCE_END = /<!--\s*openclaw:dreaming:[\w-]+:end\s*-->/u;
const LIST_MARKER = /^(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/u;
/** A window shorter than this matches too much to say it is the snippet. */
const MIN_MATCH_CHARS = 8;

/**
 * @example
 * rehydrate("# Travel\n\n- book the ryokan by March\n", { startLine: 2, endLine: 2, snippet: "Travel: book the ryokan by March" }, (t) => t);
 * // => { found: true, startLine: 3, endLine: 3, moved: true }
 */
export function rehydrate(
  fileText: string,
  range: RangeToFind,
  redact: (text: string) => string,
): Rehydrated {
  const lines = fileText.replace(/\r\n?/gu, "\n").split("\n");
  const fenced = fencedLines(lines);
  const target = normalise(range.snippet.replace(/(?:…|\.\.\.)$/u, ""));
  if (target.length === 0) return { found: false, reason: "not-found" };
  // Each line redacted once, as the store's copy was, and without its list marker.
  const plain = lines.map((line) => redact(line.trim().replace(LIST_MARKER, "")));
  const headings = lines.flatMap((line, index) => (/^\s{0,3}#{1,6}\s/u.test(line) ? [index + 1] : []));
  const windowText = (start: number, end: number) => normalise(plain.slice(start - 1, end).join(" "));
  const quality = (start: number, end: number): number => {
    const text = windowText(start, end);
    if (text.length === 0) return 0;
    if (text === target) return 3;
    if (text.includes(target)) return 2;
    if (text.length >= MIN_MATCH_CHARS && target.includes(text)) return 1;
    return 0;
  };
  const overlapsFence = (start: number, end: number) => {
    for (let line = start; line <= end; line++) if (fenced.has(line)) return true;
    return false;
  };

  const span = range.endLine - range.startLine + 1;
  // Where it was, word for word: kept. Anything less is weighed against every other window, so a
  // blank line that moved into the old place does not pass for the range.
  if (
    range.endLine <= lines.length &&
    range.startLine >= 1 &&
    quality(range.startLine, range.endLine) === 3
  ) {
    return overlapsFence(range.startLine, range.endLine)
      ? { found: false, reason: "inside-fence" }
      : { found: true, startLine: range.startLine, endLine: range.endLine, moved: false };
  }
  const maxWindow = Math.max(span + 3, 8);
  let best: { start: number; end: number; quality: number } | undefined;
  for (let start = 1; start <= lines.length; start++) {
    for (let size = 1; size <= maxWindow && start + size - 1 <= lines.length; size++) {
      const end = start + size - 1;
      // A window starts and ends on a line with words: blank lines around a match add nothing.
      if ((plain[start - 1] ?? "").trim() === "" || (plain[end - 1] ?? "").trim() === "") continue;
      // Nor does it take in a heading: a snippet carries its heading as a prefix, never as a line.
      if (headings.some((line) => line >= start && line <= end)) break;
      const q = quality(start, end);
      if (q === 0) continue;
      if (best === undefined || better({ start, end, quality: q }, best, range.startLine, span)) {
        best = { start, end, quality: q };
      }
    }
  }
  if (best === undefined) return { found: false, reason: "not-found" };
  if (overlapsFence(best.start, best.end)) return { found: false, reason: "inside-fence" };
  const moved = best.start !== range.startLine || best.end !== range.endLine;
  return { found: true, startLine: best.start, endLine: best.end, moved };
}

function better(
  candidate: { start: number; end: number; quality: number },
  best: { start: number; end: number; quality: number },
  wantedStart: number,
  wantedSpan: number,
): boolean {
  if (candidate.quality !== best.quality) return candidate.quality > best.quality;
  const distance = (window: { start: number }) => Math.abs(window.start - wantedStart);
  if (distance(candidate) !== distance(best)) return distance(candidate) < distance(best);
  const spanGap = (window: { start: number; end: number }) =>
    Math.abs(window.end - window.start + 1 - wantedSpan);
  return spanGap(candidate) < spanGap(best);
}

/** 1-based numbers of the lines inside managed blocks, their markers included. */
function fencedLines(lines: readonly string[]): Set<number> {
  const fenced = new Set<number>();
  let open = false;
  lines.forEach((line, index) => {
    const starts = FENCE_START.test(line);
    if (starts || open) fenced.add(index + 1);
    if (starts) open = true;
    if (FENCE_END.test(line)) {
      fenced.add(index + 1);
      open = false;
    }
  });
  return fenced;
}

/** Words only: Markdown's marks (`**`, `- `, `:`) and spacing differ between a snippet and its lines. */
function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}
