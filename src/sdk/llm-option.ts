/**
 * The `llm` option of `openMemory` read into the context's binding: an object with `complete()`,
 * Lucid's settings (`{ provider: "openai-compatible", baseURL, model, apiKey }`, as in
 * `lucid.config.json`), or Mem0's `{ provider: "openai", config: { apiKey, model } }`.
 *
 * @module
 */

import { validateConfig } from "../config/config-schema.js";
import { createConfiguredLlm } from "../config/configured-llm.js";
import type { LlmSettings } from "../config/llm-settings.js";
import { DEFAULT_MAX_CALLS_PER_RUN, type LlmBinding } from "../core/llm-run.js";
import { isLucidError, LucidError } from "../errors.js";
import type { Llm } from "../llm/llm.js";

/** What `openMemory({ llm })` takes. */
export type LlmOption = Llm | LlmSettings | { provider: string; config?: Record<string, unknown> };

/**
 * The binding for the options, or undefined without `llm`.
 *
 * @throws LucidError `INVALID_ARGUMENT` naming what is wrong with the settings.
 * @example
 * llmBinding({ llm: { provider: "ollama", config: { model: "llama3.1" } } });
 * // => { model: <an OpenAI-compatible LLM on http://localhost:11434/v1>, maxCallsPerRun: 20 }
 */
export function llmBinding(options: {
  llm?: LlmOption | undefined;
  maxLlmCallsPerRun?: number | undefined;
  customInstructions?: string | undefined;
}): LlmBinding | undefined {
  const { llm } = options;
  if (llm === undefined) return undefined;
  const settings = isLlm(llm) ? undefined : readSettings(llm);
  const model = settings === undefined ? checkLlm(llm as Llm) : createConfiguredLlm(settings);
  const maxCallsPerRun = options.maxLlmCallsPerRun ?? settings?.maxCallsPerRun ?? DEFAULT_MAX_CALLS_PER_RUN;
  if (!Number.isInteger(maxCallsPerRun) || maxCallsPerRun <= 0) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `maxLlmCallsPerRun must be a positive integer, got ${maxCallsPerRun}.`,
    );
  }
  const customInstructions = options.customInstructions ?? settings?.customInstructions;
  if (customInstructions !== undefined && typeof customInstructions !== "string") {
    throw new LucidError("INVALID_ARGUMENT", "customInstructions must be a string.");
  }
  return {
    model,
    maxCallsPerRun,
    ...(customInstructions === undefined || customInstructions.trim() === "" ? {} : { customInstructions }),
  };
}

function isLlm(value: unknown): value is Llm {
  return typeof value === "object" && value !== null && typeof (value as Llm).complete === "function";
}

function checkLlm(llm: Llm): Llm {
  if (typeof llm.id !== "string" || llm.id.trim() === "") {
    throw new LucidError(
      "INVALID_ARGUMENT",
      'An llm object needs an `id` naming its model (e.g. "my-gateway:gpt-4o-mini"): every decision it makes records it.',
    );
  }
  return llm;
}

/** Settings in either shape, checked by the config file's own reader so both say the same. */
function readSettings(value: unknown): LlmSettings {
  try {
    const config = validateConfig({ llm: value }, "the llm option");
    return config.llm as LlmSettings;
  } catch (error) {
    if (!isLucidError(error, "INVALID_CONFIG")) throw error;
    throw new LucidError("INVALID_ARGUMENT", error.message, { cause: error });
  }
}
