import type { MemoryContext } from "../core/context.js";
import { readLlmUsage } from "../core/llm-usage.js";
import { policyVisibility } from "../core/visibility.js";
import type { StoreStatus } from "./types.js";

/** `status`: where the store is, what wrote it, and what it holds. */
export async function storeStatus(context: MemoryContext): Promise<StoreStatus> {
  const { store } = context;
  const [stats, stamp, pending, usage, embedderRuntime] = await Promise.all([
    store.stats(policyVisibility(context)),
    store.embedderStamp(),
    store.pendingReembed(),
    readLlmUsage(store),
    // Without loading the model: `status` stays a quick look (the native library, if any, loads).
    context.embedder.describeRuntime?.() ?? null,
  ]);
  return {
    location: store.location,
    backend: {
      name: store.capabilities.backend,
      ann: store.capabilities.ann,
      concurrentWriters: store.capabilities.concurrentWriters,
    },
    sizeBytes: stats.sizeBytes,
    schemaVersion: store.schemaVersion,
    embedder: stamp,
    embedderRuntime,
    pendingEmbedder: context.staleEmbedder === null ? (pending?.target ?? null) : context.embedderStamp,
    defaultEmbedder: context.defaultLocal ?? null,
    total: stats.total,
    expired: stats.expired,
    byScope: { ...stats.byScope },
    byCategory: { ...stats.byCategory },
    llm: {
      model: context.llm?.model.id ?? null,
      maxCallsPerRun: context.llm?.maxCallsPerRun ?? null,
      dreamJudge: context.dreamLlm === true,
      usage,
    },
  };
}
