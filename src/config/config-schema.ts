/**
 * The shape of `lucid.config.json`, and its validation. Every key is checked: an unknown key or a
 * value of the wrong type is an `INVALID_CONFIG` error naming the file and the key, so a typo never
 * silently falls back to a default.
 *
 * @module
 */

import type { ScopeOptions } from "../core/scope.js";
import { JSON_MODES } from "../llm/openai-compatible/openai-compatible-llm.js";
import type { GateThresholds } from "../policy/policy.js";
import { POLICY_LAYER_KEYS, type PolicyLayer, readGate, readPolicyLayer } from "../policy/policy-layer.js";
import {
  cronShapeProblem,
  type DeepPhaseSettings,
  type LightPhaseSettings,
  type RemPhaseSettings,
  type SleepSettings,
  type SleepSettingsInput,
  STORAGE_MODES,
} from "../sleep/sleep-config.js";
import { isTimeZone } from "../text/expiry-date.js";
import { ANNOTATION_KEYS, compact, describe, Section } from "./config-section.js";
import { LLM_PROVIDERS, type LlmSettings, MEM0_LLM_PROVIDERS, mem0LlmSettings } from "./llm-settings.js";
import type { DeferredString } from "./resolve-env-refs.js";

/**
 * `local`: the store's own local model, MiniLM for a new store; `minilm` / `use-lite`: that model
 * whatever wrote the store (a store of the other one then needs `lucid reembed`).
 */
export interface LocalEmbedderConfig {
  provider: "local" | "minilm" | "use-lite";
  batchSize?: number;
  /** MiniLM only: `auto` (default), `native` (onnxruntime-node) or `wasm`. */
  runtime?: "auto" | "native" | "wasm";
}

export interface OpenAICompatibleEmbedderConfig {
  provider: "openai-compatible";
  baseURL: string;
  model: string;
  dimension?: number;
  dimensions?: number;
  apiKey?: DeferredString;
  batchSize?: number;
  timeoutMs?: number;
  headers?: Record<string, DeferredString>;
}

export type EmbedderConfig = LocalEmbedderConfig | OpenAICompatibleEmbedderConfig;

/** The optional LLM: Lucid's shape, or Mem0's `{ provider, config }` read into it. */
export type LlmConfig = LlmSettings;

/** Where memories live: the SQLite file in Lucid's home (default), or a PostgreSQL database. */
export type StoreConfig =
  | { provider: "sqlite" }
  | {
      provider: "postgres";
      /** `postgres://user:password@host:port/database`; usually `{ "env": "LUCID_PG_URL" }`. */
      url: DeferredString;
      schema?: string;
      pool?: { max?: number; idleTimeoutMs?: number; connectionTimeoutMs?: number };
      exactSearchBelow?: number;
      efSearch?: number;
    };

export interface DefaultScopeConfig {
  userId?: string;
  agentId?: string;
  appId?: string;
}

export interface LucidConfig {
  /** Absent: the SQLite file in Lucid's home. */
  store?: StoreConfig;
  embedder: EmbedderConfig;
  llm?: LlmConfig;
  /** Validated by the policy's own reader; resolved with the rest of the policy by `resolvePolicy`. */
  policy: PolicyLayer;
  defaults: DefaultScopeConfig;
  maxTextBytes?: number;
  /** The IANA time zone in which an expiry day ends; UTC when absent. */
  timeZone?: string;
  /**
   * The auto-dream gate (Mem0's defaults are 24 hours, 5 sessions, 20 memories), and whether every
   * dream, `--auto` too, asks the configured LLM to judge the review tier.
   */
  dream?: { gate?: Partial<GateThresholds>; llm?: boolean };
  /**
   * Sleep, as written (`resolveSleepSettings` adds the defaults): `workspace` is the Markdown
   * workspace `lucid sleep`, `lucid search --workspace` and the MCP server use by default (`~` and
   * paths relative to the config file's folder are resolved); the other keys are OpenClaw's dreaming.
   */
  sleep?: SleepSettingsInput;
  /** The MCP server: `token` is the bearer token its HTTP transport requires. */
  mcp?: { token?: DeferredString; tokens?: Record<string, { token: DeferredString; scope: ScopeOptions }> };
}

