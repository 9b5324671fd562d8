/**
 * `reembed`: switch a store to the configured embedder by embedding every memory again. Each batch
 * commits on its own, so an interrupted run resumes where it stopped; the new vectors replace the
 * old ones, and the store records the new embedder, only once every memory has one.
 *
 * @module
 */

import type { MemoryContext } from "../core/context.js";
import { policyVisibility } from "../core/visibility.js";
import { checkVectors } from "../embed/check-vectors.js";
import { isLucidError, LucidError } from "../errors.js";
import type { ReembedOptions } from "./types.js";

const DEFAULT_BATCH = 64;
/** Rounds of "embed what is left, then swap" before giving up on a store that keeps changing. */
const MAX_ROUNDS = 10;

export async function reembedMemories(
  context: MemoryContext,
  options: ReembedOptions = {},
): Promise<{ reembedded: number; total: number }> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new LucidError("INVALID_ARGUMENT", `batchSize must be a positive integer, got ${batchSize}.`);
  }
  const { store, embedder, embedderStamp } = context;
  const { total } = await store.stats(policyVisibility(context));
  const current = await store.embedderStamp();
  const pending = await store.pendingReembed();
  const upToDate =
    current !== null && current.id === embedderStamp.id && current.dimension === embedderStamp.dimension;
  if (upToDate && pending === null) return { reembedded: 0, total };

  await store.beginReembed(embedderStamp);
  const sameTarget =
    pending?.target.id === embedderStamp.id && pending.target.dimension === embedderStamp.dimension;
  let done = sameTarget ? total - pending.remaining : 0;
  let reembedded = 0;
  for (let round = 1; ; round++) {
    for (;;) {
      const rows = await store.listUnembedded(batchSize);
      if (rows.length === 0) break;
      const texts = rows.map((row) => row.text);
      const vectors = checkVectors(embedder, texts, await embedder.embed(texts, "update"));
      await store.writeReembedded(
        rows.map((row, index) => ({ id: row.id, hash: row.hash, embedding: vectors[index] as Float32Array })),
      );
      reembedded += rows.length;
      done += rows.length;
      options.onProgress?.({ done: Math.min(done, total), total });
    }
    try {
      await store.finishReembed();
      break;
    } catch (error) {
      // Another process added or changed memories since the last batch (a new text needs a new
      // vector too): embed those, then try the swap again.
      if (!isLucidError(error) || typeof error.details?.missing !== "number" || round >= MAX_ROUNDS)
        throw error;
    }
  }
  context.staleEmbedder = null;
  return { reembedded, total };
}
