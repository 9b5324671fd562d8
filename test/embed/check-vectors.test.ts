import { describe, expect, it } from "vitest";
import { checkVectors, describeEmbedder, validateEmbedder } from "../../src/embed/check-vectors.js";
import type { Embedder } from "../../src/embed/embedder.js";

const embedder: Embedder = {
  id: "test@1",
  dimension: 3,
  embed: async (texts) => texts.map(() => [1, 0, 0]),
};

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("checkVectors", () => {
  it("returns Float32Array copies of valid vectors", () => {
    const input = [[1, 2, 3], new Float32Array([4, 5, 6])];

    const vectors = checkVectors(embedder, ["a", "b"], input);

    expect(vectors).toEqual([new Float32Array([1, 2, 3]), new Float32Array([4, 5, 6])]);
    expect(vectors[1]).not.toBe(input[1]);
  });

  it.each([
    ["too few vectors", [[1, 2, 3]]],
    [
      "too many vectors",
      [
        [1, 2, 3],
        [1, 2, 3],
        [1, 2, 3],
      ],
    ],
    ["a non-array result", undefined],
    ["a vector that is not an array", [[1, 2, 3], "1,2,3"]],
    [
      "NaN",
      [
        [1, 2, 3],
        [1, Number.NaN, 3],
      ],
    ],
    [
      "Infinity",
      [
        [1, 2, 3],
        [1, Number.POSITIVE_INFINITY, 3],
      ],
    ],
    [
      "a number beyond float32 range",
      [
        [1, 2, 3],
        [1, 1e39, 3],
      ],
    ],
    [
      "a string component",
      [
        [1, 2, 3],
        [1, "2", 3],
      ],
    ],
  ])("throws EMBEDDER_FAILED for %s", (_case, vectors) => {
    expect(catchError(() => checkVectors(embedder, ["a", "b"], vectors))).toMatchObject({
      code: "EMBEDDER_FAILED",
    });
  });

  it("throws EMBEDDING_DIMENSION_MISMATCH for a vector of the wrong length", () => {
    const error = catchError(() =>
      checkVectors(
        embedder,
        ["a", "b"],
        [
          [1, 2, 3],
          [1, 2],
        ],
      ),
    );

    expect(error).toMatchObject({
      code: "EMBEDDING_DIMENSION_MISMATCH",
      details: { position: 1, expected: 3, received: 2 },
    });
  });
});

describe("describeEmbedder", () => {
  it("reports the id and dimension, with id defaulting to custom", () => {
    expect(describeEmbedder(embedder)).toEqual({ id: "test@1", dimension: 3 });
    expect(describeEmbedder({ dimension: 5, embed: embedder.embed })).toEqual({ id: "custom", dimension: 5 });
  });
});

describe("validateEmbedder", () => {
  it("accepts an object of the Embedder shape", () => {
    expect(validateEmbedder(embedder)).toBe(embedder);
    expect(validateEmbedder({ dimension: 2, embed: async () => [], close: async () => {} })).toBeDefined();
  });

  it.each([
    ["null", null],
    ["a string", "use-lite"],
    ["a missing dimension", { embed: async () => [] }],
    ["a zero dimension", { dimension: 0, embed: async () => [] }],
    ["a fractional dimension", { dimension: 1.5, embed: async () => [] }],
    ["a string dimension", { dimension: "512", embed: async () => [] }],
    ["a missing embed", { dimension: 3 }],
    ["a non-function embed", { dimension: 3, embed: "yes" }],
    ["a non-string id", { id: 7, dimension: 3, embed: async () => [] }],
    ["a non-function close", { dimension: 3, embed: async () => [], close: true }],
  ])("throws INVALID_ARGUMENT for %s", (_case, value) => {
    expect(catchError(() => validateEmbedder(value))).toMatchObject({ code: "INVALID_ARGUMENT" });
  });
});
