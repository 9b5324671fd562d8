import { createHash } from "node:crypto";
import type { Embedder } from "../../src/embed/embedder.js";

/**
 * A bag-of-words embedder: each word (lower-cased, four letters kept) adds 1 to a hashed one of
 * `dimension` slots, so texts sharing words are near and others far — enough geometry for tests of
 * search plumbing, with no model to load. Counts every call, for tests of what gets embedded.
 */
export function wordEmbedder(dimension = 64): Embedder & { embedded: number } {
  const embedder = {
    id: `words-${dimension}`,
    dimension,
    embedded: 0,
    async embed(texts: readonly string[]) {
      embedder.embedded += texts.length;
      return texts.map((text) => {
        const vector = new Array<number>(dimension).fill(0);
        for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
          const slot = createHash("sha1").update(word.slice(0, 4)).digest().readUInt32BE(0) % dimension;
          vector[slot] = (vector[slot] ?? 0) + 1;
        }
        if (!vector.some((value) => value > 0)) vector[0] = 1;
        return vector;
      });
    },
  };
  return embedder;
}
