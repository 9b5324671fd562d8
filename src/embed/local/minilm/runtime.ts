/**
 * The seam between the MiniLM embedder and the engines that run the model: onnxruntime-node
 * (native) or the candle WASM engine of `@lat.md/embed`. Both run the same weights and return the
 * same vectors, so the embedder does not care which one it got.
 *
 * @module
 */

export const MINILM_RUNTIME_NAMES = ["native", "wasm"] as const;
export type MiniLmRuntimeName = (typeof MINILM_RUNTIME_NAMES)[number];

/** A text with its token ids from Lucid's tokenizer (the WASM engine tokenises the text itself). */
export interface EncodedText {
  readonly text: string;
  readonly ids: readonly number[];
}

export interface MiniLmRuntime {
  readonly name: MiniLmRuntimeName;
  /** What runs it: `onnxruntime-node 1.30.0`, `@lat.md/embed`. */
  readonly engine: string;
  /** Most texts one `embedBatch` call takes. */
  readonly maxBatchTexts: number;
  /** Most padded tokens (texts × longest text) one call should take. */
  readonly maxBatchTokens: number;
  /** One unit-length, 384-dimensional vector per text, in order. */
  embedBatch(batch: readonly EncodedText[]): Promise<Float32Array[]>;
}
