import type { Embedder } from "../../src/embed/embedder.js";

/**
 * A deterministic in-process embedder for tests that need to control geometry: each text's vector
 * comes from `vectorFor`, so a test can make a memory semantically far from a query on purpose.
 * (An embedder is a port callers may implement themselves; this is one such implementation.)
 */
export function scriptedEmbedder(
  dimension: number,
  vectorFor: (text: string) => number[],
  id = `scripted-${dimension}`,
): Embedder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    id,
    dimension,
    calls,
    async embed(texts) {
      calls.push([...texts]);
      return texts.map((text) => vectorFor(text));
    },
  };
}
