import type { Embedder } from "../embed/embedder.js";
import { createMiniLmEmbedder } from "../embed/local/minilm-embedder.js";
import { createUseLiteEmbedder } from "../embed/local/use-lite-embedder.js";
import { createOpenAICompatibleEmbedder } from "../embed/openai-compatible/openai-compatible-embedder.js";
import type { EmbedderConfig } from "./config-schema.js";
import { type DeferredString, UnsetEnvValue } from "./resolve-env-refs.js";

/**
 * The embedder a config's `embedder` section names, or undefined for `local`: that choice waits
 * for the store (its own local model, MiniLM for a new one), so it is made when the store opens.
 * Nothing is loaded or contacted yet.
 */
export function createConfiguredEmbedder(config: EmbedderConfig): Embedder | undefined {
  switch (config.provider) {
    case "local":
      return undefined;
    case "minilm":
      return createMiniLmEmbedder({
        ...(config.batchSize === undefined ? {} : { batchSize: config.batchSize }),
        ...(config.runtime === undefined ? {} : { runtime: config.runtime }),
      });
    case "use-lite":
      return createUseLiteEmbedder({
        ...(config.batchSize === undefined ? {} : { batchSize: config.batchSize }),
      });
    default: {
      const { provider: _provider, apiKey, headers, ...options } = config;
      // A key whose variable is unset fails when the embedder is first used, not when it is made.
      const later = (value: DeferredString) => (value instanceof UnsetEnvValue ? () => value.read() : value);
      return createOpenAICompatibleEmbedder({
        ...options,
        ...(apiKey === undefined ? {} : { apiKey: later(apiKey) }),
        ...(headers === undefined
          ? {}
          : {
              headers: Object.fromEntries(
                Object.entries(headers).map(([name, value]) => [name, later(value)]),
              ),
            }),
      });
    }
  }
}
