/**
 * The scope of one REST request, built as the MCP server builds a tool call's (`edge/call-scope.ts`):
 * the server's defaults, replaced key by key by what the request names, and — for a request made
 * with a key — fixed to the key's scope, so naming another user is `SCOPE_NOT_ALLOWED` and an id of
 * another scope reads exactly like an id that does not exist.
 *
 * @module
 */

import {
  formatScope,
  SCOPE_KEYS,
  type Scope,
  scopeFromOptions,
  scopeValue,
  withinScope,
} from "../core/scope.js";
import { type CallScope, resolveCallScope, type ScopeHints, scopedFilters } from "../edge/call-scope.js";
import { LucidError } from "../errors.js";
import type { Filters } from "../filters/filter.js";
import { parseFilters } from "../filters/parse-filters.js";
import { scopeOf } from "../filters/scope-of-filters.js";
import type { MemoryItem } from "../memory/types.js";
import { mem0Filters } from "./mem0-filters.js";
import type { Caller, RestDeps } from "./rest-env.js";

/** The scope keys a body or a query names at its top level (`user_id`, `agent_id`…). */
export function namedScope(source: Readonly<Record<string, unknown>>): Scope {
  const scope: Scope = {};
  for (const key of SCOPE_KEYS) {
    const value = scopeValue(key, source[key]);
    if (value !== undefined) scope[key] = value;
  }
  return scope;
}

/**
 * The request's scope from what it names; a key's scope fixes the keys it names. A request made
 * with a key has no other defaults: the server's own (`--user`, `LUCID_AGENT_ID`…) are the
 * operator's, and must not add an `agent_id` to alice's memories or narrow her reads.
 */
export function requestScope(deps: RestDeps, caller: Caller, named: Scope): CallScope {
  return resolveCallScope(
    caller.bound === undefined ? deps.defaults : {},
    named,
    caller.bound,
    REST_SCOPE_HINTS,
  );
}

/** What a REST client can do: name the scope in the request, or use another key. */
const REST_SCOPE_HINTS: ScopeHints = {
  otherScope: "use an API key bound to that scope (`lucid keys create --user <id>`)",
  noScope:
    "in the request (the body, or the query of a GET or DELETE), or give `lucid serve` a default scope (LUCID_USER_ID, or `defaults` in lucid.config.json)",
};

/**
 * A read's filters: the platform filters (and any scope keys named beside them) in Lucid's
 * language, AND-ed under the request's scope. A scope key the filters fix by equality counts as
 * named, so `{user_id: "bob"}` with alice's key is refused; any other condition on scope keys can
 * only narrow inside the scope.
 */
export function readScope(
  deps: RestDeps,
  caller: Caller,
  input: { filters?: unknown; named?: Scope; extra?: Filters },
): { scope: CallScope; filters: Filters } {
  const given =
    input.filters === undefined || input.filters === null ? undefined : mem0Filters(input.filters);
  const fixed = given === undefined ? {} : scopeOf(parseFilters(given));
  const named: Scope = { ...fixed, ...(input.named ?? {}) };
  for (const key of SCOPE_KEYS) {
    const inFilters = fixed[key];
    const beside = input.named?.[key];
    if (inFilters !== undefined && beside !== undefined && inFilters !== beside) {
      throw new LucidError(
        "INVALID_FILTER",
        `${key} is given twice, as ${JSON.stringify(beside)} and in filters as ${JSON.stringify(inFilters)}: give it once.`,
        { details: { key } },
      );
    }
  }
  const scope = requestScope(deps, caller, named);
  return { scope, filters: scopedFilters(scope, [given, input.extra]) };
}

/** The memory with this id when the caller may see it; otherwise `MEMORY_NOT_FOUND`, as for a missing id. */
export async function findInScope(deps: RestDeps, caller: Caller, id: string): Promise<MemoryItem> {
  const bound = caller.bound === undefined ? {} : scopeFromOptions(caller.bound);
  const item = await deps.memory.get(id);
  if (item === null || !withinScope(item, bound)) throw notFound(id, bound);
  return item;
}

export function notFound(id: string, bound: Scope): LucidError {
  const where = formatScope(bound);
  return new LucidError(
    "MEMORY_NOT_FOUND",
    `No memory has the id ${JSON.stringify(id)}${where === "" ? "" : ` in scope ${where}`}. List the memories (POST /v3/memories/) for the ids there are.`,
    { details: { id } },
  );
}
