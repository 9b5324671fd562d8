/**
 * Opposite states: the two values of a switch ("turned on" / "off by default", "enabled" /
 * "disabled", "dark mode" / "light mode", "public" / "private"). Two memories that differ only in
 * one of these say opposite things, however alike their words and vectors are, so they are never
 * merged; with nothing else telling them apart, they are one slot with two values.
 *
 * @module
 */

/** Each pair's two states, as written (lower case). Closed-class words: a switch has two sides. */
const OPPOSITES: readonly (readonly [string, string])[] = [
  ["on", "off"],
  ["enabled", "disabled"],
  ["enable", "disable"],
  ["allowed", "forbidden"],
  ["allowed", "blocked"],
  ["public", "private"],
  ["required", "optional"],
  ["mandatory", "optional"],
  ["true", "false"],
  ["online", "offline"],
  ["visible", "hidden"],
  ["automatic", "manual"],
  ["automatically", "manually"],
  ["dark", "light"],
  ["open", "closed"],
  ["synchronous", "asynchronous"],
  ["sync", "async"],
];

const WORD = /[\p{L}]+/gu;
const STATE_WORDS: ReadonlySet<string> = new Set(OPPOSITES.flat());
// A dream compares each memory with its neighbours: its state words are read once, not per pair.
const CACHE = new Map<string, ReadonlySet<string>>();
const CACHE_LIMIT = 50_000;

/** The state words of a text, lower case. */
function stateWordsOf(text: string): ReadonlySet<string> {
  let words = CACHE.get(text);
  if (words === undefined) {
    words = new Set((text.toLowerCase().match(WORD) ?? []).filter((word) => STATE_WORDS.has(word)));
    if (CACHE.size >= CACHE_LIMIT) CACHE.clear();
    CACHE.set(text, words);
  }
  return words;
}

/**
 * "on ≠ off" when one text holds one state of a pair and the other text only the opposite one.
 *
 * @example
 * oppositeStates("Push notifications are on by default", "Push notifications are off by default");
 * // => "on ≠ off"
 */
export function oppositeStates(a: string, b: string): string | undefined {
  return opposedPair(a, b)?.join(" ≠ ");
}

/**
 * The two states that oppose each other, as written on each side, or undefined.
 *
 * @example
 * opposedPair("Two-factor login is enabled", "Two-factor login is disabled"); // => ["enabled", "disabled"]
 */
export function opposedPair(a: string, b: string): readonly [string, string] | undefined {
  const wordsA = stateWordsOf(a);
  const wordsB = stateWordsOf(b);
  if (wordsA.size === 0 || wordsB.size === 0) return undefined;
  for (const [x, y] of OPPOSITES) {
    const aSide = wordsA.has(x) && !wordsA.has(y) ? x : wordsA.has(y) && !wordsA.has(x) ? y : undefined;
    const bSide = wordsB.has(x) && !wordsB.has(y) ? x : wordsB.has(y) && !wordsB.has(x) ? y : undefined;
    if (aSide !== undefined && bSide !== undefined && aSide !== bSide) return [aSide, bSide];
  }
  return undefined;
}
