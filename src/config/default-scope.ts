import type { ScopeOptions } from "../core/scope.js";
import type { DefaultScopeConfig } from "./config-schema.js";

export const DEFAULT_SCOPE_KEYS = ["userId", "agentId", "appId"] as const;
export type DefaultScopeKey = (typeof DEFAULT_SCOPE_KEYS)[number];

/** The environment variable that sets each default scope key. */
export const SCOPE_ENV_VARS: Record<DefaultScopeKey, string> = {
  userId: "LUCID_USER_ID",
  agentId: "LUCID_AGENT_ID",
  appId: "LUCID_APP_ID",
};

/** A default scope value and where it came from (`LUCID_USER_ID`, or `config`). */
export type ScopeDefaults = Partial<Record<DefaultScopeKey, { value: string; from: string }>>;

/** The default scope: the environment first, then the config file's `defaults`. */
export function resolveDefaultScope(
  config: DefaultScopeConfig,
  env: Readonly<Record<string, string | undefined>>,
): ScopeDefaults {
  const scope: ScopeDefaults = {};
  for (const key of DEFAULT_SCOPE_KEYS) {
    const fromEnv = env[SCOPE_ENV_VARS[key]]?.trim();
    if (fromEnv) scope[key] = { value: fromEnv, from: SCOPE_ENV_VARS[key] };
    else if (config[key] !== undefined) scope[key] = { value: config[key], from: "config" };
  }
  return scope;
}

export function scopeOptionsOf(defaults: ScopeDefaults): ScopeOptions {
  const scope: ScopeOptions = {};
  for (const key of DEFAULT_SCOPE_KEYS) {
    const entry = defaults[key];
    if (entry !== undefined) scope[key] = entry.value;
  }
  return scope;
}
