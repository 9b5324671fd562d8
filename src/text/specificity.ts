/**
 * What makes a memory specific: the details a vague note lacks. Mem0's dream skill prunes a
 * low-confidence memory only when it has "nothing project-unique (no paths/identifiers/domain
 * nouns)"; Lucid counts entities (paths, identifiers, packages, versions, URLs, proper nouns,
 * quoted titles), numbers and domain nouns.
 *
 * @module
 */

import { isDomainTerm } from "./domain-terms.js";
import { extractEntities } from "./entities.js";
import { straightenQuotes } from "./quotes.js";

export interface SpecificDetail {
  readonly kind: "entity" | "number" | "domain_term";
  readonly text: string;
}

const NUMBER = /\p{N}+(?:[.,:]\p{N}+)*/gu;
const WORD = /\p{L}+/gu;

/**
 * The specific details in `text`, entities first; `[]` means the text says nothing in particular.
 *
 * @example
 * specificDetails("User might like something like that"); // => []
 * specificDetails("User deploys billing-api at 9am");
 * // => [{ kind: "entity", text: "billing-api" }, { kind: "number", text: "9" }, { kind: "domain_term", text: "deploys" }…]
 */
export function specificDetails(text: string): SpecificDetail[] {
  const details: SpecificDetail[] = extractEntities(text).map((entity) => ({
    kind: "entity",
    text: entity.name,
  }));
  for (const match of text.matchAll(NUMBER)) details.push({ kind: "number", text: match[0] });
  const seen = new Set<string>();
  for (const match of straightenQuotes(text).toLowerCase().matchAll(WORD)) {
    const word = match[0];
    if (seen.has(word) || !isDomainTerm(word)) continue;
    seen.add(word);
    details.push({ kind: "domain_term", text: word });
  }
  return details;
}
