import type { MemoryContext } from "../core/context.js";
import { checkId } from "../core/inputs.js";
import { toMemoryItem } from "./to-item.js";
import type { MemoryItem } from "./types.js";

/** `get`: one memory by id, or null (as Mem0). Expired memories are still returned: the caller named it. */
export async function getMemory(context: MemoryContext, id: string): Promise<MemoryItem | null> {
  const row = await context.store.getMemory(checkId(id));
  return row === null ? null : toMemoryItem(row, context.timeZone);
}
