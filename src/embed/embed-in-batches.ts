/**
 * Splits a list of texts into fixed-size batches for embedders with a per-call size limit.
 *
 * @module
 */

/**
 * Embeds `texts` `batchSize` at a time, one batch after another, and concatenates the results in order.
 * Batches run sequentially: local models are CPU-bound and remote APIs rate-limit, so parallel calls
 * would not finish sooner.
 */
export async function embedInBatches<T>(
  texts: readonly string[],
  batchSize: number,
  embedBatch: (batch: readonly string[]) => Promise<T[]>,
): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < texts.length; start += batchSize) {
    results.push(...(await embedBatch(texts.slice(start, start + batchSize))));
  }
  return results;
}
