/**
 * Guards against embedders that break the port's contract, so a bad vector fails loudly here
 * instead of corrupting the store or a search later. Meant for embedders Lucid did not write.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import type { Embedder } from "./embedder.js";

/** The facts a store records about the embedder that wrote it. */
export interface EmbedderDescription {
  id: string;
  dimension: number;
}

/**
 * Checks that `vectors` holds one vector per text, each `embedder.dimension` long and made of finite
 * numbers, and returns them as fresh `Float32Array`s (copies, so an embedder reusing its buffers
 * cannot change stored vectors).
 *
 * @example
 * const vectors = checkVectors(embedder, texts, await embedder.embed(texts, "add"));
 */
export function checkVectors(embedder: Embedder, texts: readonly string[], vectors: unknown): Float32Array[] {
  const { id, dimension } = describeEmbedder(embedder);
  if (!Array.isArray(vectors) || vectors.length !== texts.length) {
    const got = Array.isArray(vectors) ? `${vectors.length} vectors` : typeof vectors;
    throw new LucidError(
      "EMBEDDER_FAILED",
      `Embedder "${id}" returned ${got} for ${texts.length} texts; embed() must return one vector per text, in order.`,
      { details: { embedder: id, texts: texts.length } },
    );
  }
  return vectors.map((vector: unknown, position) => {
    if (!isArrayLike(vector)) {
      throw new LucidError(
        "EMBEDDER_FAILED",
        `Embedder "${id}" returned ${typeof vector} at position ${position}; expected an array of numbers.`,
        { details: { embedder: id, position } },
      );
    }
    if (vector.length !== dimension) {
      throw new LucidError(
        "EMBEDDING_DIMENSION_MISMATCH",
        `Embedder "${id}" returned a vector of length ${vector.length} at position ${position}, but ` +
          `declares dimension ${dimension}. Fix the embedder's \`dimension\` or its output.`,
        { details: { embedder: id, position, expected: dimension, received: vector.length } },
      );
    }
    const copy = new Float32Array(dimension);
    for (let component = 0; component < dimension; component++) {
      const value = vector[component];
      copy[component] = typeof value === "number" ? value : Number.NaN;
      // Checked after conversion: numbers beyond float32's range become Infinity.
      if (!Number.isFinite(copy[component])) {
        throw new LucidError(
          "EMBEDDER_FAILED",
          `Embedder "${id}" returned ${describeValue(value)} at position ${position}, component ` +
            `${component}; vectors must hold finite numbers.`,
          { details: { embedder: id, position, component } },
        );
      }
    }
    return copy;
  });
}

/**
 * The id and dimension a store records; `id` is `"custom"` for embedders that do not name themselves.
 *
 * @example
 * describeEmbedder({ dimension: 3, embed: async (texts) => texts.map(() => [0, 0, 1]) });
 * // → { id: "custom", dimension: 3 }
 */
export function describeEmbedder(embedder: Embedder): EmbedderDescription {
  const id = typeof embedder.id === "string" && embedder.id.length > 0 ? embedder.id : "custom";
  return { id, dimension: embedder.dimension };
}

/**
 * Returns `value` typed as an `Embedder` if it has the port's shape, else throws `INVALID_ARGUMENT`
 * saying what is missing. For values from JavaScript callers or configuration, where types are not checked.
 *
 * @example
 * const embedder = validateEmbedder(options.embedder);
 */
export function validateEmbedder(value: unknown): Embedder {
  const problem = findShapeProblem(value);
  if (problem !== undefined) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `Not a valid embedder: ${problem}. An embedder is an object like ` +
        "{ id?: string, dimension: 384, embed: async (texts, purpose) => texts.map(() => vector) }.",
    );
  }
  return value as Embedder;
}

function findShapeProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return `expected an object, got ${describeValue(value)}`;
  const candidate = value as Record<string, unknown>;
  const { dimension, embed, id, close } = candidate;
  if (typeof dimension !== "number" || !Number.isInteger(dimension) || dimension <= 0) {
    return `"dimension" must be a positive integer, got ${describeValue(dimension)}`;
  }
  if (typeof embed !== "function") return `"embed" must be a function, got ${describeValue(embed)}`;
  if (id !== undefined && typeof id !== "string") return `"id" must be a string, got ${describeValue(id)}`;
  if (close !== undefined && typeof close !== "function") {
    return `"close" must be a function, got ${describeValue(close)}`;
  }
  return undefined;
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return typeof value;
}

function isArrayLike(value: unknown): value is ArrayLike<unknown> {
  return (
    (Array.isArray(value) || ArrayBuffer.isView(value)) &&
    typeof (value as { length?: unknown }).length === "number"
  );
}
