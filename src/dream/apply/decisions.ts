/**
 * What a person (or `--auto`) decided about a plan before it is applied.
 *
 * @module
 */

import type { ConflictAction, DreamAction } from "../plan.js";

export const CONFLICT_CHOICES = ["A", "B", "skip"] as const;
export type ConflictChoice = (typeof CONFLICT_CHOICES)[number];

export const APPLY_MODES = ["interactive", "auto", "yes", "sdk"] as const;
export type ApplyMode = (typeof APPLY_MODES)[number];

export interface ApplyDecisions {
  /**
   * Each conflict's resolution, keyed by `conflictKey(action)`: `A` keeps the first memory and
   * deletes the second, `B` the reverse, `skip` (or no entry) leaves both.
   */
  readonly conflicts?: Readonly<Record<string, ConflictChoice>>;
  /** The action kinds to apply (default: all). `--auto` applies deletions, merges and rewrites. */
  readonly include?: readonly DreamAction["kind"][];
  /**
   * Actions a person said no to, by their index in `plan.actions`: left as they are, and reported
   * as skipped ("declined"). A reviewer's "not this merge" without leaving out every merge.
   */
  readonly decline?: readonly number[];
}

/** A conflict's key in `ApplyDecisions.conflicts`: its two ids in plan order. */
export function conflictKey(action: ConflictAction): string {
  return `${action.ids[0]}:${action.ids[1]}`;
}

/** The decisions `--auto` takes: everything but conflicts, which it leaves for a person. */
export const AUTO_DECISIONS: ApplyDecisions = Object.freeze({
  include: Object.freeze(["delete", "merge", "rewrite"] as const),
});
