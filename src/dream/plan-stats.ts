/**
 * The counts of a plan, from its actions.
 *
 * @module
 */

import { DELETE_REASONS, type DeleteReason, type DreamAction, type PlanStats } from "./plan.js";

/**
 * @example
 * planStats(actions, { reviewed: 120, pinnedSkipped: 2, elapsedMs: 35 });
 * // => { reviewed: 120, deletes: { credential: 1, noise: 4, expired: 3, low_confidence: 0 }, merges: 2, merged: 5, … }
 */
export function planStats(
  actions: readonly DreamAction[],
  counts: { reviewed: number; pinnedSkipped: number; elapsedMs: number },
): PlanStats {
  const deletes = Object.fromEntries(DELETE_REASONS.map((reason) => [reason, 0])) as Record<
    DeleteReason,
    number
  >;
  let merges = 0;
  let merged = 0;
  let conflicts = 0;
  let rewrites = 0;
  for (const action of actions) {
    if (action.kind === "delete") deletes[action.reason] += 1;
    else if (action.kind === "merge") {
      merges += 1;
      merged += action.ids.length;
    } else if (action.kind === "conflict") conflicts += 1;
    else rewrites += 1;
  }
  return {
    reviewed: counts.reviewed,
    deletes,
    merges,
    merged,
    conflicts,
    rewrites,
    pinnedSkipped: counts.pinnedSkipped,
    elapsedMs: counts.elapsedMs,
  };
}
