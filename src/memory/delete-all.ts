import { SDK_ACTOR } from "./add.js";
import type { MemoryContext } from "./context.js";
import { readFilter } from "./read-filters.js";
import type { Filters, ScopeOptions } from "./types.js";

const BATCH = 1000;

/**
 * `deleteAll`: every memory of a scope (expired ones too), in one transaction. A scope is required:
 * wiping everything is `reset`.
 */
export async function deleteAllMemories(
  context: MemoryContext,
  options: ScopeOptions & { filters?: Filters } = {},
): Promise<{ message: string; deleted: number }> {
  const filter = readFilter(options, "deleteAll");
  const now = context.clock.now().toISOString();
  const deleted = await context.store.transaction(async (tx) => {
    let count = 0;
    for (;;) {
      // Always the first page: each batch's deletions move the next batch to the front.
      const { rows } = await tx.listMemories({ filter, limit: BATCH, offset: 0 });
      if (rows.length === 0) return count;
      for (const row of rows) {
        await tx.deleteMemory(row.id);
        await tx.addHistory({
          memoryId: row.id,
          action: "DELETE",
          previousValue: row.text,
          newValue: null,
          actor: SDK_ACTOR,
          createdAt: now,
        });
      }
      count += rows.length;
    }
  });
  return { message: "Memories deleted successfully!", deleted };
}
