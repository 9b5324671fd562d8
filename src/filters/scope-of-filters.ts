/**
 * The scope a filter pins down, read off its tree: what `search` / `getAll` require before they run,
 * and what a store may use to narrow a query to one scope's partition.
 *
 * @module
 */

import { SCOPE_KEYS, type Scope } from "../core/scope.js";
import { type FilterNode, filterNode } from "./filter.js";

/**
 * The scope keys fixed by an `eq` string condition that every match must satisfy: conditions at the
 * top level or inside nested `and`s. Conditions under `or` / `not` fix nothing. If one key is fixed
 * twice to different values, the first wins; the whole filter still applies and then matches nothing.
 *
 * @example
 * scopeOf(parseFilters({ user_id: "alice", OR: [{ agent_id: "a" }, { agent_id: "b" }] })); // { user_id: "alice" }
 */
export function scopeOf(node: FilterNode): Scope {
  const scope: Scope = {};
  collect(node, scope);
  return Object.freeze(scope);
}

function collect(node: FilterNode, scope: Scope): void {
  if (node.kind === "and") {
    for (const child of node.children) collect(child, scope);
  } else if (node.kind === "condition" && node.op === "eq" && typeof node.value === "string") {
    const key = SCOPE_KEYS.find((scopeKey) => scopeKey === node.field);
    if (key !== undefined) scope[key] ??= node.value;
  }
}

/**
 * The filter matching exactly the memories of `scope` (its keys by equality): the inverse of
 * `scopeOf`, for code that holds a scope rather than user filters.
 *
 * @example
 * scopeFilter({ user_id: "alice", app_id: "billing" }); // and(user_id eq alice, app_id eq billing)
 */
export function scopeFilter(scope: Scope): FilterNode {
  return filterNode.and(
    SCOPE_KEYS.flatMap((key) => {
      const value = scope[key];
      return value === undefined ? [] : [filterNode.condition(key, "eq", value)];
    }),
  );
}

/**
 * The filter matching the memories of exactly `scope`'s owner: its keys by equality and every other
 * scope key unset (`eq null`, the filter language's "absent"). Where `scopeFilter({ agent_id: "main" })`
 * also finds alice's and bob's memories under that agent, this finds only the agent's own — what
 * code needs that may change or join the memories it finds (see `ownerKey` in core/scope.ts).
 *
 * @example
 * ownerFilter({ agent_id: "main" }); // and(user_id eq null, agent_id eq main, app_id eq null, run_id eq null)
 */
export function ownerFilter(scope: Scope): FilterNode {
  return filterNode.and(SCOPE_KEYS.map((key) => filterNode.condition(key, "eq", scope[key] ?? null)));
}
