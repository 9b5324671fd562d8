import type { MemoryContext } from "../core/context.js";
import { readFilter } from "../core/read-filter.js";
import type { ScopeOptions } from "../core/scope.js";
import { createMemoryWriter } from "../core/write/memory-writer.js";
import type { Filters } from "../filters/filter.js";
import { SDK_ACTOR } from "./actor.js";

const BATCH = 1000;

/**
 * `deleteAll`: every memory of a scope (expired ones too), in one transaction. A scope is required:
 * wiping everything is `reset`. The result says how many went.
 */
export async function deleteAllMemories(
  context: MemoryContext,
  options: ScopeOptions & { filters?: Filters } = {},
): Promise<{ message: string; deleted: number }> {
  const filter = readFilter(options, "deleteAll");
  const at = context.clock.now().toISOString();
  const deleted = await context.store.transaction(async (tx) => {
    const writer = createMemoryWriter(tx, { actor: SDK_ACTOR, at, embedder: context.embedderStamp });
    let count = 0;
    for (;;) {
      // Always the first page: each batch's deletions move the next batch to the front.
      const { rows } = await tx.listMemories({ filter, limit: BATCH, offset: 0 });
      if (rows.length === 0) return count;
      for (const row of rows) await writer.remove(row.id);
      count += rows.length;
    }
  });
  // Mem0's message when something went; a "delete this user's data" call that matched nothing
  // must not read as a success.
  return {
    message: deleted > 0 ? "Memories deleted successfully!" : "No memories matched; nothing was deleted.",
    deleted,
  };
}
