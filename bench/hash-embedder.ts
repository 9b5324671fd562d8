/**
 * A deterministic, instant embedder for benchmarks that measure the store, not a model.
 *
 * @module
 */

import type { Embedder } from "../src/embed/embedder.js";

/** Deterministic and instant: this measures the store, not a model. */
export const hashEmbedder: Embedder = {
  id: "bench-hash-16",
  dimension: 16,
  embed: async (texts) =>
    texts.map((text) => {
      let state = 2166136261;
      for (const char of text) state = Math.imul(state ^ (char.codePointAt(0) ?? 0), 16777619) >>> 0;
      return Array.from({ length: 16 }, () => {
        state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
        return (state >>> 8) / 2 ** 24 - 0.5;
      });
    }),
};
