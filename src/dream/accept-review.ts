/**
 * A person's "yes" to review items: the plan with the proposals of the accepted review items moved
 * into its actions, parsed again (so an accepted item is checked as every action is). What the
 * interactive `lucid dream` and the REST API's apply both do with `accept`.
 *
 * @module
 */

import { parsePlan } from "./parse-plan.js";
import type { DreamPlan } from "./plan.js";

/** `accepted` holds indices into `plan.review`; the items not accepted stay for review. */
export function acceptReview(plan: DreamPlan, accepted: readonly number[]): DreamPlan {
  if (accepted.length === 0) return plan;
  const chosen = new Set(accepted);
  return parsePlan({
    ...plan,
    actions: [
      ...plan.actions,
      ...plan.review.filter((_, index) => chosen.has(index)).map((item) => item.proposal),
    ],
    review: plan.review.filter((_, index) => !chosen.has(index)),
  });
}
