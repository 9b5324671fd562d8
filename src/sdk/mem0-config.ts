/**
 * Mem0's configuration, read into Lucid's options, so `new Memory(config)` of a `mem0ai/oss` program
 * works after the import change: Mem0's `embedder: { provider, config }` becomes one of Lucid's
 * embedders; its `llm: { provider, config }` is read by `llmBinding` like Lucid's own settings; what has no meaning here
 * (`historyDbPath`, `disableHistory`, a vector store other than `memory`, `reranker`, graph memory)
 * is reported once, with why; and a key neither knows is an error naming it, so a typo (`pth`)
 * never passes silently.
 *
 * @module
 */

import { warnOnce } from "../core/warn-once.js";
import type { Embedder } from "../embed/embedder.js";
import { createOpenAICompatibleEmbedder } from "../embed/openai-compatible/openai-compatible-embedder.js";
import { LucidError } from "../errors.js";
import { closestName } from "../text/closest-name.js";
import type { MemoryOptions } from "./create-context.js";
import { type LlmOption, llmBinding } from "./llm-option.js";

/** Mem0's `{ provider, config }` sections. */
export interface Mem0ProviderConfig {
  provider: string;
  config?: Record<string, unknown>;
}

/** What `new Memory(config)` takes: Lucid's options, Mem0's `MemoryConfig` keys, or both. */
export type MemoryConfig = Omit<MemoryOptions, "embedder"> &
  Mem0ConfigKeys & { embedder?: Embedder | Mem0ProviderConfig };

/** The keys of Mem0's `MemoryConfig` that Lucid reads (everything else of Mem0's is refused). */
export interface Mem0ConfigKeys {
  version?: string;
  vectorStore?: Mem0ProviderConfig;
  historyStore?: Mem0ProviderConfig;
  historyDbPath?: string;
  disableHistory?: boolean;
  customPrompt?: string;
  reranker?: Mem0ProviderConfig;
  enableGraph?: boolean;
  graphStore?: Mem0ProviderConfig;
}

const LUCID_KEYS = [
  "path",
  "store",
  "embedder",
  "localEmbedder",
  "clock",
  "policy",
  "maxTextBytes",
  "timeZone",
  "readOnly",
  "busyTimeoutMs",
  "allowEmbedderChange",
  "llm",
  "maxLlmCallsPerRun",
  "dreamLlm",
  "customInstructions",
] as const;
const MEM0_KEYS = [
  "version",
  "vectorStore",
  "historyStore",
  "historyDbPath",
  "disableHistory",
  "customPrompt",
  "reranker",
  "enableGraph",
  "graphStore",
] as const;
const KNOWN = [...LUCID_KEYS, ...MEM0_KEYS];

/** Where each OpenAI-compatible provider of Mem0 listens by default. */
const PROVIDERS: Readonly<Record<string, { baseURL: string; model?: string; needsKey: boolean }>> = {
  openai: { baseURL: "https://api.openai.com/v1", model: "text-embedding-3-small", needsKey: true },
  ollama: { baseURL: "http://localhost:11434", model: "nomic-embed-text", needsKey: false },
  lmstudio: { baseURL: "http://localhost:1234/v1", needsKey: false },
  together: { baseURL: "https://api.together.xyz/v1", needsKey: true },
};

/** Vector lengths of the models Mem0's docs use, so `embeddingDims` can be left out for them. */
const MODEL_DIMENSIONS: Readonly<Record<string, number>> = {
  "text-embedding-3-small": 1536,
  "text-embedding-3-large": 3072,
  "text-embedding-ada-002": 1536,
  "nomic-embed-text": 768,
  "mxbai-embed-large": 1024,
  "all-minilm": 384,
  "snowflake-arctic-embed": 1024,
  "bge-m3": 1024,
};

const EMBEDDER_CONFIG_KEYS = ["apiKey", "model", "baseURL", "url", "embeddingDims", "dimension"];

/** Reports once per process that a Mem0 setting has no meaning in Lucid, and why. */
function notApplicable(key: string, why: string): void {
  warnOnce(`mem0:${key}`, `Mem0's ${key} is not used by Lucid: ${why}`, { code: "LUCID_MEM0_CONFIG" });
}

