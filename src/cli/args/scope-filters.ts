import { SCOPE_KEY_OF_OPTION, type ScopeOptions } from "../../core/scope.js";
import type { Filters } from "../../filters/filter.js";

/**
 * Scope flags and `--filters` as one filter, for commands where a scope is optional (`export`,
 * `scan`): undefined when neither narrows anything, meaning every memory.
 */
export function scopeAndFilters(scope: ScopeOptions, filters: Filters | undefined): Filters | undefined {
  const scopeFilters: Filters = {};
  for (const [option, column] of Object.entries(SCOPE_KEY_OF_OPTION)) {
    const value = scope[option as keyof ScopeOptions];
    if (value !== undefined) scopeFilters[column] = value;
  }
  const hasScope = Object.keys(scopeFilters).length > 0;
  if (filters === undefined) return hasScope ? scopeFilters : undefined;
  return hasScope ? { AND: [scopeFilters, filters] } : filters;
}
