/**
 * The shape of `lucid.config.json`, and its validation. Every key is checked: an unknown key or a
 * value of the wrong type is an `INVALID_CONFIG` error naming the file and the key, so a typo never
 * silently falls back to a default.
 *
 * @module
 */

import type { CategoryPolicy } from "../policy/categories.js";
import { configError } from "./config-error.js";

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

export interface LucidConfig {
  embedder: EmbedderConfig;
  llm?: LlmConfig;
  policy: { categories: Record<string, Partial<CategoryPolicy>> };
  defaults: DefaultScopeConfig;
  maxTextBytes?: number;
}

/** Keys that hold secrets: never printed, whether written literally or as an env reference. */
export const SECRET_KEYS: readonly string[] = ["embedder.apiKey", "embedder.headers.*", "llm.apiKey"];

/** Annotation keys allowed in any object, since JSON has no comments. */
const ANNOTATION_KEYS = new Set(["$comment", "$schema"]);

type Json = Record<string, unknown>;

/** Reads one object of the file, with the file and the object's path for error messages. */
class Section {
  constructor(
    readonly file: string,
    readonly path: string,
    readonly value: Json,
  ) {}

  static of(file: string, path: string, value: unknown): Section {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw configError(file, path, `must be an object, got ${describe(value)}.`);
    }
    return new Section(file, path, value as Json);
  }

  key(name: string): string {
    return this.path === "" ? name : `${this.path}.${name}`;
  }

  fail(name: string, message: string): never {
    throw configError(this.file, this.key(name), message);
  }

  allowOnly(names: readonly string[]): void {
    for (const name of Object.keys(this.value)) {
      if (ANNOTATION_KEYS.has(name) || names.includes(name)) continue;
      this.fail(name, `unknown key. Allowed here: ${names.join(", ")}.`);
    }
  }

  section(name: string): Section | undefined {
    const value = this.value[name];
    return value === undefined ? undefined : Section.of(this.file, this.key(name), value);
  }

  string(name: string): string | undefined {
    const value = this.value[name];
    if (value === undefined) return undefined;
    if (typeof value !== "string" || value.trim() === "") {
      this.fail(name, `must be a non-empty string, got ${describe(value)}.`);
    }
    return value;
  }

  requiredString(name: string, example: string): string {
    return this.string(name) ?? this.fail(name, `is required, e.g. ${example}.`);
  }

  oneOf<T extends string>(name: string, choices: readonly T[]): T | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (!(choices as readonly string[]).includes(value)) {
      this.fail(name, `must be one of ${choices.map((c) => JSON.stringify(c)).join(", ")}, got ${describe(value)}.`);
    }
    return value as T;
  }

  positiveInteger(name: string): number | undefined {
    const value = this.value[name];
    if (value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
      this.fail(name, `must be a positive integer, got ${describe(value)}.`);
    }
    return value;
  }
}

/** Validates a parsed (and env-resolved) config file; absent sections get their defaults. */
export function validateConfig(raw: unknown, file: string): LucidConfig {
  const root = Section.of(file, "", raw);
  root.allowOnly(["embedder", "llm", "policy", "defaults", "maxTextBytes"]);
  const embedder = root.section("embedder");
  const llm = root.section("llm");
  const policy = root.section("policy");
  const defaults = root.section("defaults");
  const maxTextBytes = root.positiveInteger("maxTextBytes");
  return {
    embedder: embedder === undefined ? { provider: "local" } : readEmbedder(embedder),
    ...(llm === undefined ? {} : { llm: readLlm(llm) }),
    policy: { categories: policy === undefined ? {} : readCategories(policy) },
    defaults: defaults === undefined ? {} : readDefaults(defaults),
    ...(maxTextBytes === undefined ? {} : { maxTextBytes }),
  };
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
    section.oneOf("provider", LLM_PROVIDERS) ?? section.fail("provider", `is required: ${LLM_PROVIDERS.join(" or ")}.`);
  return compact({
    provider,
    model: section.requiredString("model", '"gpt-4o-mini"'),
    baseURL: section.string("baseURL"),
    apiKey: section.string("apiKey"),
  });
}

function readCategories(policy: Section): Record<string, Partial<CategoryPolicy>> {
  policy.allowOnly(["categories"]);
  const categories = policy.section("categories");
  if (categories === undefined) return {};
  const result: Record<string, Partial<CategoryPolicy>> = {};
  for (const name of Object.keys(categories.value)) {
    if (ANNOTATION_KEYS.has(name)) continue;
    if (!/^[a-z][a-z0-9_]*$/.test(name)) categories.fail(name, "category names are lower_snake_case.");
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
    section.fail("ttlDays", `must be a positive number of days, or null for never, got ${describe(ttlDays)}.`);
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

/** The object without its undefined fields, so optional keys are absent rather than undefined. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return JSON.stringify(value);
}
