/**
 * A scope's vectors packed into one `Float32Array`, unit-normalised, so cosine similarity is a dot
 * product and 100k × 512 vectors cost 200 MB in one allocation instead of 100k small objects.
 *
 * @module
 */

export interface VectorSet {
  readonly count: number;
  readonly dimension: number;
  /** Row-major, `count × dimension`; a row of zeros is a memory without a vector. */
  readonly data: Float32Array;
  /** False for rows whose memory had no stored vector (e.g. halfway through a re-embedding). */
  readonly present: Uint8Array;
}

/**
 * Packs and normalises vectors; `undefined` (no stored vector) becomes an absent row.
 *
 * @example
 * const set = createVectorSet([new Float32Array([3, 4]), undefined], 2);
 * dot(set, 0, 0); // => 1
 */
export function createVectorSet(
  vectors: readonly (Float32Array | undefined)[],
  dimension: number,
): VectorSet {
  const set = emptyVectorSet(vectors.length, dimension);
  vectors.forEach((vector, row) => {
    if (vector !== undefined) writeVector(set, row, vector);
  });
  return set;
}

/** A set of `count` absent rows, to be filled with `writeVector`. */
export function emptyVectorSet(count: number, dimension: number): VectorSet {
  return { count, dimension, data: new Float32Array(count * dimension), present: new Uint8Array(count) };
}

/** Normalises `vector` into `row`; a vector of the wrong length or all zeros leaves the row absent. */
export function writeVector(set: VectorSet, row: number, vector: Float32Array): void {
  const { dimension, data, present } = set;
  if (vector.length !== dimension || row >= set.count) return;
  let norm = 0;
  for (let i = 0; i < dimension; i++) norm += (vector[i] as number) * (vector[i] as number);
  if (norm === 0) return;
  const scale = 1 / Math.sqrt(norm);
  const offset = row * dimension;
  for (let i = 0; i < dimension; i++) data[offset + i] = (vector[i] as number) * scale;
  present[row] = 1;
}

/** Cosine similarity of two rows (both normalised). */
export function dot(set: VectorSet, a: number, b: number): number {
  const { data, dimension } = set;
  const offsetA = a * dimension;
  const offsetB = b * dimension;
  let sum = 0;
  for (let i = 0; i < dimension; i++) sum += (data[offsetA + i] as number) * (data[offsetB + i] as number);
  return sum;
}

/** A copy of one row, for callers outside the snapshot. */
export function rowVector(set: VectorSet, row: number): Float32Array | undefined {
  if (set.present[row] !== 1) return undefined;
  return set.data.slice(row * set.dimension, (row + 1) * set.dimension);
}

/**
 * The rows `rows` of `set` (in that order) as a set of their own, copied as they are (already
 * normalised, so not normalised again: similarities stay bit-identical to the whole set's).
 *
 * @example
 * const owners = subsetVectorSet(set, [0, 4, 9]); // row 1 of `owners` is row 4 of `set`
 */
export function subsetVectorSet(set: VectorSet, rows: readonly number[]): VectorSet {
  const subset = emptyVectorSet(rows.length, set.dimension);
  const { dimension } = set;
  rows.forEach((row, at) => {
    subset.data.set(set.data.subarray(row * dimension, (row + 1) * dimension), at * dimension);
    subset.present[at] = set.present[row] as number;
  });
  return subset;
}
