/**
 * Runs MiniLM in WebAssembly with `@lat.md/embed` (candle): slower than onnxruntime-node but with
 * nothing to install natively, so it serves platforms where the optional native module is missing.
 *
 * @module
 */

import type { MiniLmFiles } from "./model-files.js";
import type { MiniLmRuntime } from "./runtime.js";
import { readVerifiedWeights } from "./verify-weights.js";

/**
 * `@lat.md/embed` hands calls of 24 texts or more to worker threads, each loading its own copy of
 * the model; measured slower here than staying inline, so calls stay below that.
 */
const MAX_INLINE_TEXTS = 23;

export async function loadWasmRuntime(files: MiniLmFiles): Promise<MiniLmRuntime> {
  // The engine reads the weights itself, from the same path; checked first so a damaged file is refused.
  await readVerifiedWeights(files.manifest.weightsPath);
  const { createEmbedder } = await import("@lat.md/embed");
  const engine = await createEmbedder({ model: files.manifest });
  // The engine loads on its first call: make that happen now, so load failures surface as such.
  await engine.embed([""]);
  return {
    name: "wasm",
    engine: "@lat.md/embed",
    maxBatchTexts: MAX_INLINE_TEXTS,
    // The engine runs one text per forward pass, so padding costs nothing and needs no budget.
    maxBatchTokens: Number.POSITIVE_INFINITY,
    async embedBatch(batch) {
      const rows = await engine.embed(batch.map((text) => text.text));
      return rows.map((row) => Float32Array.from(row));
    },
  };
}
