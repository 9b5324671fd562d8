/**
 * Scope: which user, agent, app and run a memory belongs to.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import { SCOPE_KEYS, type ScopeKey } from "../filters/filter.js";
import type { MemoryRow, Scope } from "../store/store.js";
import type { Filters, ScopeOptions } from "./types.js";

const OPTION_KEYS: Record<ScopeKey, keyof ScopeOptions> = {
  user_id: "userId",
  agent_id: "agentId",
  app_id: "appId",
  run_id: "runId",
};

/** Scope keys as they may appear in metadata, which Mem0 strips so they cannot spoof a scope. */
export const IDENTITY_METADATA_KEYS = [
  "user_id",
  "agent_id",
  "app_id",
  "run_id",
  "userId",
  "agentId",
  "appId",
  "runId",
  "actor_id",
] as const;

function scopeValue(key: ScopeKey, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim();
  if (text.length === 0 || /\s/.test(text)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `${key} must be a non-empty id without whitespace, got ${JSON.stringify(value)}.`,
      { details: { key } },
    );
  }
  return text;
}

/**
 * The scope named by camelCase options (`userId`…) and plain snake_case values in `filters`; the
 * options win. Neither input is modified.
 */
export function scopeFromOptions(options: ScopeOptions & { filters?: Filters }): Scope {
  const scope: Scope = {};
  for (const key of SCOPE_KEYS) {
    const fromFilters = options.filters?.[key];
    const value = scopeValue(
      key,
      options[OPTION_KEYS[key]] ?? (typeof fromFilters === "string" ? fromFilters : undefined),
    );
    if (value !== undefined) scope[key] = value;
  }
  return scope;
}

export function requireScopeForAdd(scope: Scope): void {
  if (Object.keys(scope).length === 0) {
    throw new LucidError(
      "SCOPE_REQUIRED",
      'add needs a scope: pass at least one of userId, agentId, appId or runId, e.g. memory.add(text, { userId: "alice" }).',
    );
  }
}

/** Mem0's session scope key for the message log: sorted `key=value` pairs joined by `&`. */
export function sessionScopeKey(scope: Scope): string {
  const encode = (value: string) =>
    value.replaceAll("%", "%25").replaceAll("&", "%26").replaceAll("=", "%3D");
  return SCOPE_KEYS.filter((key) => scope[key] !== undefined)
    .map((key) => `${key}=${encode(scope[key] as string)}`)
    .join("&");
}

/** A scope as the four nullable columns of a stored memory. */
export function scopeColumns(scope: Scope): Pick<MemoryRow, "user_id" | "agent_id" | "app_id" | "run_id"> {
  return {
    user_id: scope.user_id ?? null,
    agent_id: scope.agent_id ?? null,
    app_id: scope.app_id ?? null,
    run_id: scope.run_id ?? null,
  };
}

/** The scope of a stored memory. */
export function scopeOfRow(row: Pick<MemoryRow, ScopeKey>): Scope {
  const scope: Scope = {};
  for (const key of SCOPE_KEYS) {
    const value = row[key];
    if (value !== null) scope[key] = value;
  }
  return scope;
}
