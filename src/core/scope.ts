/**
 * Scope: which user, agent, app and run a memory belongs to — the one module that knows the scope
 * keys, their camelCase option names, how a scope is checked, keyed and shown.
 *
 * This is the vocabulary of the data model, so it is a leaf: it imports nothing of Lucid's but the
 * error class, and the pure helpers and ports below the core may import it (docs/architecture.md).
 *
 * @module
 */

import { LucidError } from "../errors.js";

export const SCOPE_KEYS = ["user_id", "agent_id", "app_id", "run_id"] as const;
export type ScopeKey = (typeof SCOPE_KEYS)[number];

/** A scope as Lucid holds it: snake_case keys, each present only when set. */
export type Scope = Partial<Record<ScopeKey, string>>;

/** Scope given as options (camelCase, as Mem0's `add`). */
export interface ScopeOptions {
  userId?: string;
  agentId?: string;
  appId?: string;
  runId?: string;
}

/** The one map between the two spellings of a scope key. */
export const SCOPE_OPTION_NAMES: Readonly<Record<ScopeKey, keyof ScopeOptions>> = Object.freeze({
  user_id: "userId",
  agent_id: "agentId",
  app_id: "appId",
  run_id: "runId",
});

/** The same map the other way: `userId` → `user_id`. */
export const SCOPE_KEY_OF_OPTION: Readonly<Record<keyof ScopeOptions, ScopeKey>> = Object.freeze({
  userId: "user_id",
  agentId: "agent_id",
  appId: "app_id",
  runId: "run_id",
});

/** Scope keys as they may appear in metadata, which Mem0 strips so they cannot spoof a scope. */
export const IDENTITY_METADATA_KEYS = [
  ...SCOPE_KEYS,
  ...Object.values(SCOPE_OPTION_NAMES),
  "actor_id",
] as const;

/**
 * A scope value as stored: trimmed text; a number becomes its string. Undefined and null mean "not
 * given"; a blank value or one with whitespace inside is refused.
 */
