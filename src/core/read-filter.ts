/**
 * The filter of a read (`search`, `getAll`, `deleteAll`, `forget`): the caller's `filters`, AND-ed
 * with any scope given as camelCase options, and the scope it must name.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import { type FilterNode, type Filters, filterNode } from "../filters/filter.js";
import { parseFilters } from "../filters/parse-filters.js";
import { scopeOf } from "../filters/scope-of-filters.js";
import {
  requireScope,
  SCOPE_KEYS,
  SCOPE_OPTION_NAMES,
  type ScopeKey,
  type ScopeOptions,
  scopeValue,
} from "./scope.js";

/**
 * Mem0 rejects scope options in reads; accepting them is friendlier and cannot widen the scope,
 * since they only add conditions. Scope values are normalised as `add` stores them (trimmed, a
 * number as its string, blank or spaced ids refused), so `"  alice  "` finds what `add` filed
 * under `alice`. One key given twice with different values (`userId` and `filters.user_id`, or
 * `user_id` and `userId` in `filters`) is an error, not an AND that matches nothing. A read that
 * fixes no scope key is `SCOPE_REQUIRED`.
 *
 * @throws LucidError `INVALID_FILTER` for a bad scope id or two values of one key.
 * @example
 * readFilter({ userId: "alice", filters: { category: "rule" } }, "search");
 */
export function readFilter(options: ScopeOptions & { filters?: Filters }, verb: string): FilterNode {
  const filters = normaliseScopeFilters(options.filters ?? {});
  const extra: Record<string, unknown> = {};
  for (const key of SCOPE_KEYS) {
    const value = readScopeValue(key, options[SCOPE_OPTION_NAMES[key]]);
    if (value === undefined) continue;
    const inFilters = filters[key];
    if ((typeof inFilters === "string" && inFilters !== value) || isDifferentEq(inFilters, value)) {
      throw twoValues(
        key,
        `${SCOPE_OPTION_NAMES[key]} ${JSON.stringify(value)}`,
        `filters.${key} ${JSON.stringify(inFilters)}`,
      );
    }
    extra[key] = value;
  }
  const node = andFlat([parseFilters(extra), parseFilters(filters)]);
  requireScope(scopeOf(node), verb);
  return node;
}

/**
 * `filters` with each scope key's values normalised, and camelCase scope keys (`userId`, which a
 * Mem0 caller may put in `filters` too) read as their snake_case key.
 */
function normaliseScopeFilters(filters: Filters): Filters {
  // Anything but a plain object is for the filter parser to refuse, with its own message.
  if (typeof filters !== "object" || filters === null || Array.isArray(filters)) return filters;
  const out: Record<string, unknown> = { ...filters };
  for (const key of SCOPE_KEYS) {
    const camel = SCOPE_OPTION_NAMES[key];
    if (Object.hasOwn(out, camel)) {
      const alias = normaliseCondition(key, out[camel]);
      delete out[camel];
      const given = Object.hasOwn(out, key) ? normaliseCondition(key, out[key]) : undefined;
      if (given !== undefined && JSON.stringify(given) !== JSON.stringify(alias)) {
        throw twoValues(
          key,
          `filters.${key} ${JSON.stringify(given)}`,
          `filters.${camel} ${JSON.stringify(alias)}`,
        );
      }
      out[key] = alias;
    } else if (Object.hasOwn(out, key)) {
      out[key] = normaliseCondition(key, out[key]);
    }
  }
  return out as Filters;
}

/** A scope condition with its ids normalised: a plain id, or the operands of `eq`, `ne`, `in`, `nin`. */
function normaliseCondition(key: ScopeKey, condition: unknown): unknown {
  if (typeof condition === "string" || typeof condition === "number") return readScopeValue(key, condition);
  if (typeof condition !== "object" || condition === null || Array.isArray(condition)) return condition;
  const out: Record<string, unknown> = { ...condition };
  for (const operator of ["eq", "ne"]) {
    const operand = out[operator];
    if (typeof operand === "string" || typeof operand === "number")
      out[operator] = readScopeValue(key, operand);
  }
  for (const operator of ["in", "nin"]) {
    const operands = out[operator];
    if (Array.isArray(operands)) {
      out[operator] = operands.map((operand) =>
        typeof operand === "string" || typeof operand === "number" ? readScopeValue(key, operand) : operand,
      );
    }
  }
  return out;
}

/** `scopeValue`, its refusal reported as the read's filter error (`INVALID_FILTER`), as the parser's are. */
function readScopeValue(key: ScopeKey, value: unknown): string | undefined {
  try {
    return scopeValue(key, value);
  } catch (error) {
    if (!(error instanceof LucidError)) throw error;
    throw new LucidError("INVALID_FILTER", error.message, { details: { key } });
  }
}

function isDifferentEq(condition: unknown, value: string): boolean {
  if (typeof condition !== "object" || condition === null) return false;
  const eq = (condition as { eq?: unknown }).eq;
  return typeof eq === "string" && eq !== value;
}

function twoValues(key: ScopeKey, first: string, second: string): LucidError {
  return new LucidError(
    "INVALID_FILTER",
    `${first} and ${second} name two different ${key} scopes; give the ${key} once.`,
    { details: { key } },
  );
}

/** AND of the nodes, with nested ANDs flattened so scope equalities stay at the top level. */
function andFlat(nodes: readonly FilterNode[]): FilterNode {
  const children = nodes.flatMap((node) => (node.kind === "and" ? node.children : [node]));
  return children.length === 1 ? (children[0] as FilterNode) : filterNode.and(children);
}
