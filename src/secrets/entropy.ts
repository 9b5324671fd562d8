/**
 * Shannon entropy and character-class counts: the measures the generic rules use to tell a random
 * token from a word.
 *
 * @module
 */

/**
 * Bits per character of `value`'s own character distribution (0 for one repeated character,
 * log2(length) at most).
 *
 * @example
 * shannonEntropy("aaaa"); // 0
 * shannonEntropy("abcd"); // 2
 */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<number, number>();
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

export interface CharClasses {
  readonly lower: boolean;
  readonly upper: boolean;
  readonly digit: boolean;
  /** Anything else except `-`, `_` and `.`, which join words in identifiers and slugs. */
  readonly symbol: boolean;
}

/**
 * Which character classes occur in `value`.
 *
 * @example
 * charClasses("hunter2!x"); // { lower: true, upper: false, digit: true, symbol: true }
 */
export function charClasses(value: string): CharClasses {
  let lower = false;
  let upper = false;
  let digit = false;
  let symbol = false;
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code >= 97 && code <= 122) lower = true;
    else if (code >= 65 && code <= 90) upper = true;
    else if (code >= 48 && code <= 57) digit = true;
    else if (code !== 45 && code !== 95 && code !== 46) symbol = true;
  }
  return { lower, upper, digit, symbol };
}

/** True when every character is a hexadecimal digit. */
export function isHex(value: string): boolean {
  return /^[0-9a-fA-F]+$/.test(value);
}
