/**
 * A line diff of two texts (MEMORY.md before and after a promotion) by the longest common
 * subsequence: small files, so the quadratic table is fine, and no library is needed.
 *
 * @module
 */

export interface DiffLine {
  readonly kind: "same" | "added" | "removed";
  readonly text: string;
}

/** @example lineDiff("a\nb", "a\nc") // => [same a, removed b, added c] */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  // common[i][j]: the LCS length of a[i..] and b[j..].
  const common = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    const row = common[i] as Uint32Array;
    const below = common[i + 1] as Uint32Array;
    for (let j = b.length - 1; j >= 0; j--) {
      row[j] =
        a[i] === b[j] ? (below[j + 1] as number) + 1 : Math.max(below[j] as number, row[j + 1] as number);
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      lines.push({ kind: "same", text: a[i++] as string });
      j++;
    } else if ((common[i + 1]?.[j] ?? 0) >= (common[i]?.[j + 1] ?? 0)) {
      lines.push({ kind: "removed", text: a[i++] as string });
    } else {
      lines.push({ kind: "added", text: b[j++] as string });
    }
  }
  while (i < a.length) lines.push({ kind: "removed", text: a[i++] as string });
  while (j < b.length) lines.push({ kind: "added", text: b[j++] as string });
  return lines;
}

/** Lines without the empty one a final newline leaves. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}
