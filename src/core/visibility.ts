import { ttlDaysByCategory } from "../policy/categories.js";
import type { Visibility } from "../store/ports/memories.js";
import { referenceInstant } from "../text/expiry-date.js";
import type { MemoryContext } from "./context.js";

/**
 * Which memories are live now (or at `at`, an ISO instant), by the context's clock and the policy's
 * category TTLs.
 */
export function policyVisibility(context: MemoryContext, at?: string): Visibility {
  return {
    now: at ?? context.clock.now().toISOString(),
    ttlDaysByCategory: ttlDaysByCategory(context.policy.categories),
  };
}

/** The expiry rule for a read, or undefined when the caller asked to see expired memories too. */
export function readVisibility(
  context: MemoryContext,
  showExpired: boolean | undefined,
  referenceDate?: string | Date,
): Visibility | undefined {
  if (showExpired === true) return undefined;
  const at =
    referenceDate === undefined
      ? undefined
      : referenceInstant(referenceDate, "referenceDate", context.timeZone);
  return policyVisibility(context, at);
}
