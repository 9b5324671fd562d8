/**
 * The Embedder port: anything that turns texts into fixed-size vectors.
 *
 * Lucid ships a local default (Universal Sentence Encoder lite, offline) and an OpenAI-compatible
 * HTTP embedder; any object of this shape works too.
 *
 * @module
 */

/** Why texts are embedded. Asymmetric models (e5, nomic…) embed queries and documents differently. */
export type EmbedPurpose = "add" | "search" | "update";

/** What runs a local model, and why that one: `status` shows it. */
export interface EmbedderRuntime {
  /** `native` (onnxruntime-node) or `wasm`. */
  readonly name: string;
  /** One line: `onnxruntime-node 1.30.0`, `onnxruntime-node could not be loaded: …`. */
  readonly reason: string;
  /** Whether it is less than was asked for: WASM standing in for native, or native not loading. */
  readonly degraded: boolean;
}

export interface Embedder {
  /**
   * Names the model that made the vectors, e.g. `"use-lite@0.2.0"` or `"openai-compatible:text-embedding-3-small"`.
   * The store records it: a store written by one embedder refuses another. Defaults to `"custom"`.
   */
  readonly id?: string;
  /** Length of every vector `embed` returns. */
  readonly dimension: number;
  /** One vector per text, in order. */
  embed(texts: readonly string[], purpose: EmbedPurpose): Promise<ArrayLike<number>[]>;
  /**
   * Which runtime runs the model and why, found without loading the model. Optional: the local
   * embedders have it; a remote one has no runtime to report.
   */
  describeRuntime?(): Promise<EmbedderRuntime>;
  /** Releases resources (a model, sockets). Optional. */
  close?(): Promise<void>;
}
