/**
 * The shape of `lucid.config.json`, and its validation. Every key is checked: an unknown key or a
 * value of the wrong type is an `INVALID_CONFIG` error naming the file and the key, so a typo never
 * silently falls back to a default.
 *
 * @module
 */

import { SECRET_ACTIONS, type SecretsPolicy } from "../memory/secrets-guard.js";
import type { CategoryPolicy } from "../policy/categories.js";
import { POLICY_LAYER_KEYS, type PolicyLayer, readPolicyLayer } from "../policy/policy-layer.js";
import { ANNOTATION_KEYS, compact, describe, Section } from "./config-section.js";

export interface LocalEmbedderConfig {
  provider: "local";
  batchSize?: number;
}

export interface OpenAICompatibleEmbedderConfig {
  provider: "openai-compatible";
  baseURL: string;
  model: string;
  dimension?: number;
  dimensions?: number;
  apiKey?: string;
  batchSize?: number;
  timeoutMs?: number;
  headers?: Record<string, string>;
}

export type EmbedderConfig = LocalEmbedderConfig | OpenAICompatibleEmbedderConfig;

export const LLM_PROVIDERS = ["openai-compatible", "anthropic"] as const;

/** Reserved: validated now, used by consolidation later. */
export interface LlmConfig {
  provider: (typeof LLM_PROVIDERS)[number];
  model: string;
  baseURL?: string;
  apiKey?: string;
}

export interface DefaultScopeConfig {
  userId?: string;
  agentId?: string;
  appId?: string;
}

/** The auto-dream gate: Mem0's defaults are 24 hours, 5 sessions, 20 memories. */
export interface DreamGateConfig {
  minHours?: number;
  minSessions?: number;
  minMemories?: number;
}

export interface LucidConfig {
  embedder: EmbedderConfig;
  llm?: LlmConfig;
  policy: Omit<PolicyLayer, "categories" | "secrets"> & {
    categories: Record<string, Partial<CategoryPolicy>>;
    secrets?: SecretsPolicy;
  };
  defaults: DefaultScopeConfig;
  maxTextBytes?: number;
  dream?: { gate?: DreamGateConfig };
  /** The MCP server: `token` is the bearer token its HTTP transport requires. */
  mcp?: { token?: string };
}

/** Keys that hold secrets: never printed, whether written literally or as an env reference. */
export const SECRET_KEYS: readonly string[] = [
  "embedder.apiKey",
  "embedder.headers.*",
  "llm.apiKey",
  "mcp.token",
];

/** Validates a parsed (and env-resolved) config file; absent sections get their defaults. */
export function validateConfig(raw: unknown, file: string): LucidConfig {
  const root = Section.of(file, "", raw);
  root.allowOnly(["embedder", "llm", "policy", "defaults", "maxTextBytes", "dream", "mcp"]);
  const embedder = root.section("embedder");
  const llm = root.section("llm");
  const policy = root.section("policy");
  const defaults = root.section("defaults");
  const dream = root.section("dream");
  const mcp = root.section("mcp");
  return compact({
    embedder: embedder === undefined ? { provider: "local" } : readEmbedder(embedder),
    llm: llm === undefined ? undefined : readLlm(llm),
    policy: policy === undefined ? { categories: {} } : readPolicy(policy),
    defaults: defaults === undefined ? {} : readDefaults(defaults),
    maxTextBytes: root.positiveInteger("maxTextBytes"),
    dream: dream === undefined ? undefined : readDream(dream),
    mcp: mcp === undefined ? undefined : readMcp(mcp),
  });
}

function readEmbedder(section: Section): EmbedderConfig {
  const provider = section.oneOf("provider", ["local", "openai-compatible"] as const) ?? "local";
  if (provider === "local") {
    section.allowOnly(["provider", "batchSize"]);
    return compact({ provider, batchSize: section.positiveInteger("batchSize") });
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
    apiKey: section.string("apiKey"),
    batchSize: section.positiveInteger("batchSize"),
    timeoutMs: section.positiveInteger("timeoutMs"),
    headers: readHeaders(section.section("headers")),
  });
}

function readHeaders(section: Section | undefined): Record<string, string> | undefined {
  if (section === undefined) return undefined;
  const headers: Record<string, string> = {};
  for (const name of Object.keys(section.value)) {
    if (ANNOTATION_KEYS.has(name)) continue;
    headers[name] = section.string(name) ?? "";
  }
  return headers;
}