/** Keys that hold secrets: never printed, whether written literally or as an env reference. */
export const SECRET_KEYS: readonly string[] = [
  // A connection URL may carry a password.
  "store.url",
  "embedder.apiKey",
  "embedder.headers.*",
  "llm.apiKey",
  "llm.headers.*",
  "llm.config.apiKey",
  "llm.config.api_key",
  "mcp.token",
  "mcp.tokens.*.token",
];

/** Whether a dotted key (as parts) is one of {@link SECRET_KEYS}; `*` matches any one part. */
export function isSecretKey(path: readonly string[]): boolean {
  return SECRET_KEYS.some((pattern) => {
    const parts = pattern.split(".");
    return parts.length === path.length && parts.every((part, i) => part === "*" || part === path[i]);
  });
}

/** Validates a parsed (and env-resolved) config file; absent sections get their defaults. */
export function validateConfig(raw: unknown, file: string): LucidConfig {
  const root = Section.of(file, "", raw);
  root.allowOnly([
    "store",
    "embedder",
    "llm",
    "policy",
    "defaults",
    "maxTextBytes",
    "timeZone",
    "dream",
    "sleep",
    "mcp",
  ]);
  const store = root.section("store");
  const embedder = root.section("embedder");
  const llm = root.section("llm");
  const policy = root.section("policy");
  const defaults = root.section("defaults");
  const dream = root.section("dream");
  const mcp = root.section("mcp");
  const sleep = root.section("sleep");
  if (dream?.value.llm === true && llm === undefined)
    dream.fail(
      "llm",
      "asks the LLM to judge every dream, and there is no `llm` section: add one, or remove this.",
    );
  return compact({
    store: store === undefined ? undefined : readStore(store),
    embedder: embedder === undefined ? { provider: "local" } : readEmbedder(embedder),
    llm: llm === undefined ? undefined : readLlm(llm),
    policy: policy === undefined ? {} : readPolicy(policy),
    defaults: defaults === undefined ? {} : readDefaults(defaults),
    maxTextBytes: root.positiveInteger("maxTextBytes"),
    timeZone: readTimeZone(root),
    dream: dream === undefined ? undefined : readDream(dream),
    sleep: sleep === undefined ? undefined : readSleep(sleep),
    mcp: mcp === undefined ? undefined : readMcp(mcp),
  });
}

/** How one key of a section is read: its value, or undefined when absent; a bad value throws. */
interface Rule<T> {
  read(section: Section, name: string): T | undefined;
}

/** A rule for every key of `T`: the type checker keeps the reader in step with the settings. */
type Rules<T> = { readonly [K in keyof T]-?: Rule<Exclude<T[K], undefined>> };

function numberRule(expected: string, accepts: (n: number) => boolean): Rule<number> {
  return {
    read(section, name) {
      const value = section.value[name];
      if (value === undefined || (typeof value === "number" && Number.isFinite(value) && accepts(value)))
        return value;
      return section.fail(name, `must be ${expected}, got ${describe(value)}.`);
    },
  };
}

