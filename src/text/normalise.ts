/**
 * Canonical text for exact-duplicate detection: two memories that differ only in case, spacing,
 * quote style or a closing full stop get the same content hash.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { straightenQuotes } from "./quotes.js";

const WHITESPACE_RUN = /\s+/gu;
// `.!?;` end a sentence without changing what it says; `,` and `:` are left alone because a
// trailing one usually means the text was cut off, which is worth keeping distinct.
const TRAILING_SENTENCE_PUNCTUATION = /[.!?;\s]+$/u;

/**
 * Folds `text` to the form used for exact-duplicate detection: Unicode NFKC, straight quotes,
 * lower case, single spaces, no leading/trailing space and no trailing sentence punctuation.
 *
 * @example
 * normaliseText("  User prefers  “TypeScript”. "); // => 'user prefers "typescript"'
 */
export function normaliseText(text: string): string {
  // NFKC first: it turns full-width letters, ligatures and "…" into plain forms the later steps
  // recognise (an ellipsis becomes "...", which is then dropped as trailing punctuation).
  return straightenQuotes(text.normalize("NFKC"))
    .toLowerCase()
    .replace(WHITESPACE_RUN, " ")
    .replace(TRAILING_SENTENCE_PUNCTUATION, "")
    .trim();
}

/**
 * SHA-256 (hex) of `normaliseText(text)`: equal hashes mean "the same memory, written differently".
 *
 * @example
 * contentHash("User prefers TypeScript.") === contentHash("  user prefers  typescript "); // => true
 * contentHash("User prefers TypeScript.") === contentHash("User prefers Python"); // => false
 */
export function contentHash(text: string): string {
  return createHash("sha256").update(normaliseText(text), "utf8").digest("hex");
}
