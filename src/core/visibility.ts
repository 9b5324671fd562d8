import { ttlDaysByCategory } from "../policy/categories.js";
import type { Visibility } from "../store/ports/memories.js";
import type { MemoryContext } from "./context.js";

/** Which memories are live now, by the context's clock and the policy's category TTLs. */
export function policyVisibility(context: MemoryContext): Visibility {
  return {
    now: context.clock.now().toISOString(),
    ttlDaysByCategory: ttlDaysByCategory(context.policy.categories),
  };
}

/** The expiry rule for a read, or undefined when the caller asked to see expired memories too. */
export function readVisibility(
  context: MemoryContext,
  showExpired: boolean | undefined,
): Visibility | undefined {
  return showExpired === true ? undefined : policyVisibility(context);
}
