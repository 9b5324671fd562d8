import type { MemoryContext } from "./context.js";
import type { StoreStatus } from "./types.js";
import { policyVisibility } from "./visibility.js";

/** `status`: where the store is, what wrote it, and what it holds. */
export async function storeStatus(context: MemoryContext): Promise<StoreStatus> {
  const { store } = context;
  const [stats, stamp, pending] = await Promise.all([
    store.stats(policyVisibility(context)),
    store.embedderStamp(),
    store.pendingReembed(),
  ]);
  return {
    location: store.location,
    sizeBytes: stats.sizeBytes,
    schemaVersion: store.schemaVersion,
    embedder: stamp,
    pendingEmbedder: context.staleEmbedder === null ? (pending?.target ?? null) : context.embedderStamp,
    total: stats.total,
    expired: stats.expired,
    byScope: { ...stats.byScope },
    byCategory: { ...stats.byCategory },
  };
}
