/**
 * An Embedder that serves vectors computed earlier, so a benchmark times the engine and not the
 * model. It can borrow another embedder's `id` and `dimension`, so a store it writes can later be
 * opened with the real model (same vectors, same stamp).
 *
 * @module
 */

import type { Embedder } from "../src/index.js";
import { type CachedVectors, loadOrEmbed } from "./vector-cache.js";

export interface PrecomputedEmbedderOptions {
  readonly id: string;
  readonly dimension: number;
  readonly vectors: ReadonlyMap<string, Float32Array>;
}

export function createPrecomputedEmbedder(options: PrecomputedEmbedderOptions): Embedder {
  return {
    id: options.id,
    dimension: options.dimension,
    async embed(texts) {
      return texts.map((text) => {
        const vector = options.vectors.get(text);
        if (vector === undefined) {
          throw new Error(`No precomputed vector for ${JSON.stringify(text.slice(0, 80))}.`);
        }
        return vector;
      });
    },
  };
}

/**
 * The texts' vectors from `model`, embedded once and cached in `.bench-data/` (`loadOrEmbed`),
 * served by an embedder stamped as `model`: a store it writes opens later with the live model.
 */
export async function precomputedLike(
  model: Embedder,
  options: { name: string; texts: readonly string[]; onProgress?: (done: number, total: number) => void },
): Promise<{ embedder: Embedder; cache: CachedVectors }> {
  const cache = await loadOrEmbed({ ...options, embedder: model });
  const embedder = createPrecomputedEmbedder({
    id: model.id ?? "custom",
    dimension: model.dimension,
    vectors: cache.vectors,
  });
  return { embedder, cache };
}