/**
 * Lucid's options from what a caller passed: Lucid's own, Mem0's, or a mix.
 *
 * @throws LucidError `INVALID_ARGUMENT` naming an unknown key (with the nearest known one), or a
 *   Mem0 section Lucid cannot honour (an embedder provider it does not speak, a missing vector size).
 * @example
 * readMemoryOptions({ embedder: { provider: "ollama", config: { model: "nomic-embed-text" } } });
 * // => { embedder: <an OpenAI-compatible embedder on http://localhost:11434/v1, 768-d> }
 */
export function readMemoryOptions(raw: unknown): MemoryOptions {
  if (raw === undefined) return {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      'Memory options must be an object, e.g. { path: "./agent.db" }.',
    );
  }
  const given = raw as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if ((KNOWN as readonly string[]).includes(key)) continue;
    const near = closestName(key, KNOWN);
    throw new LucidError(
      "INVALID_ARGUMENT",
      `Unknown Memory option ${JSON.stringify(key)}${near === undefined ? "" : ` (did you mean "${near}"?)`}. Lucid takes ${LUCID_KEYS.join(", ")}, and Mem0's ${MEM0_KEYS.join(", ")}.`,
      { details: { key } },
    );
  }
  const options: Record<string, unknown> = {};
  for (const key of LUCID_KEYS) if (given[key] !== undefined) options[key] = given[key];

  // Checked now, so `new Memory(config)` fails at once on a bad llm section, as on a bad embedder.
  if (given.llm !== undefined) llmBinding({ llm: given.llm as LlmOption });
  const vectorStore = section(given.vectorStore, "vectorStore");
  const storeDimension = readVectorStore(vectorStore, options);
  if (isMem0Section(given.embedder)) {
    options.embedder = mem0Embedder(
      section(given.embedder, "embedder") as Mem0ProviderConfig,
      storeDimension,
    );
  }
  if (given.customPrompt !== undefined && given.customInstructions === undefined) {
    options.customInstructions = given.customPrompt;
  }
  if (given.historyDbPath !== undefined || given.historyStore !== undefined) {
    notApplicable(
      given.historyDbPath === undefined ? "historyStore" : "historyDbPath",
      "history is kept in the same store as the memories (undo and dream need it there).",
    );
  }
  if (given.disableHistory === true) {
    notApplicable("disableHistory", "history is always kept: it is what undo restores and dream reviews.");
  }
  if (given.reranker !== undefined) {
    notApplicable(
      "reranker",
      "search ranks by its fused score (meaning, words, entities); there is no reranker step.",
    );
  }
  if (given.enableGraph !== undefined || given.graphStore !== undefined) {
    notApplicable(
      "graph memory",
      "Lucid links memories to entities in its store; Mem0's TypeScript SDK dropped graph memory in v3.",
    );
  }
  return options as MemoryOptions;
}

/**
 * A `{ provider, config }` section, checked. A missing provider is Mem0's default, `openai`. The
 * message never quotes the section: its config holds API keys.
 */
function section(value: unknown, key: string): Mem0ProviderConfig | undefined {
  if (value === undefined) return undefined;
  const shape = value as Partial<Mem0ProviderConfig> | null;
  const bad =
    typeof shape !== "object" ||
    shape === null ||
    Array.isArray(shape) ||
    (shape.provider !== undefined && typeof shape.provider !== "string") ||
    (shape.config !== undefined && (typeof shape.config !== "object" || shape.config === null));
  if (bad) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `${key} must be Mem0's { provider: "…", config: { … } } (a provider name and an object of settings).`,
      { details: { key } },
    );
  }
  return { ...shape, provider: shape.provider ?? "openai" } as Mem0ProviderConfig;
}

/** Mem0's embedder section (`provider` and/or `config`), as against a Lucid `Embedder` object. */
function isMem0Section(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Partial<Embedder>).embed !== "function" &&
    ("provider" in value || "config" in value)
  );
}

