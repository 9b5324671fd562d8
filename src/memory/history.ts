import type { MemoryContext } from "../core/context.js";
import { checkId } from "../core/inputs.js";
import type { HistoryEntry } from "./types.js";

/**
 * `history`: every change to a memory, oldest first, in the row shape of Mem0's SQLite history
 * (Mem0 orders newest first; chronological order reads better and `id` still sorts either way).
 * Works after the memory is deleted: the DELETE row is the last.
 */
export async function memoryHistory(context: MemoryContext, memoryId: string): Promise<HistoryEntry[]> {
  const rows = await context.store.listHistory(checkId(memoryId, "memoryId"));
  return rows.map((row) => ({
    id: row.seq,
    memory_id: row.memoryId,
    action: row.action,
    previous_value: row.previousValue,
    new_value: row.newValue,
    actor: row.actor,
    created_at: row.createdAt,
    is_deleted: row.action === "DELETE" ? 1 : 0,
    ...(row.changed === undefined ? {} : { changed: [...row.changed] }),
  }));
}
