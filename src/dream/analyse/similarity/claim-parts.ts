/**
 * Reading the subject and the value out of a matched claim template.
 *
 * @module
 */

import { keywordTerms } from "../../../text/keywords.js";
import { stemWord } from "../../../text/stem.js";
import { VALUE_ALIASES } from "./claim-vocabulary.js";
import { ENVIRONMENTS, RELATIONS } from "./lexicon.js";

export interface Part {
  /** Comparable form. */
  readonly key: string;
  /** As written (trimmed). */
  readonly text: string;
  /** For a value: what follows it ("for the legacy-portal project"), which qualifies the claim. */
  readonly rest?: string;
}

// Where a value ends: a clause, a qualifier or a time phrase starts ("deploys to Fly.io from the
// main branch", "works at Shopify since 2026", "uses pnpm as the package manager").
const VALUE_END =
  /\s*(?:[,;(]| - | (?:in|on|at|since|from|via|with|for|every|each|and|but|because|when|while|after|before|until|during|over|instead|rather|using|through|to|as|most|now|nowadays|these|again|today|daily|weekly)\b)/iu;
const LEADING_DETERMINER = /^(?:the|a|an|their|his|her|its|our|User's)\s+/iu;
const TITLE = /^(?:dr|mr|mrs|ms|prof)\.?\s+/iu;
const QUOTES = /^["'`]+|["'`]+$/gu;
const USER = /^(?:the )?(?:user|i|me)$/iu;
const NAME_RUN = /\p{Lu}[\p{L}-]*(?:\s+\p{Lu}[\p{L}-]*)*/gu;
// A subject with more content words than this is a misread sentence, not a subject.
const MAX_SUBJECT_TERMS = 5;

/**
 * The value at the start of `raw`, up to where its phrase ends, or undefined if nothing is left.
 *
 * @example
 * readValue("Fly.io from the main branch"); // => { key: "fly.io", text: "Fly.io" }
 */
export function readValue(raw: string): Part | undefined {
  const end = VALUE_END.exec(raw);
  const text = (end === null ? raw : raw.slice(0, end.index))
    .trim()
    .replace(LEADING_DETERMINER, "")
    .replace(TITLE, "")
    .replace(QUOTES, "")
    .trim();
  if (text.length === 0) return undefined;
  const lower = text.toLowerCase().replace(/\s+/gu, " ");
  const rest = end === null ? "" : raw.slice(end.index).trim();
  return { key: VALUE_ALIASES[lower] ?? lower, text, rest };
}

/**
 * The subject of a claim. "User", "I" and "the user" are one subject; a relative named in
 * apposition is that person ("Maria's sister Ana" → "ana"); otherwise the stemmed content words
 * without environment words (which the claim keeps separately).
 *
 * @example
 * readSubject("The payments team"); // => { key: "payment team", text: "the payments team" }
 * readSubject("Ana, Maria's sister"); // => { key: "ana", text: "Ana" }
 */
export function readSubject(raw: string): Part | undefined {
  const text = raw.trim().replace(/,$/u, "");
  if (USER.test(text)) return { key: "user", text: "User" };
  const relative = namedRelative(text);
  if (relative !== undefined) return { key: relative.toLowerCase(), text: relative };
  // Names are not inflected: "Jonas" must stay "jonas" to meet the "Jonas" read from an apposition.
  const names = new Set((text.match(/\p{Lu}[\p{L}\p{N}]*/gu) ?? []).map((name) => name.toLowerCase()));
  const terms = keywordTerms(text)
    .filter((term) => ENVIRONMENTS[term] === undefined)
    .map((term) => (names.has(term) ? term : stemWord(term)));
  if (terms.length > MAX_SUBJECT_TERMS) return undefined;
  return { key: [...new Set(terms)].sort().join(" "), text: text.replace(/^the\s+/iu, "") };
}

/** "Maria's sister Ana", "Ana, Maria's sister": the one name that is not a possessor. */
function namedRelative(text: string): string | undefined {
  const words = text.toLowerCase().match(/[a-z]+/gu) ?? [];
  if (
    !words.some((word) => RELATIONS[word] !== undefined || RELATIONS[word.replace(/s$/u, "")] !== undefined)
  ) {
    return undefined;
  }
  const names: string[] = [];
  for (const match of text.matchAll(NAME_RUN)) {
    const after = text.slice(match.index + match[0].length);
    if (/^'s?\b/u.test(after) || match[0] === "User") continue;
    names.push(match[0]);
  }
  return names.length === 1 ? names[0] : undefined;
}
