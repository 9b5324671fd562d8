import { type FilterNode, SCOPE_KEYS } from "../filters/filter.js";
import { parseFilters } from "../filters/parse-filters.js";
import { requireScope } from "../filters/scope-of-filters.js";
import type { Visibility } from "../store/store.js";
import type { MemoryContext } from "./context.js";
import type { Filters, ScopeOptions } from "./types.js";
import { policyVisibility } from "./visibility.js";

/**
 * The filter of a read (`search`, `getAll`): the caller's `filters`, AND-ed with any scope given as
 * camelCase options. Mem0 rejects those options in reads; accepting them is friendlier and cannot
 * widen the scope, since they only add conditions.
 */
export function readFilter(options: ScopeOptions & { filters?: Filters }, verb: string): FilterNode {
  const parsed = parseFilters(options.filters ?? {});
  const extra: Filters = {};
  const optionKeys = {
    user_id: options.userId,
    agent_id: options.agentId,
    app_id: options.appId,
    run_id: options.runId,
  };
  for (const key of SCOPE_KEYS) if (optionKeys[key] !== undefined) extra[key] = optionKeys[key];
  const node = andFlat([parseFilters(extra), parsed]);
  requireScope(node, verb);
  return node;
}

/** The expiry rule for a read, or undefined when the caller asked to see expired memories too. */
export function readVisibility(
  context: MemoryContext,
  showExpired: boolean | undefined,
): Visibility | undefined {
  return showExpired === true ? undefined : policyVisibility(context);
}

/** AND of the nodes, with nested ANDs flattened so scope equalities stay at the top level. */
function andFlat(nodes: readonly FilterNode[]): FilterNode {
  const children = nodes.flatMap((node) => (node.kind === "and" ? node.children : [node]));
  return children.length === 1 ? (children[0] as FilterNode) : { kind: "and", children };
}
