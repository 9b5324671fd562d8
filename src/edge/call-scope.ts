/**
 * The scope of one call to a server edge (an MCP tool call, later an HTTP request): the server's
 * defaults (`--user`, `LUCID_USER_ID`, config `defaults`), with the call's `user_id` / `agent_id` /
 * `app_id` / `run_id` replacing them key by key. Every handler builds it explicitly and reads and
 * writes only inside it, so a request can never reach a scope it did not name or default to.
 *
 * @module
 */

import {
  formatScope,
  requireScope,
  SCOPE_KEYS,
  SCOPE_OPTION_NAMES,
  type Scope,
  type ScopeOptions,
  scopeFromOptions,
  scopeKey,
  scopeToOptions,
} from "../core/scope.js";
import { LucidError } from "../errors.js";
import type { Filters } from "../filters/filter.js";

/** A resolved scope in the forms the library and the edges take. */
export interface CallScope {
  readonly scope: Scope;
  /** camelCase options (`add`, `sessions.record`). */
  readonly options: ScopeOptions;
  /** Equality filters on every scope key, for reads and deletes. */
  readonly filters: Filters;
  /** `user_id=alice&agent_id=coder`: stable, for events and the gate. */
  readonly key: string;
  /** `user_id=alice agent_id=coder`: for messages. */
  readonly label: string;
}

/** What a caller of this edge can do about a refused scope: the end of each message. */
export interface ScopeHints {
  /** After "Leave user_id out, or …": how to act on another scope. */
  readonly otherScope: string;
  /** After "pass at least one of user_id, agent_id, app_id or run_id, …": where else a scope comes from. */
  readonly noScope: string;
}

/**
 * The call's scope: `defaults` with each key the call names replaced. No scope at all is
 * `SCOPE_REQUIRED`; an id with whitespace is `INVALID_ARGUMENT`. With `bound` (a server started
 * for one user, or a token bound to a scope), the keys it names are fixed: a call may narrow within
 * them (`agent_id`, `run_id`) but naming another value is `SCOPE_NOT_ALLOWED`.
 *
 * @example
 * resolveCallScope({ userId: "alice" }, { agent_id: "coder" }, undefined, hints).scope; // { user_id: "alice", agent_id: "coder" }
 * resolveCallScope({}, { user_id: "bob" }, { userId: "alice" }, hints); // throws SCOPE_NOT_ALLOWED
 */
export function resolveCallScope(
  defaults: ScopeOptions,
  params: Scope,
  bound: ScopeOptions | undefined,
  hints: ScopeHints,
): CallScope {
  const fixed = bound === undefined ? {} : scopeFromOptions(bound);
  for (const key of SCOPE_KEYS) {
    const value = params[key];
    const allowed = fixed[key];
    if (allowed === undefined || value === undefined || value.trim() === allowed) continue;
    throw new LucidError(
      "SCOPE_NOT_ALLOWED",
      `This server serves ${formatScope(fixed)} only; it cannot act on ${key}=${value}. Leave ${key} out, or ${hints.otherScope}.`,
      { details: { key } },
    );
  }
  const merged: ScopeOptions = { ...defaults, ...(bound ?? {}) };
  for (const key of SCOPE_KEYS) {
    const value = params[key];
    if (value !== undefined) merged[SCOPE_OPTION_NAMES[key]] = value;
  }
  const scope = requireScope(scopeFromOptions(merged), "This call", hints.noScope);
  const filters: Record<string, string> = {};
  for (const key of SCOPE_KEYS) {
    const value = scope[key];
    if (value !== undefined) filters[key] = value;
  }
  return { scope, options: scopeToOptions(scope), filters, key: scopeKey(scope), label: formatScope(scope) };
}

/** The scope's filters AND-ed with the caller's: scope conditions first, so they pick the partition. */
export function scopedFilters(scope: CallScope, extra: readonly (Filters | undefined)[] = []): Filters {
  const parts = extra.filter(
    (filters): filters is Filters => filters !== undefined && Object.keys(filters).length > 0,
  );
  return parts.length === 0 ? { ...scope.filters } : { AND: [scope.filters, ...parts] };
}

/** The same error whether the id does not exist or belongs to another scope, so nothing leaks. */
export function memoryNotFoundIn(id: string, scope: CallScope): LucidError {
  return new LucidError(
    "MEMORY_NOT_FOUND",
    `No memory has the id ${JSON.stringify(id)} in scope ${scope.label}.`,
    { details: { id } },
  );
}
