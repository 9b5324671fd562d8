import { LucidError } from "../errors.js";
import { createAnthropicLlm } from "../llm/anthropic/anthropic-llm.js";
import type { Llm } from "../llm/llm.js";
import { createOpenAICompatibleLlm } from "../llm/openai-compatible/openai-compatible-llm.js";
import type { LlmSettings } from "./llm-settings.js";
import { type DeferredString, UnsetEnvValue } from "./resolve-env-refs.js";

/**
 * The LLM an `llm` section names. Nothing is contacted yet; a key whose variable is unset fails
 * when the LLM is first called, so a command that needs no LLM works without it.
 *
 * @example
 * const llm = createConfiguredLlm({ provider: "openai-compatible", baseURL: "http://127.0.0.1:11434/v1", model: "llama3.1" });
 */
export function createConfiguredLlm(settings: LlmSettings): Llm {
  const later = (value: DeferredString) => (value instanceof UnsetEnvValue ? () => value.read() : value);
  const fromEnv = settings.apiKeyEnv;
  const apiKey: string | (() => string) | undefined =
    settings.apiKey !== undefined
      ? later(settings.apiKey)
      : fromEnv === undefined
        ? undefined
        : () => process.env[fromEnv] || (settings.provider === "anthropic" ? unsetKey(fromEnv) : "");
  const common = {
    model: settings.model,
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(settings.headers === undefined
      ? {}
      : {
          headers: Object.fromEntries(
            Object.entries(settings.headers).map(([name, value]) => [name, later(value)]),
          ),
        }),
    ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
    ...(settings.maxRetries === undefined ? {} : { maxRetries: settings.maxRetries }),
  };
  if (settings.provider === "anthropic") {
    // The config reader requires it; settings made in code may still leave it out.
    if (apiKey === undefined) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        'The anthropic LLM needs an apiKey, e.g. { "env": "ANTHROPIC_API_KEY" } in lucid.config.json.',
      );
    }
    return createAnthropicLlm({
      ...common,
      apiKey,
      ...(settings.baseURL === undefined ? {} : { baseURL: settings.baseURL }),
    });
  }
  return createOpenAICompatibleLlm({
    ...common,
    baseURL: settings.baseURL ?? "https://api.openai.com/v1",
    ...(settings.jsonMode === undefined ? {} : { jsonMode: settings.jsonMode }),
  });
}

/** An Anthropic key Mem0's section leaves to the environment, which does not have it. */
function unsetKey(variable: string): never {
  throw new LucidError(
    "INVALID_CONFIG",
    `${variable} is not set: the anthropic llm reads its key from it (as Mem0 does), or give llm.config.apiKey.`,
    { details: { variable } },
  );
}
