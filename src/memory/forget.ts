/**
 * `forget`: delete what a query describes, but only when the best match is clearly the one meant —
 * otherwise return the candidates and delete nothing, as Mem0's forget skill asks before deleting.
 *
 * @module
 */

import type { MemoryContext } from "../core/context.js";
import { LucidError } from "../errors.js";
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
  const minScore = unitInterval(options.minScore ?? DEFAULT_FORGET_MIN_SCORE, "minScore");
  const margin = unitInterval(options.margin ?? DEFAULT_FORGET_MARGIN, "margin");
  const { minScore: _minScore, margin: _margin, ...searchOptions } = options;
  const { results } = await searchMemories(context, query, {
    ...searchOptions,
    topK: options.topK ?? 5,
    threshold: 0,
  });
  const [best, runnerUp] = results;
  const clear =
    best !== undefined &&
    (best.score ?? 0) >= minScore &&
    (runnerUp === undefined || (best.score ?? 0) - (runnerUp.score ?? 0) >= margin);
  if (!clear) return { deleted: null, candidates: results };
  await deleteMemory(context, best.id);
  return { deleted: best, candidates: results };
}

function unitInterval(value: unknown, name: string): number {
  if (typeof value !== "number" || !(value >= 0 && value <= 1)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `${name} must be a number from 0 to 1, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}
