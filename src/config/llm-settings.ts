/**
 * The optional LLM's settings, in Lucid's shape (`lucid.config.json`'s `llm`), and Mem0's `llm: {
 * provider, config }` read into them, for the config file and for `new Memory(config)` alike:
 * Mem0's OpenAI-compatible providers become `openai-compatible` on their usual address,
 * `anthropic` stays itself.
 *
 * @module
 */

import { warnOnce } from "../core/warn-once.js";
import type { JsonMode } from "../llm/openai-compatible/openai-compatible-llm.js";
import { type DeferredString, UnsetEnvValue } from "./resolve-env-refs.js";

/** The clients Lucid ships. */
export const LLM_PROVIDERS = ["openai-compatible", "anthropic"] as const;

/** Lucid's LLM settings, as `lucid.config.json`'s `llm` gives them. */
export interface LlmSettings {
  provider: (typeof LLM_PROVIDERS)[number];
  model: string;
  baseURL?: string;
  apiKey?: DeferredString;
  headers?: Record<string, DeferredString>;
  timeoutMs?: number;
  maxRetries?: number;
  /** How an OpenAI-compatible server is asked for JSON; weaker modes are tried when it refuses one. */
  jsonMode?: JsonMode;
  /** Most calls one run (an add, a dream, a sleep sweep) may make. Default 20. */
  maxCallsPerRun?: number;
  /** Appended to the extraction prompt of `add` with `infer: true` (Mem0's `customInstructions`). */
  customInstructions?: string;
  /**
   * Without `apiKey`: the environment variable the key is read from when a call is made, as Mem0's
   * providers read theirs (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`…). Unset, an OpenAI-compatible
   * server is called without a key.
   */
  apiKeyEnv?: string;
}

/** Where each of Mem0's LLM providers listens, and the model Mem0 picks when none is given. */
const MEM0_PROVIDERS: Readonly<
  Record<string, { provider: LlmSettings["provider"]; baseURL: string; model?: string; keyEnv?: string }>
> = {
  // Mem0's default model (`config/defaults.ts`); the key variables its providers' SDKs read.
  openai: {
    provider: "openai-compatible",
    baseURL: "https://api.openai.com/v1",
    model: "gpt-5-mini",
    keyEnv: "OPENAI_API_KEY",
  },
  openai_structured: {
    provider: "openai-compatible",
    baseURL: "https://api.openai.com/v1",
    model: "gpt-5-mini",
    keyEnv: "OPENAI_API_KEY",
  },
  anthropic: { provider: "anthropic", baseURL: "https://api.anthropic.com/v1", keyEnv: "ANTHROPIC_API_KEY" },
  ollama: { provider: "openai-compatible", baseURL: "http://localhost:11434/v1" },
  lmstudio: { provider: "openai-compatible", baseURL: "http://localhost:1234/v1" },
  vllm: { provider: "openai-compatible", baseURL: "http://localhost:8000/v1" },
  groq: { provider: "openai-compatible", baseURL: "https://api.groq.com/openai/v1", keyEnv: "GROQ_API_KEY" },
  deepseek: {
    provider: "openai-compatible",
    baseURL: "https://api.deepseek.com/v1",
    keyEnv: "DEEPSEEK_API_KEY",
  },
  xai: { provider: "openai-compatible", baseURL: "https://api.x.ai/v1", keyEnv: "XAI_API_KEY" },
  together: {
    provider: "openai-compatible",
    baseURL: "https://api.together.xyz/v1",
    keyEnv: "TOGETHER_API_KEY",
  },
  mistral: { provider: "openai-compatible", baseURL: "https://api.mistral.ai/v1", keyEnv: "MISTRAL_API_KEY" },
};

export const MEM0_LLM_PROVIDERS = Object.keys(MEM0_PROVIDERS);

/** The keys of Mem0's `llm.config` Lucid reads, and those it accepts but sets per task itself. */
const READ_KEYS = ["model", "apiKey", "api_key", "baseURL", "url"] as const;
const PER_TASK_KEYS = ["temperature", "maxTokens", "max_tokens", "topP", "top_p", "modelProperties"];
export const MEM0_LLM_CONFIG_KEYS = [...READ_KEYS, ...PER_TASK_KEYS];

/**
 * Lucid's settings from Mem0's section, or a message saying what is wrong with it.
 *
 * @example
 * mem0LlmSettings("ollama", { model: "llama3.1" });
 * // => { settings: { provider: "openai-compatible", model: "llama3.1", baseURL: "http://localhost:11434/v1" } }
 */
export function mem0LlmSettings(
  provider: string,
  config: Readonly<Record<string, unknown>>,
): { settings: LlmSettings } | { problem: string; key: string } {
  const known = MEM0_PROVIDERS[provider];
  if (known === undefined) {
    return {
      key: "provider",
      problem: `${JSON.stringify(provider)} is not a provider Lucid speaks: use ${MEM0_LLM_PROVIDERS.join(", ")} (any server with OpenAI's Chat Completions works as openai with a baseURL).`,
    };
  }
  const unknown = Object.keys(config).find((key) => !MEM0_LLM_CONFIG_KEYS.includes(key));
  if (unknown !== undefined) {
    return {
      key: unknown,
      problem: `is not a key of Mem0's llm.config Lucid reads (${MEM0_LLM_CONFIG_KEYS.join(", ")}).`,
    };
  }
  const model = config.model ?? known.model;
  if (typeof model !== "string" || model.trim() === "") {
    return { key: "model", problem: `is required for ${provider}, e.g. "llama3.1" or "claude-sonnet-4-5".` };
  }
  const url = config.baseURL ?? config.url;
  if (url !== undefined && (typeof url !== "string" || url.trim() === "")) {
    return { key: "baseURL", problem: "must be a URL string." };
  }
  const apiKey = config.apiKey ?? config.api_key;
  if (apiKey !== undefined && typeof apiKey !== "string" && !(apiKey instanceof UnsetEnvValue)) {
    return { key: "apiKey", problem: 'must be a string or { "env": "NAME" }.' };
  }
  const ignored = PER_TASK_KEYS.filter((key) => config[key] !== undefined);
  if (ignored.length > 0) {
    warnOnce(
      "mem0:llm.config",
      `Mem0's llm.config ${ignored.join(", ")} is not used by Lucid: each task sets its own temperature and answer length.`,
      { code: "LUCID_MEM0_CONFIG" },
    );
  }
  // Ollama's own API root has no /v1; its OpenAI-compatible one does.
  let baseURL = (url ?? known.baseURL).replace(/\/+$/u, "");
  if (provider === "ollama" && !baseURL.endsWith("/v1")) baseURL = `${baseURL}/v1`;
  return {
    settings: {
      provider: known.provider,
      model: model.trim(),
      baseURL,
      ...(apiKey === undefined ? {} : { apiKey: apiKey as DeferredString }),
      ...(apiKey === undefined && known.keyEnv !== undefined ? { apiKeyEnv: known.keyEnv } : {}),
    },
  };
}