const BOOLEAN: Rule<boolean> = {
  read(section, name) {
    const value = section.value[name];
    if (value === undefined || typeof value === "boolean") return value;
    return section.fail(name, `must be true or false, got ${describe(value)}.`);
  },
};
const FRACTION = numberRule("a number from 0 to 1", (n) => n >= 0 && n <= 1);
const COUNT = numberRule("an integer of 0 or more", (n) => Number.isInteger(n) && n >= 0);
const POSITIVE = numberRule("a number greater than 0", (n) => n > 0);
const POSITIVE_INTEGER: Rule<number> = { read: (section, name) => section.positiveInteger(name) };
const MAX_AGE: Rule<number | null> = {
  read: (section, name) =>
    section.value[name] === null
      ? null
      : numberRule("a number of 0 or more, or null for no limit", (n) => n >= 0).read(section, name),
};
const CRON: Rule<string> = {
  read(section, name) {
    const expression = section.string(name);
    const problem = expression === undefined ? undefined : cronShapeProblem(expression);
    if (problem !== undefined) {
      section.fail(
        name,
        `must be a cron expression such as "0 3 * * *" (every day at 03:00): ${JSON.stringify(expression)} ${problem}.`,
      );
    }
    return expression;
  },
};
const TIME_ZONE: Rule<string> = {
  read(section, name) {
    const zone = section.string(name);
    if (zone !== undefined && !isTimeZone(zone)) {
      section.fail(
        name,
        `must be an IANA time zone such as "UTC" or "Europe/Paris", got ${JSON.stringify(zone)}.`,
      );
    }
    return zone;
  },
};

/** A nested object read by its own rules; unknown keys in it are errors naming them. */
function nested<T>(rules: Rules<T>): Rule<Partial<T>> {
  return {
    read(section, name) {
      const inner = section.section(name);
      return inner === undefined ? undefined : readRules(inner, rules);
    },
  };
}

function readRules<T>(section: Section, rules: Rules<T>): Partial<T> {
  const names = Object.keys(rules) as (keyof T & string)[];
  section.allowOnly(names);
  const read: Record<string, unknown> = {};
  for (const name of names) {
    const value = rules[name].read(section, name);
    if (value !== undefined) read[name] = value;
  }
  return read as Partial<T>;
}

const LIGHT_PHASE: Rules<LightPhaseSettings> = {
  enabled: BOOLEAN,
  lookbackDays: COUNT,
  limit: COUNT,
  dedupeSimilarity: FRACTION,
};
const REM_PHASE: Rules<RemPhaseSettings> = {
  enabled: BOOLEAN,
  lookbackDays: COUNT,
  limit: COUNT,
  minPatternStrength: FRACTION,
};
const DEEP_PHASE: Rules<DeepPhaseSettings> = {
  enabled: BOOLEAN,
  limit: COUNT,
  minScore: FRACTION,
  minRecallCount: COUNT,
  minUniqueQueries: COUNT,
  recencyHalfLifeDays: POSITIVE,
  maxAgeDays: MAX_AGE,
  maxPromotedSnippetTokens: POSITIVE_INTEGER,
  maxPriorEntryLossFraction: FRACTION,
};
const SLEEP: Rules<SleepSettingsInput> = {
  enabled: BOOLEAN,
  workspace: { read: (section, name) => section.string(name) },
  frequency: CRON,
  timezone: TIME_ZONE,
  storage: nested<SleepSettings["storage"]>({
    mode: { read: (section, name) => section.oneOf(name, STORAGE_MODES) },
    separateReports: BOOLEAN,
  }),
  phases: nested<NonNullable<SleepSettingsInput["phases"]>>({
    light: nested(LIGHT_PHASE),
    rem: nested(REM_PHASE),
    deep: nested(DEEP_PHASE),
  }),
};

/** `sleep`: every key of `SleepSettings` checked, and kept partial (`resolveSleepSettings` fills it). */
function readSleep(section: Section): SleepSettingsInput {
  return readRules(section, SLEEP);
}

function readTimeZone(root: Section): string | undefined {
  return TIME_ZONE.read(root, "timeZone");
}

