/**
 * An Embedder that serves vectors computed earlier, so a benchmark times the engine and not the
 * model. It can borrow another embedder's `id` and `dimension`, so a store it writes can later be
 * opened with the real model (same vectors, same stamp).
 *
 * @module
 */

import type { Embedder } from "../src/index.js";

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