function readLlm(section: Section): LlmConfig {
  section.allowOnly(["provider", "model", "baseURL", "apiKey"]);
  const provider =
    section.oneOf("provider", LLM_PROVIDERS) ??
    section.fail("provider", `is required: ${LLM_PROVIDERS.join(" or ")}.`);
  return compact({
    provider,
    model: section.requiredString("model", '"gpt-4o-mini"'),
    baseURL: section.string("baseURL"),
    apiKey: section.string("apiKey"),
  });
}

/**
 * `policy`: categories and secrets govern every write; the dream analysers' thresholds
 * (`duplicates`, `contradictions`, `lowConfidence`, `maxLength`, `anchorCategories`) are checked
 * here by the dream policy's own reader, so a typo fails when the config loads, not mid-dream.
 */
function readPolicy(policy: Section): LucidConfig["policy"] {
  policy.allowOnly(POLICY_LAYER_KEYS);
  const layer = readPolicyLayer(policy.value, (key, message) => policy.fail(key, message));
  const secrets = policy.section("secrets");
  return compact({
    ...layer,
    categories: readCategories(policy),
    secrets: secrets === undefined ? undefined : readSecrets(secrets),
  });
}

/** `policy.secrets`: what to do with credentials in new text, and the detector's extra and disabled rules. */
function readSecrets(section: Section): SecretsPolicy {
  section.allowOnly(["onAdd", "disabledRules", "extraPatterns"]);
  const { disabledRules, extraPatterns } = section.value;
  if (
    disabledRules !== undefined &&
    !(Array.isArray(disabledRules) && disabledRules.every((id) => typeof id === "string"))
  ) {
    section.fail("disabledRules", `must be a list of rule ids, got ${describe(disabledRules)}.`);
  }
  if (extraPatterns !== undefined && !Array.isArray(extraPatterns)) {
    section.fail(
      "extraPatterns",
      `must be a list of { id, kind, pattern, flags? }, got ${describe(extraPatterns)}.`,
    );
  }
  const patterns = (extraPatterns ?? []).map((entry: unknown, index: number) => {
    const pattern = Section.of(section.file, section.key(`extraPatterns[${index}]`), entry);
    pattern.allowOnly(["id", "kind", "pattern", "flags"]);
    return compact({
      id: pattern.requiredString("id", "acme-badge"),
      kind: pattern.requiredString("kind", "acme-badge"),
      pattern: pattern.requiredString("pattern", "ACME-[0-9]{6}"),
      flags: pattern.string("flags"),
    });
  });
  return compact({
    onAdd: section.oneOf("onAdd", SECRET_ACTIONS),
    disabledRules: disabledRules as string[] | undefined,
    extraPatterns: extraPatterns === undefined ? undefined : patterns,
  });
}

function readCategories(policy: Section): Record<string, Partial<CategoryPolicy>> {
  const categories = policy.section("categories");
  if (categories === undefined) return {};
  const result: Record<string, Partial<CategoryPolicy>> = {};
  for (const name of Object.keys(categories.value)) {
    if (ANNOTATION_KEYS.has(name)) continue;
    if (!/^[a-z][a-z0-9_]*$/.test(name))
      categories.fail(name, "is not a valid category name: use lower_snake_case.");
    const category = categories.section(name) as Section;
    category.allowOnly(["importance", "ttlDays", "immutable"]);
    result[name] = readCategory(category);
  }
  return result;
}

function readCategory(section: Section): Partial<CategoryPolicy> {
  const { importance, ttlDays, immutable } = section.value;
  if (importance !== undefined && !(typeof importance === "number" && importance >= 0 && importance <= 1)) {
    section.fail("importance", `must be a number from 0 to 1, got ${describe(importance)}.`);
  }
  if (ttlDays !== undefined && ttlDays !== null && !(typeof ttlDays === "number" && ttlDays > 0)) {
    section.fail(
      "ttlDays",
      `must be a positive number of days, or null for never, got ${describe(ttlDays)}.`,
    );
  }
  if (immutable !== undefined && typeof immutable !== "boolean") {
    section.fail("immutable", `must be true or false, got ${describe(immutable)}.`);
  }
  return compact({ importance, ttlDays, immutable } as Partial<CategoryPolicy>);
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

function readDream(section: Section): { gate?: DreamGateConfig } {
  section.allowOnly(["gate"]);
  const gate = section.section("gate");
  if (gate === undefined) return {};
  gate.allowOnly(["minHours", "minSessions", "minMemories"]);
  return {
    gate: compact({
      minHours: gate.nonNegativeNumber("minHours"),
      minSessions: gate.nonNegativeInteger("minSessions"),
      minMemories: gate.nonNegativeInteger("minMemories"),
    }),
  };
}

function readMcp(section: Section): { token?: string } {
  section.allowOnly(["token"]);
  return compact({ token: section.string("token") });
}