function readStore(section: Section): StoreConfig {
  const provider = section.oneOf("provider", ["sqlite", "postgres"] as const) ?? "sqlite";
  if (provider === "sqlite") {
    section.allowOnly(["provider"]);
    return { provider };
  }
  section.allowOnly(["provider", "url", "schema", "pool", "exactSearchBelow", "efSearch"]);
  const url = section.deferredString("url");
  if (url === undefined) {
    section.fail(
      "url",
      'is required for postgres, e.g. { "env": "LUCID_PG_URL" } (postgres://user@host/database).',
    );
  }
  const schema = section.string("schema");
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    section.fail(
      "schema",
      `must be a plain lower-case identifier (letters, digits, _), got ${JSON.stringify(schema)}.`,
    );
  }
  const pool = section.section("pool");
  pool?.allowOnly(["max", "idleTimeoutMs", "connectionTimeoutMs"]);
  return compact({
    provider,
    url: url as DeferredString,
    schema,
    pool:
      pool === undefined
        ? undefined
        : compact({
            max: pool.positiveInteger("max"),
            idleTimeoutMs: pool.positiveInteger("idleTimeoutMs"),
            connectionTimeoutMs: pool.positiveInteger("connectionTimeoutMs"),
          }),
    exactSearchBelow: section.positiveInteger("exactSearchBelow"),
    efSearch: section.positiveInteger("efSearch"),
  });
}

function readEmbedder(section: Section): EmbedderConfig {
  const provider =
    section.oneOf("provider", ["local", "minilm", "use-lite", "openai-compatible"] as const) ?? "local";
  if (provider !== "openai-compatible") {
    section.allowOnly(
      provider === "use-lite" ? ["provider", "batchSize"] : ["provider", "batchSize", "runtime"],
    );
    return compact({
      provider,
      batchSize: section.positiveInteger("batchSize"),
      runtime:
        provider === "use-lite" ? undefined : section.oneOf("runtime", ["auto", "native", "wasm"] as const),
    });
  }
  section.allowOnly([
    "provider",
    "baseURL",
    "model",
    "dimension",
    "dimensions",
    "apiKey",
    "batchSize",
    "timeoutMs",
    "headers",
  ]);
  const dimension = section.positiveInteger("dimension");
  const dimensions = section.positiveInteger("dimensions");
  if (dimension === undefined && dimensions === undefined) {
    section.fail("dimension", "is required for openai-compatible (the vector length, e.g. 1536).");
  }
  return compact({
    provider,
    baseURL: section.requiredString("baseURL", '"http://127.0.0.1:11434/v1"'),
    model: section.requiredString("model", '"nomic-embed-text"'),
    dimension,
    dimensions,
    apiKey: section.deferredString("apiKey"),
    batchSize: section.positiveInteger("batchSize"),
    timeoutMs: section.positiveInteger("timeoutMs"),
    headers: readHeaders(section.section("headers")),
  });
}

function readHeaders(section: Section | undefined): Record<string, DeferredString> | undefined {
  if (section === undefined) return undefined;
  const headers: Record<string, DeferredString> = {};
  for (const name of Object.keys(section.value)) {
    if (ANNOTATION_KEYS.has(name)) continue;
    headers[name] = section.deferredString(name) ?? "";
  }
  return headers;
}

