/**
 * How alike two snippets are, for the light and REM phases' dedupe (0.9 and 0.88) and the diary's
 * coverage check: measured on content words (stemmed, synonyms folded, fillers dropped), so "Moved
 * the deploy to Thursday" and "moved deploys to thursday" are one claim whatever their spelling.
 *
 * @module
 */

import { contentTerms } from "../text/stem.js";

/** Texts whose words are kept: the phases compare each snippet with many others, and stemming is the cost. */
const CACHED_TEXTS = 4096;
const termsCache = new Map<string, ReadonlySet<string>>();

function termsOf(text: string): ReadonlySet<string> {
  let terms = termsCache.get(text);
  if (terms === undefined) {
    if (termsCache.size >= CACHED_TEXTS) termsCache.clear();
    terms = contentTerms(text);
    termsCache.set(text, terms);
  }
  return terms;
}

/** Jaccard similarity of the two texts' content words, 0–1 (two texts without any: 1 if equal). */
export function snippetSimilarity(a: string, b: string): number {
  const left = termsOf(a);
  const right = termsOf(b);
  if (left.size === 0 || right.size === 0) return a.trim().toLowerCase() === b.trim().toLowerCase() ? 1 : 0;
  let shared = 0;
  for (const term of left) if (right.has(term)) shared++;
  return shared / (left.size + right.size - shared);
}

/** The share of `part`'s content words that `whole` holds, 0–1: whether a diary entry already tells it. */
export function containment(part: string, whole: string): number {
  const terms = termsOf(part);
  if (terms.size === 0) return 0;
  const within = termsOf(whole);
  let held = 0;
  for (const term of terms) if (within.has(term)) held++;
  return held / terms.size;
}
