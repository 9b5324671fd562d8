/**
 * The scope of one tool call: the server's defaults (`LUCID_USER_ID`, config `defaults`), with the
 * call's `user_id` / `agent_id` / `app_id` / `run_id` replacing them key by key. Every tool builds
 * it explicitly and reads and writes only inside it, so a request can never reach a scope it did not
 * name or default to.
 *
 * @module
 */

import { z } from "zod";
import { LucidError } from "../errors.js";
import { SCOPE_KEYS } from "../filters/filter.js";
import { scopeFromOptions, sessionScopeKey } from "../memory/scope.js";
import type { Filters, MemoryItem, ScopeOptions } from "../memory/types.js";
import type { Scope } from "../store/store.js";

/** The scope parameters every tool takes, described for the model. */
export const scopeParams = {
  user_id: z
    .string()
    .min(1)
    .optional()
    .describe("Whose memories: the user id. Leave out to use the server's default user."),
  agent_id: z
    .string()
    .min(1)
    .optional()
    .describe("Narrow to one agent's memories. Leave out to use the server's default agent, if any."),
  app_id: z
    .string()
    .min(1)
    .optional()
    .describe("Narrow to one application's memories. Leave out to use the server's default app, if any."),
  run_id: z
    .string()
    .min(1)
    .optional()
    .describe("Narrow to one run or conversation (short-lived memories). Usually left out."),
};

export type ScopeParams = Partial<Record<(typeof SCOPE_KEYS)[number], string>>;

/** A resolved scope in the three forms the library takes. */
export interface ToolScope {
  readonly scope: Scope;
  /** camelCase options (`add`, `sessions.record`). */
  readonly options: ScopeOptions;
  /** Equality filters on every scope key, for reads and deletes. */
  readonly filters: Filters;
  /** `user_id=alice&agent_id=coder`: stable, for events and the gate. */
  readonly key: string;
  /** `user_id=alice, agent_id=coder`: for messages. */
  readonly label: string;
}

const OPTION_KEYS = { user_id: "userId", agent_id: "agentId", app_id: "appId", run_id: "runId" } as const;

/**
 * The call's scope: `defaults` with each key the call names replaced. No scope at all is
 * `SCOPE_REQUIRED`; an id with whitespace is `INVALID_ARGUMENT`.
 *
 * @example
 * resolveToolScope({ userId: "alice" }, { agent_id: "coder" }).scope; // { user_id: "alice", agent_id: "coder" }
 */
export function resolveToolScope(defaults: ScopeOptions, params: ScopeParams): ToolScope {
  const merged: ScopeOptions = { ...defaults };
  for (const key of SCOPE_KEYS) {
    const value = params[key];
    if (value !== undefined) merged[OPTION_KEYS[key]] = value;
  }
  const scope = scopeFromOptions(merged);
  if (Object.keys(scope).length === 0) {
    throw new LucidError(
      "SCOPE_REQUIRED",
      "No scope: pass user_id (or agent_id, app_id, run_id), or start the server with a default user " +
        '(LUCID_USER_ID, or "defaults": { "userId": "…" } in lucid.config.json).',
    );
  }
  const options: ScopeOptions = {};
  const filters: Filters = {};
  for (const key of SCOPE_KEYS) {
    const value = scope[key];
    if (value === undefined) continue;
    options[OPTION_KEYS[key]] = value;
    filters[key] = value;
  }
  const label = SCOPE_KEYS.flatMap((key) => (scope[key] === undefined ? [] : [`${key}=${scope[key]}`])).join(
    ", ",
  );
  return { scope, options, filters, key: sessionScopeKey(scope), label };
}

/** The scope's filters AND-ed with the caller's: scope conditions first, so they pick the partition. */
export function scopedFilters(scope: ToolScope, extra: readonly (Filters | undefined)[] = []): Filters {
  const parts = extra.filter(
    (filters): filters is Filters => filters !== undefined && Object.keys(filters).length > 0,
  );
  return parts.length === 0 ? { ...scope.filters } : { AND: [scope.filters, ...parts] };
}

/**
 * Whether a memory (or anything with scope columns) lies inside the scope: it has every key the
 * scope fixes, with the same value. A memory with more keys (an agent's memory of the user) is inside.
 */
export function withinScope(item: Pick<MemoryItem, (typeof SCOPE_KEYS)[number]>, scope: Scope): boolean {
  return SCOPE_KEYS.every((key) => scope[key] === undefined || item[key] === scope[key]);
}

/** The same error whether the id does not exist or belongs to another scope, so nothing leaks. */
export function memoryNotFound(id: string, scope: ToolScope): LucidError {
  return new LucidError(
    "MEMORY_NOT_FOUND",
    `No memory has the id ${JSON.stringify(id)} in scope ${scope.label}. Find ids with memory_search or memory_list.`,
    { details: { id } },
  );
}