export function scopeValue(key: ScopeKey, value: unknown): string | undefined {
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
 * Refuses a scope a memory cannot be written to: `"*"` is the filters' "any id", so a memory whose
 * user (or agent, app, run) were `*` could never be listed or searched by its own scope again.
 */
export function checkWritableScope(scope: Scope): void {
  for (const key of SCOPE_KEYS) {
    if (scope[key] !== "*") continue;
    throw new LucidError(
      "INVALID_ARGUMENT",
      `${key} cannot be "*": in filters "*" means any ${key}, so a memory stored under it could not be found by its scope again. Use a real id.`,
      { details: { key } },
    );
  }
}

/**
 * The scope named by camelCase options (`userId`…) and plain snake_case values in `filters`; the
 * options win. Neither input is modified.
 *
 * @example
 * scopeFromOptions({ userId: "alice", filters: { app_id: "billing" } }); // { user_id: "alice", app_id: "billing" }
 */
export function scopeFromOptions(
  options: ScopeOptions & { filters?: Readonly<Record<string, unknown>> },
): Scope {
  const scope: Scope = {};
  for (const key of SCOPE_KEYS) {
    const fromFilters = options.filters?.[key];
    const value = scopeValue(
      key,
      options[SCOPE_OPTION_NAMES[key]] ?? (typeof fromFilters === "string" ? fromFilters : undefined),
    );
    if (value !== undefined) scope[key] = value;
  }
  return scope;
}

/** The camelCase options naming `scope`. */
export function scopeToOptions(scope: Scope): ScopeOptions {
  const options: ScopeOptions = {};
  for (const key of SCOPE_KEYS) {
    const value = scope[key];
    if (value !== undefined) options[SCOPE_OPTION_NAMES[key]] = value;
  }
  return options;
}

/** Whether the scope names at least one key. */
export function hasScope(scope: Scope): boolean {
  return SCOPE_KEYS.some((key) => scope[key] !== undefined);
}

/**
 * `scope`, or `SCOPE_REQUIRED` when it names no key: the one "needs a scope" rule. `verb` names the
 * operation in the message (`add`, `search`, `dream.plan`…); an edge may say how its callers pass one.
 *
 * @example
 * requireScope(scopeFromOptions(options), "add");
 */
export function requireScope(scope: Scope, verb: string, how?: string): Scope {
  if (hasScope(scope)) return scope;
  const example =
    how ?? `e.g. { userId: "alice" } or { filters: { user_id: "alice" } } (--user alice on the command line)`;
  throw new LucidError(
    "SCOPE_REQUIRED",
    `${verb} needs a scope: pass at least one of user_id, agent_id, app_id or run_id, ${example}.`,
    { details: { verb } },
  );
}

/**
 * The scope's stable key, `user_id=alice&agent_id=coder`: keys in a fixed order, values escaped,
 * so one scope always has one key. It names the scope's message log, dream gate, lease and runs.
 *
 * @example
 * scopeKey({ agent_id: "coder", user_id: "alice" }); // "user_id=alice&agent_id=coder"
 */
export function scopeKey(scope: Scope): string {
  const encode = (value: string) =>
    value.replaceAll("%", "%25").replaceAll("&", "%26").replaceAll("=", "%3D");
  return SCOPE_KEYS.filter((key) => scope[key] !== undefined)
    .map((key) => `${key}=${encode(scope[key] as string)}`)
    .join("&");
}

/**
 * The `&key=value&` pieces of `scopeKey(scope)`, one per key of `scope`: a stored scope key wrapped
 * in `&` contains every piece exactly when that scope lies within `scope` (values are encoded, so a
 * piece never matches inside a value). Lets a store check "within" on the key string it keeps.
 *
 * @example
 * scopeKeyPieces({ user_id: "alice" }); // ["&user_id=alice&"]
 */
export function scopeKeyPieces(scope: Scope): string[] {
  return SCOPE_KEYS.filter((key) => scope[key] !== undefined).map(
    (key) => `&${scopeKey({ [key]: scope[key] })}&`,
  );
}

/**
 * The scope for people: `user_id=alice agent_id=coder` (empty for no scope).
 *
 * @example
 * formatScope({ user_id: "alice", app_id: "billing" }); // "user_id=alice app_id=billing"
 */
export function formatScope(scope: Scope): string {
  return SCOPE_KEYS.flatMap((key) => (scope[key] === undefined ? [] : [`${key}=${scope[key]}`])).join(" ");
}

/** A scope as the four nullable columns of a stored memory. */
export function scopeColumns(scope: Scope): Record<ScopeKey, string | null> {
  return {
    user_id: scope.user_id ?? null,
    agent_id: scope.agent_id ?? null,
    app_id: scope.app_id ?? null,
    run_id: scope.run_id ?? null,
  };
}

/** The scope of anything with scope columns (a stored row, a result item): its non-null keys. */
export function scopeOfRow(row: Readonly<Partial<Record<ScopeKey, string | null>>>): Scope {
  const scope: Scope = {};
  for (const key of SCOPE_KEYS) {
    const value = row[key];
    if (value !== null && value !== undefined) scope[key] = value;
  }
  return scope;
}

/**
 * Whether a memory (or anything with scope columns) lies inside `scope`: it has every key the scope
 * fixes, with the same value. A memory with more keys (an agent's memory of the user) is inside.
 */
export function withinScope(row: Readonly<Partial<Record<ScopeKey, string | null>>>, scope: Scope): boolean {
  return SCOPE_KEYS.every((key) => scope[key] === undefined || row[key] === scope[key]);
}

/**
 * The full owner of a stored memory (or anything with scope columns), as one key: `scopeKey` of all
 * four columns, an unset column counting as a value of its own. Two memories have one owner exactly
 * when their keys are equal — `user_id=alice&agent_id=main` is not `agent_id=main`, nor
 * `user_id=bob&agent_id=main`, though a scope of `agent_id=main` holds all three. A dream or an
 * inferred add joins (merges, supersedes, sets in conflict) only memories of one owner: a scope
 * named by fewer keys can hold several people's memories, and a merge would move one person's
 * words into another's memory.
 *
 * @example
 * ownerKey({ user_id: "alice", agent_id: "main", app_id: null, run_id: null }); // "user_id=alice&agent_id=main"
 * ownerKey({ agent_id: "main" }) === ownerKey({ user_id: "bob", agent_id: "main" }); // false
 */
export function ownerKey(row: Readonly<Partial<Record<ScopeKey, string | null>>>): string {
  return scopeKey(scopeOfRow(row));
}

/**
 * Whether two memories (or a memory and a scope) have the same full owner: every scope key equal,
 * unset equal only to unset. Stricter than `withinScope`, which lets a memory have more keys.
 *
 * @example
 * sameOwner({ user_id: "alice", agent_id: "main" }, { user_id: "alice", agent_id: "main", run_id: null }); // true
 * sameOwner({ user_id: "alice", agent_id: "main" }, { agent_id: "main" }); // false
 */
export function sameOwner(
  a: Readonly<Partial<Record<ScopeKey, string | null>>>,
  b: Readonly<Partial<Record<ScopeKey, string | null>>>,
): boolean {
  return SCOPE_KEYS.every((key) => (a[key] ?? null) === (b[key] ?? null));
}
