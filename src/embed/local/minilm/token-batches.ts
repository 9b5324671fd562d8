/**
 * Groups a call's texts into model batches: shortest first, so each batch pads to a length close to
 * all its texts', and cut where the padded size would exceed the runtime's budget.
 *
 * @module
 */

export interface BatchLimits {
  /** Most texts per batch. */
  readonly maxTexts: number;
  /** Most padded tokens per batch: texts × the longest text's tokens. A longer text still gets a batch. */
  readonly maxTokens: number;
}

/**
 * The positions of `lengths` (tokens per text) grouped into batches, shortest texts first; ties keep
 * their order. The caller puts each batch's vectors back at these positions.
 *
 * @example
 * planTokenBatches([9, 3, 4], { maxTexts: 2, maxTokens: 100 }); // → [[1, 2], [0]]
 */
export function planTokenBatches(lengths: readonly number[], limits: BatchLimits): number[][] {
  const order = lengths
    .map((_, index) => index)
    .sort((a, b) => (lengths[a] as number) - (lengths[b] as number));
  const batches: number[][] = [];
  let batch: number[] = [];
  for (const index of order) {
    // Sorted ascending, so this text is the longest of the batch it joins.
    const padded = (batch.length + 1) * (lengths[index] as number);
    if (batch.length > 0 && (batch.length === limits.maxTexts || padded > limits.maxTokens)) {
      batches.push(batch);
      batch = [];
    }
    batch.push(index);
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
