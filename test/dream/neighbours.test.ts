import { describe, expect, it } from "vitest";
import { createExactIndex } from "../../src/dream/neighbours/exact-index.js";
import { createIvfIndex } from "../../src/dream/neighbours/ivf-index.js";
import { createNeighbourIndex } from "../../src/dream/neighbours/neighbour-index.js";
import { gaussian, seededRandom } from "../../src/dream/neighbours/seeded-random.js";
import { TopK } from "../../src/dream/neighbours/top-k.js";
import { createVectorSet, dot } from "../../src/dream/neighbours/vector-set.js";

/** Clustered vectors with near-duplicate pairs, like a scope of memories. */
function clustered(count: number, dimension: number, seed = 1): Float32Array[] {
  const random = seededRandom(seed);
  const centres = Array.from({ length: 40 }, () =>
    Float32Array.from({ length: dimension }, () => gaussian(random)),
  );
  const vectors: Float32Array[] = [];
  for (let index = 0; index < count; index++) {
    const base =
      index % 5 === 1
        ? (vectors[index - 1] as Float32Array)
        : (centres[index % centres.length] as Float32Array);
    const noise = index % 5 === 1 ? 0.15 : 0.9;
    vectors.push(Float32Array.from(base, (value) => value + noise * gaussian(random)));
  }
  return vectors;
}

describe("TopK", () => {
  it("keeps the best k, ties by lower row", () => {
    const top = new TopK(3);
    for (const [row, score] of [
      [5, 0.1],
      [2, 0.9],
      [7, 0.5],
      [1, 0.5],
      [9, 0.95],
    ] as const) {
      top.push(row, score);
    }
    expect(top.result()).toEqual([
      { row: 9, score: 0.95 },
      { row: 2, score: 0.9 },
      { row: 1, score: 0.5 },
    ]);
  });
});

describe("neighbour indexes", () => {
  const vectors = clustered(3000, 64);
  const set = createVectorSet([...vectors, undefined], 64);

  it("normalises vectors and marks missing ones absent", () => {
    expect(dot(set, 0, 0)).toBeCloseTo(1, 5);
    expect(set.present[3000]).toBe(0);
    expect(createExactIndex(set).search(3000, 5)).toEqual([]);
  });

  it("exact search returns true neighbours, best first, never itself", () => {
    const index = createExactIndex(set);
    const hits = index.search(0, 5);
    expect(hits.map((hit) => hit.row)).not.toContain(0);
    expect(hits[0]?.row).toBe(1); // its near-duplicate
    for (let at = 1; at < hits.length; at++) {
      expect((hits[at - 1]?.score ?? 0) >= (hits[at]?.score ?? 0)).toBe(true);
    }
    expect(index.search(0, 40).slice(0, 5)).toEqual(hits); // the single-row scan agrees with the all-pairs pass
  });

  it("the approximate index finds nearly every close neighbour, deterministically", () => {
    const exact = createExactIndex(set);
    const ivf = createIvfIndex(set);
    let found = 0;
    let wanted = 0;
    for (let row = 0; row < 3000; row += 7) {
      const truth = exact.search(row, 5).filter((hit) => hit.score >= 0.8);
      const approx = new Set(ivf.search(row, 5).map((hit) => hit.row));
      wanted += truth.length;
      found += truth.filter((hit) => approx.has(hit.row)).length;
    }
    expect(wanted).toBeGreaterThan(50);
    expect(found / wanted).toBeGreaterThan(0.95);
    expect(createIvfIndex(set).search(11, 5)).toEqual(ivf.search(11, 5));
  });

  it("picks exact search for small sets", () => {
    expect(createNeighbourIndex(set, { exactLimit: 5000 }).kind).toBe("exact");
    expect(createNeighbourIndex(set, { exactLimit: 100 }).kind).toBe("ivf");
  });
});
