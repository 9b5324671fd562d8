/**
 * Opposed statements: one memory affirms what another denies ("Maria likes horror movies" /
 * "Maria doesn't like horror movies"; "Maria drinks coffee every morning" / "Maria no longer drinks
 * coffee"). Read from the words, for any predicate, when the denial says nothing the affirmation
 * does not: denying a general statement contradicts a specific one, but "likes jazz" and "does
 * not like jazz festivals" are both true.
 *
 * @module
 */

import { foldWord } from "../../../text/stem.js";
import { comparePair } from "./compare.js";
import type { MemoryFeatures } from "./features.js";

// Words that only carry the polarity; "dislikes" and "hates" deny "likes".
const POLARITY_ONLY = new Set(
  ["never", "longer", "anymore", "avoid", "stop", "quit", "gave", "give"].map(foldWord),
);
const DENIALS: Readonly<Record<string, string>> = {
  [foldWord("dislike")]: foldWord("like"),
  [foldWord("hate")]: foldWord("like"),
};
/** The denial must name its subject and predicate at least: "doesn't" alone denies nothing in particular. */
const MIN_DENIED_TERMS = 2;

export interface Opposition {
  readonly affirmed: MemoryFeatures;
  readonly denied: MemoryFeatures;
}

/**
 * Which of the two affirms and which denies the same statement, or undefined.
 *
 * @example
 * opposedStatements(features("Maria likes horror movies"), features("Maria doesn't like horror movies"));
 * // => { affirmed: …"Maria likes horror movies", denied: …"Maria doesn't like horror movies" }
 */
export function opposedStatements(a: MemoryFeatures, b: MemoryFeatures): Opposition | undefined {
  if (a.details.negated === b.details.negated) return undefined;
  const [affirmed, denied] = a.details.negated ? [b, a] : [a, b];
  const deniedTerms = statementTerms(denied);
  const affirmedTerms = new Set(statementTerms(affirmed));
  if (deniedTerms.length < MIN_DENIED_TERMS || !deniedTerms.every((term) => affirmedTerms.has(term)))
    return undefined;
  // Anything else that tells them apart (a name, a number, a place) makes them two statements.
  // ("No longer" is a change cue as well as a denial: it opposes the statement, it does not add one.)
  const others = comparePair(a, b).refusals.filter(
    (refusal) => refusal.reason !== "negation" && refusal.reason !== "change",
  );
  return others.length === 0 ? { affirmed, denied } : undefined;
}

function statementTerms(features: MemoryFeatures): string[] {
  return [...features.terms].filter((term) => !POLARITY_ONLY.has(term)).map((term) => DENIALS[term] ?? term);
}
