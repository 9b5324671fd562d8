/**
 * The geometry under the approximate index: a sparse random projection to `PROJECTED` dimensions,
 * and a two-level spherical k-means quantiser over the projected vectors.
 *
 * @module
 */

import { type Scored, TopK } from "./top-k.js";
import type { VectorSet } from "./vector-set.js";

export const PROJECTED = 128;
const FAN_IN = 32;
const ITERATIONS = 5;
const SAMPLE_PER_LIST = 16;

/** Rows × PROJECTED, each row normalised; output p sums FAN_IN inputs with random signs. */
export function project(set: VectorSet, random: () => number): Float32Array {
  const { dimension, data } = set;
  const inputs = Uint32Array.from({ length: PROJECTED * FAN_IN }, () => Math.floor(random() * dimension));
  const signs = Float32Array.from({ length: PROJECTED * FAN_IN }, () => (random() < 0.5 ? -1 : 1));
  const out = new Float32Array(set.count * PROJECTED);
  for (let row = 0; row < set.count; row++) {
    if (set.present[row] !== 1) continue;
    const offset = row * dimension;
    let norm = 0;
    for (let p = 0; p < PROJECTED; p++) {
      let sum = 0;
      for (let f = p * FAN_IN; f < (p + 1) * FAN_IN; f++) {
        sum += (signs[f] as number) * (data[offset + (inputs[f] as number)] as number);
      }
      out[row * PROJECTED + p] = sum;
      norm += sum * sum;
    }
    normalise(out, row * PROJECTED, norm);
  }
  return out;
}

/** Centroids in two levels: each row is scored against the coarse ones, then the fine ones of its best coarse. */
export interface Quantiser {
  readonly coarse: Float32Array;
  readonly coarseCount: number;
  /** Fine centroids, grouped by coarse parent: those of coarse `c` are `fineStarts[c] .. fineStarts[c + 1]`. */
  readonly fine: Float32Array;
  readonly fineStarts: Uint32Array;
}

/**
 * Two-level spherical k-means on a deterministic sample: √lists coarse centroids, then about
 * `lists` fine ones split among them by size. Assigning a row then costs ~3·√lists dot products
 * instead of `lists` (the flat version spent most of the build there at 100k memories).
 */
export function trainQuantiser(
  projected: Float32Array,
  rows: readonly number[],
  lists: number,
  random: () => number,
): Quantiser {
  const sample = shuffled(rows, random).slice(0, Math.max(lists, lists * SAMPLE_PER_LIST));
  const coarseCount = Math.max(1, Math.round(Math.sqrt(lists)));
  const coarse = kMeans(projected, sample, coarseCount, random);
  const groups: number[][] = Array.from({ length: coarseCount }, () => []);
  const best = new TopK(1);
  for (const row of sample)
    groups[nearest(projected, row, coarse, 0, coarseCount, best)[0]?.row ?? 0]?.push(row);
  const parts = groups.map((group) =>
    group.length === 0
      ? new Float32Array(0)
      : kMeans(projected, group, Math.max(1, Math.round((lists * group.length) / sample.length)), random),
  );
  const fineStarts = new Uint32Array(coarseCount + 1);
  parts.forEach((part, index) => {
    fineStarts[index + 1] = (fineStarts[index] as number) + part.length / PROJECTED;
  });
  const fine = new Float32Array((fineStarts[coarseCount] as number) * PROJECTED);
  parts.forEach((part, index) => {
    fine.set(part, (fineStarts[index] as number) * PROJECTED);
  });
  return { coarse, coarseCount, fine, fineStarts };
}

/** Spherical k-means of `rows` into `k` unit centroids (k × PROJECTED). */
function kMeans(
  projected: Float32Array,
  rows: readonly number[],
  k: number,
  random: () => number,
): Float32Array {
  const count = Math.min(k, rows.length);
  const centroids = new Float32Array(count * PROJECTED);
  rows.slice(0, count).forEach((row, list) => {
    centroids.set(projected.subarray(row * PROJECTED, (row + 1) * PROJECTED), list * PROJECTED);
  });
  const best = new TopK(1);
  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const sums = new Float64Array(count * PROJECTED);
    const sizes = new Uint32Array(count);
    for (const row of rows) {
      const list = nearest(projected, row, centroids, 0, count, best)[0]?.row ?? 0;
      sizes[list] = (sizes[list] as number) + 1;
      const at = list * PROJECTED;
      for (let p = 0; p < PROJECTED; p++)
        sums[at + p] = (sums[at + p] as number) + (projected[row * PROJECTED + p] as number);
    }
    for (let list = 0; list < count; list++) {
      // An empty list is re-seeded from a random row rather than left dead.
      const seedRow = rows[Math.floor(random() * rows.length)] as number;
      let norm = 0;
      for (let p = 0; p < PROJECTED; p++) {
        const value =
          sizes[list] === 0
            ? (projected[seedRow * PROJECTED + p] as number)
            : (sums[list * PROJECTED + p] as number);
        centroids[list * PROJECTED + p] = value;
        norm += value * value;
      }
      normalise(centroids, list * PROJECTED, norm);
    }
  }
  return centroids;
}

/** The best centroids `from .. to` of `centroids` for `row`, best first. */
export function nearest(
  projected: Float32Array,
  row: number,
  centroids: Float32Array,
  from: number,
  to: number,
  top: TopK,
): Scored[] {
  top.clear();
  for (let list = from; list < to; list++) {
    const score = dotAt(projected, row, centroids, list);
    if (score > top.floor) top.push(list, score);
  }
  return top.result();
}

export function dotAt(a: Float32Array, rowA: number, b: Float32Array, rowB: number): number {
  const offsetA = rowA * PROJECTED;
  const offsetB = rowB * PROJECTED;
  let sum = 0;
  for (let p = 0; p < PROJECTED; p++) sum += (a[offsetA + p] as number) * (b[offsetB + p] as number);
  return sum;
}

function normalise(values: Float32Array, offset: number, norm: number): void {
  if (norm === 0) return;
  const scale = 1 / Math.sqrt(norm);
  for (let p = 0; p < PROJECTED; p++) values[offset + p] = (values[offset + p] as number) * scale;
}

function shuffled(rows: readonly number[], random: () => number): number[] {
  const copy = [...rows];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as number, copy[i] as number];
  }
  return copy;
}
