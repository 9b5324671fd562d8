import { ttlDaysByCategory } from "../policy/categories.js";
import type { Visibility } from "../store/store.js";
import type { MemoryContext } from "./context.js";

/** Which memories are live now, by the context's clock and category TTLs. */
export function policyVisibility(context: MemoryContext): Visibility {
  return { now: context.clock.now().toISOString(), ttlDaysByCategory: ttlDaysByCategory(context.categories) };
}
