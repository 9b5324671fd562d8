/**
 * The plan as JSON: the documented, versioned form (docs/dream-plan.md) that `--json` prints and
 * `apply` reads back. Keys come out in the order the planner builds them, which is fixed, so the
 * same plan always gives the same bytes.
 *
 * @module
 */

import type { DreamPlan } from "./plan.js";

/**
 * @example
 * renderPlanJson(plan); // '{\n  "version": 1,\n  "scope": { … },\n  …\n}\n'
 */
export function renderPlanJson(plan: DreamPlan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}
