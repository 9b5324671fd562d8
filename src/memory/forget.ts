/**
 * `forget`: delete what a query describes, but only when the best match is clearly the one meant —
 * otherwise return the candidates and delete nothing, as Mem0's forget skill asks before deleting.
 *
 * Clearly meant: the best match scores at least `minScore`, beats the next by `margin`, and shares
 * a content word with the query. A query with no content word at all — stop words, pronouns and
 * vague words ("that", "something important", "the thing I said") — describes nothing, so it never
 * deletes, however its vector happens to land: a sentence embedding puts every text somewhere.
 *
 * @module
 */

import type { MemoryContext } from "../core/context.js";
import { checkUnitInterval } from "../core/inputs.js";
import { keywordTerms } from "../text/keywords.js";
import { stemWord } from "../text/stem.js";
import { deleteMemory } from "./delete.js";
import { searchMemories } from "./search.js";
import type { ForgetOptions, ForgetResult } from "./types.js";

export const DEFAULT_FORGET_MIN_SCORE = 0.4;
export const DEFAULT_FORGET_MARGIN = 0.1;

export async function forgetMemory(
  context: MemoryContext,
  query: string,
  options: ForgetOptions = {},
): Promise<ForgetResult> {
  const minScore = checkUnitInterval(options.minScore ?? DEFAULT_FORGET_MIN_SCORE, "minScore");
  const margin = checkUnitInterval(options.margin ?? DEFAULT_FORGET_MARGIN, "margin");
  const { minScore: _minScore, margin: _margin, ...searchOptions } = options;
  const { results } = await searchMemories(context, query, {
    ...searchOptions,
    topK: options.topK ?? 5,
    threshold: 0,
  });
  const [best, runnerUp] = results;
  const wanted = describingTerms(query);
  const clear =
    best !== undefined &&
    wanted.length > 0 &&
    sharesTerm(wanted, best.memory) &&
    (best.score ?? 0) >= minScore &&
    (runnerUp === undefined || (best.score ?? 0) - (runnerUp.score ?? 0) >= margin);
  if (!clear) return { deleted: null, candidates: results };
  await deleteMemory(context, best.id);
  return { deleted: best, candidates: results };
}

/** Words that point at a memory without saying which: on their own they describe nothing. */
const VAGUE = new Set(
  (
    "something anything everything nothing thing things stuff one ones important earlier before " +
    "said told mentioned remember remembered memory memories note notes fact facts info information " +
    "forget delete remove erase"
  ).split(" "),
);

/** The query's content words, without the vague ones. */
function describingTerms(query: string): string[] {
  return keywordTerms(query).filter((term) => !VAGUE.has(term));
}

/** Whether `text` has one of `terms`, allowing for an ending ("dogs" / "dog", "moved" / "move"). */
function sharesTerm(terms: readonly string[], text: string): boolean {
  const own = new Set(keywordTerms(text).map(stemWord));
  return terms.some((term) => own.has(stemWord(term)));
}
