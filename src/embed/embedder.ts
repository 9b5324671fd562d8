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
  /** Releases resources (a model, sockets). Optional. */
  close?(): Promise<void>;
}
