/**
 * Turns the JSON body of an OpenAI-style `/embeddings` response into vectors in input order.
 *
 * @module
 */

import { LucidError } from "../../errors.js";

/** What the parser checks the response against. */
export interface ExpectedEmbeddings {
  /** Number of input texts, so the number of vectors. */
  count: number;
  /** Required length of every vector. */
  dimension: number;
  /** Named in error messages. */
  url: string;
}

/**
 * Reads `{ data: [{ index, embedding }] }`, ordering vectors by `index` (servers may answer out of
 * order; a server that omits `index` is taken to answer in order).
 */
export function parseEmbeddingsResponse(body: string, expected: ExpectedEmbeddings): Float32Array[] {
  const malformed = (problem: string): LucidError =>
    new LucidError("EMBEDDER_FAILED", `Malformed response from ${expected.url}: ${problem}.`, {
      details: { url: expected.url },
    });

  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw malformed(`not JSON (starts with ${JSON.stringify(body.slice(0, 80))})`);
  }
  const data = isRecord(json) ? json.data : undefined;
  if (!Array.isArray(data)) throw malformed('no "data" array');
  if (data.length !== expected.count) {
    throw malformed(`${data.length} embeddings for ${expected.count} texts`);
  }

  const vectors: (Float32Array | undefined)[] = new Array(expected.count).fill(undefined);
  data.forEach((item: unknown, position) => {
    if (!isRecord(item)) throw malformed(`data[${position}] is not an object`);
    const index = item.index ?? position;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= expected.count) {
      throw malformed(`data[${position}].index is ${JSON.stringify(index)}`);
    }
    if (vectors[index] !== undefined) throw malformed(`index ${index} appears twice`);
    vectors[index] = toVector(item.embedding, expected.dimension, () =>
      malformed(`data[${position}].embedding is not an array of finite numbers (base64 is not supported)`),
    );
  });
  // Every slot is filled: `count` distinct indices, each in [0, count).
  return vectors as Float32Array[];
}

function toVector(embedding: unknown, dimension: number, malformed: () => LucidError): Float32Array {
  if (!Array.isArray(embedding)) throw malformed();
  if (embedding.length !== dimension) {
    throw new LucidError(
      "EMBEDDING_DIMENSION_MISMATCH",
      `The embedding server returned vectors of length ${embedding.length}, but the embedder was ` +
        `configured with dimension ${dimension}. Set \`dimension: ${embedding.length}\`, or pass ` +
        `\`dimensions: ${dimension}\` if the model can shorten its vectors.`,
      { details: { expected: dimension, received: embedding.length } },
    );
  }
  const vector = new Float32Array(dimension);
  for (let i = 0; i < dimension; i++) {
    const value: unknown = embedding[i];
    if (typeof value !== "number" || !Number.isFinite(value)) throw malformed();
    vector[i] = value;
  }
  return vector;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
