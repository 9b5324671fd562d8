/**
 * Sentence-transformers' pooling for all-MiniLM-L6-v2: the mean of a text's token states (padding
 * left out), scaled to unit length.
 *
 * @module
 */

/**
 * Pools `hidden` ([batch, sequence, dimension], right-padded) into one unit vector per text, where
 * `lengths[i]` is text i's number of real tokens. Sums in float64 so long texts lose no precision.
 */
export function meanPool(
  hidden: Float32Array,
  lengths: readonly number[],
  sequence: number,
  dimension: number,
): Float32Array[] {
  return lengths.map((length, row) => {
    const sum = new Float64Array(dimension);
    for (let token = 0; token < length; token++) {
      const offset = (row * sequence + token) * dimension;
      for (let d = 0; d < dimension; d++) sum[d] = (sum[d] as number) + (hidden[offset + d] as number);
    }
    let norm = 0;
    for (let d = 0; d < dimension; d++) norm += (sum[d] as number) ** 2;
    // The mean's 1/length cancels in the normalisation; the floor is torch's F.normalize eps.
    const scale = 1 / Math.max(Math.sqrt(norm), 1e-12);
    return Float32Array.from(sum, (value) => value * scale);
  });
}
