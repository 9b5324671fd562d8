/**
 * "Did you mean": the known name closest to a mistyped one, for error messages about unknown keys
 * and flags.
 *
 * @module
 */

/**
 * The known name nearest `given` — the same but for case, separators or up to two edits (a third
 * for names longer than eight letters) — or undefined when none is that close.
 *
 * @example
 * closestName("pth", ["path", "store", "policy"]); // => "path"
 * closestName("embedding_dims", ["embeddingDims"]); // => "embeddingDims"
 * closestName("zzz", ["path"]); // => undefined
 */
export function closestName(given: string, known: readonly string[]): string | undefined {
  const fold = (name: string) => name.toLowerCase().replace(/[-_\s]/gu, "");
  const target = fold(given);
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of known) {
    const distance = editDistance(target, fold(name));
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  const allowed = target.length > 8 ? 3 : target.length > 3 ? 2 : 1;
  return bestDistance <= allowed ? best : undefined;
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] as number;
}
