/**
 * The filter of a read (`search`, `getAll`, `deleteAll`, `forget`): the caller's `filters`, AND-ed
 * with any scope given as camelCase options, and the scope it must name.
 *
 * @module
 */

import { type FilterNode, type Filters, filterNode } from "../filters/filter.js";
import { parseFilters } from "../filters/parse-filters.js";
import { scopeOf } from "../filters/scope-of-filters.js";
import { requireScope, SCOPE_KEYS, SCOPE_OPTION_NAMES, type ScopeOptions } from "./scope.js";

/**
 * Mem0 rejects scope options in reads; accepting them is friendlier and cannot widen the scope,
 * since they only add conditions. A read that fixes no scope key is `SCOPE_REQUIRED`.
 *
 * @example
 * readFilter({ userId: "alice", filters: { category: "rule" } }, "search");
 */
export function readFilter(options: ScopeOptions & { filters?: Filters }, verb: string): FilterNode {
  const parsed = parseFilters(options.filters ?? {});
  const extra: Record<string, unknown> = {};
  for (const key of SCOPE_KEYS) {
    const value = options[SCOPE_OPTION_NAMES[key]];
    if (value !== undefined) extra[key] = value;
  }
  const node = andFlat([parseFilters(extra), parsed]);
  requireScope(scopeOf(node), verb);
  return node;
}

/** AND of the nodes, with nested ANDs flattened so scope equalities stay at the top level. */
function andFlat(nodes: readonly FilterNode[]): FilterNode {
  const children = nodes.flatMap((node) => (node.kind === "and" ? node.children : [node]));
  return children.length === 1 ? (children[0] as FilterNode) : filterNode.and(children);
}
