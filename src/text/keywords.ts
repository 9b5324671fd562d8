/**
 * Keyword terms of a query: what a store's full-text index is asked to match.
 *
 * @module
 */

import { straightenQuotes } from "./quotes.js";
import { STOP_WORDS } from "./stop-words.js";

// A word starts with a letter or digit (never a lone combining mark, which FTS5's unicode61
// tokenizer would strip to nothing) and may carry internal apostrophes: "o'brien", "don't".
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*(?:'[\p{L}\p{N}][\p{L}\p{N}\p{M}]*)*/gu;
const POSSESSIVE = /'s$/u;
const DIGITS = /^\p{N}+$/u;

/**
 * Most terms a query keeps. A pasted document as a query would otherwise become a thousand-way OR
 * that is slow to evaluate and ranks by noise; the first terms carry the question.
 */
export const MAX_MATCH_TERMS = 64;

/**
 * Lower-cased content words of `text`, in order of first appearance, without duplicates, at most
 * {@link MAX_MATCH_TERMS}.
 *
 * Stop words ({@link STOP_WORDS}) are removed; so are one-character words except numbers ("7",
 * "2023" are kept). Possessive `'s` is dropped ("user's" → "user"); other internal apostrophes
 * stay, which is harmless because FTS5 splits the quoted term the same way it split the stored
 * text. No stemming: the FTS5 table's porter tokenizer does that on both sides.
 *
 * @example
 * keywordTerms("What does the user's dog eat?"); // => ["user", "dog", "eat"]
 */
export function keywordTerms(text: string): string[] {
  const terms = new Set<string>();
  for (const match of straightenQuotes(text).toLowerCase().matchAll(WORD)) {
    const word = match[0];
    if (STOP_WORDS.has(word)) continue;
    const term = word.replace(POSSESSIVE, "");
    if (term.length < 2 && !DIGITS.test(term)) continue;
    if (STOP_WORDS.has(term)) continue;
    terms.add(term);
    if (terms.size === MAX_MATCH_TERMS) break;
  }
  return [...terms];
}
