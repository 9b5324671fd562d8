import type { Embedder } from "../embed/embedder.js";
import { createLocalEmbedder } from "../embed/local/use-lite-embedder.js";
import { createOpenAICompatibleEmbedder } from "../embed/openai-compatible/openai-compatible-embedder.js";
import type { EmbedderConfig } from "./config-schema.js";

/** The embedder a config's `embedder` section describes. Nothing is loaded or contacted yet. */
export function createConfiguredEmbedder(config: EmbedderConfig): Embedder {
  if (config.provider === "local") return createLocalEmbedder({ batchSize: config.batchSize });
  const { provider: _provider, ...options } = config;
  return createOpenAICompatibleEmbedder(options);
}