/**
 * Mem0's `memory` vector store is a SQLite file: its `dbPath` becomes Lucid's `path`; its
 * `dimension` sizes an embedder that does not say. Any other vector store is reported once.
 */
function readVectorStore(
  vectorStore: Mem0ProviderConfig | undefined,
  options: Record<string, unknown>,
): number | undefined {
  if (vectorStore === undefined) return undefined;
  const config = vectorStore.config ?? {};
  if (vectorStore.provider !== "memory") {
    notApplicable(
      `vectorStore "${vectorStore.provider}"`,
      "memories live in Lucid's store (SQLite by default, or the `store` option); its settings are ignored.",
    );
    return typeof config.dimension === "number" ? config.dimension : undefined;
  }
  if (typeof config.dbPath === "string" && options.path === undefined && options.store === undefined) {
    options.path = config.dbPath;
  }
  return typeof config.dimension === "number" ? config.dimension : undefined;
}

function mem0Embedder(embedder: Mem0ProviderConfig, storeDimension: number | undefined): Embedder {
  const provider = PROVIDERS[embedder.provider];
  if (provider === undefined) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `Mem0's embedder provider ${JSON.stringify(embedder.provider)} is not one Lucid speaks. Use ${Object.keys(PROVIDERS).join(", ")} (any server with OpenAI's /embeddings), or leave embedder out for the offline default.`,
      { details: { provider: embedder.provider } },
    );
  }
  const config = embedder.config ?? {};
  const unknown = Object.keys(config).filter((key) => !EMBEDDER_CONFIG_KEYS.includes(key));
  if (unknown.length > 0) {
    const near = closestName(unknown[0] as string, EMBEDDER_CONFIG_KEYS);
    throw new LucidError(
      "INVALID_ARGUMENT",
      `Unknown embedder.config key ${JSON.stringify(unknown[0])}${near === undefined ? "" : ` (did you mean "${near}"?)`}; Lucid reads ${EMBEDDER_CONFIG_KEYS.join(", ")}.`,
    );
  }
  if (config.model !== undefined && typeof config.model !== "string") {
    throw new LucidError("INVALID_ARGUMENT", "embedder.config.model must be a model name.");
  }
  const model = config.model ?? provider.model;
  if (model === undefined) {
    throw new LucidError("INVALID_ARGUMENT", `embedder.config.model is required for ${embedder.provider}.`);
  }
  const url = config.baseURL ?? config.url;
  if (url !== undefined && (typeof url !== "string" || url.trim() === "")) {
    throw new LucidError("INVALID_ARGUMENT", "embedder.config.baseURL (or url) must be a URL string.");
  }
  // Ollama's own API root has no /v1; its OpenAI-compatible one does.
  const root = (url ?? provider.baseURL).replace(/\/+$/u, "");
  const baseURL = embedder.provider === "ollama" && !root.endsWith("/v1") ? `${root}/v1` : root;
  const dimension =
    numberOr(config.embeddingDims) ??
    numberOr(config.dimension) ??
    storeDimension ??
    MODEL_DIMENSIONS[model.split(":")[0] ?? model];
  if (dimension === undefined) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `Lucid needs the vector size of ${JSON.stringify(model)}: set embedder.config.embeddingDims (as Mem0 does to skip its probe).`,
    );
  }
  const apiKey =
    typeof config.apiKey === "string"
      ? config.apiKey
      : embedder.provider === "openai"
        ? process.env.OPENAI_API_KEY
        : undefined;
  if (provider.needsKey && (apiKey === undefined || apiKey === "")) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `embedder.config.apiKey is required for ${embedder.provider}${embedder.provider === "openai" ? " (or OPENAI_API_KEY in the environment, as Mem0 reads it)" : ""}.`,
    );
  }
  return createOpenAICompatibleEmbedder({
    baseURL,
    model,
    dimension,
    ...(apiKey === undefined ? {} : { apiKey }),
    // text-embedding-3 models shorten their vectors when asked; the others return their own size.
    ...(model.startsWith("text-embedding-3") && config.embeddingDims !== undefined
      ? { dimensions: dimension }
      : {}),
  });
}

function numberOr(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}