/** `llm`: Lucid's keys, or Mem0's `{ provider, config }` (told apart by `config`). */
function readLlm(section: Section): LlmConfig {
  const mem0 = section.section("config");
  if (mem0 !== undefined) {
    section.allowOnly(["provider", "config", "maxCallsPerRun", "customInstructions"]);
    const read = mem0LlmSettings(section.string("provider") ?? "openai", mem0.value);
    if ("problem" in read) {
      return read.key === "provider"
        ? section.fail("provider", read.problem)
        : mem0.fail(read.key, read.problem);
    }
    const apiKey = mem0.deferredString("apiKey") ?? mem0.deferredString("api_key");
    return compact({
      ...read.settings,
      apiKey,
      apiKeyEnv: apiKey === undefined ? read.settings.apiKeyEnv : undefined,
      maxCallsPerRun: section.positiveInteger("maxCallsPerRun"),
      customInstructions: section.string("customInstructions"),
    });
  }
  section.allowOnly([
    "provider",
    "model",
    "baseURL",
    "apiKey",
    "headers",
    "timeoutMs",
    "maxRetries",
    "jsonMode",
    "maxCallsPerRun",
    "customInstructions",
    "apiKeyEnv",
  ]);
  const provider =
    section.oneOf("provider", LLM_PROVIDERS) ??
    section.fail(
      "provider",
      `is required: ${LLM_PROVIDERS.join(" or ")} (or Mem0's { "provider": "${MEM0_LLM_PROVIDERS[0]}", "config": { … } }).`,
    );
  if (provider === "anthropic" && section.value.apiKey === undefined && section.value.apiKeyEnv === undefined)
    section.fail("apiKey", 'is required for anthropic, e.g. { "env": "ANTHROPIC_API_KEY" }.');
  return compact({
    provider,
    model: section.requiredString(
      "model",
      provider === "anthropic" ? '"claude-sonnet-4-5"' : '"gpt-4o-mini"',
    ),
    baseURL: section.string("baseURL"),
    apiKey: section.deferredString("apiKey"),
    headers: readHeaders(section.section("headers")),
    timeoutMs: section.positiveInteger("timeoutMs"),
    maxRetries: COUNT.read(section, "maxRetries"),
    jsonMode: section.oneOf("jsonMode", JSON_MODES),
    maxCallsPerRun: section.positiveInteger("maxCallsPerRun"),
    customInstructions: section.string("customInstructions"),
    apiKeyEnv: section.string("apiKeyEnv"),
  });
}

function readDefaults(section: Section): DefaultScopeConfig {
  section.allowOnly(["userId", "agentId", "appId"]);
  const scope: DefaultScopeConfig = {};
  for (const key of ["userId", "agentId", "appId"] as const) {
    const value = section.string(key);
    if (value === undefined) continue;
    if (/\s/.test(value)) section.fail(key, `must be an id without whitespace, got ${describe(value)}.`);
    scope[key] = value;
  }
  return scope;
}

/** `policy`, by the policy's one reader; the gate is configured under `dream.gate`, not here. */
function readPolicy(section: Section): PolicyLayer {
  section.allowOnly(POLICY_LAYER_KEYS.filter((key) => key !== "gate"));
  return readPolicyLayer(section.value, (key, message) => section.fail(key, message));
}

function readDream(section: Section): NonNullable<LucidConfig["dream"]> {
  section.allowOnly(["gate", "llm"]);
  const gate = section.value.gate;
  return compact({
    gate:
      gate === undefined ? undefined : readGate(gate, "gate", (key, message) => section.fail(key, message)),
    llm: BOOLEAN.read(section, "llm"),
  });
}

function readMcp(section: Section): LucidConfig["mcp"] {
  section.allowOnly(["token", "tokens"]);
  const tokens = section.section("tokens");
  return compact({
    token: section.deferredString("token"),
    tokens: tokens === undefined ? undefined : readTokens(tokens),
  });
}

/** `mcp.tokens`: named tokens, each bound to a scope (`userId`, and optionally `agentId`, `appId`). */
function readTokens(section: Section): Record<string, { token: DeferredString; scope: ScopeOptions }> {
  const tokens: Record<string, { token: DeferredString; scope: ScopeOptions }> = {};
  for (const name of Object.keys(section.value)) {
    if (ANNOTATION_KEYS.has(name)) continue;
    const entry = section.section(name) as Section;
    entry.allowOnly(["token", "userId", "agentId", "appId"]);
    const token =
      entry.deferredString("token") ?? entry.fail("token", 'is required, e.g. { "env": "ALICE_MCP_TOKEN" }.');
    const scope: ScopeOptions = {};
    for (const key of ["userId", "agentId", "appId"] as const) {
      const value = entry.string(key);
      if (value === undefined) continue;
      if (/\s/u.test(value)) entry.fail(key, `must be an id without whitespace, got ${describe(value)}.`);
      scope[key] = value;
    }
    if (Object.keys(scope).length === 0)
      entry.fail(
        "userId",
        "is required: a token here is bound to a scope (use mcp.token for one that is not).",
      );
    tokens[name] = { token, scope };
  }
  return tokens;
}
