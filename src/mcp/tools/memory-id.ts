/**
 * Reading one memory by id for a tool: found only when it lies inside the call's scope, so an id
 * from another scope reads exactly like an id that does not exist.
 *
 * @module
 */

import { z } from "zod";
import { withinScope } from "../../core/scope.js";
import { type CallScope, memoryNotFoundIn } from "../../edge/call-scope.js";
import type { MemoryItem } from "../../memory/types.js";
import type { Memory } from "../../sdk/memory.js";

export const memoryIdParam = z
  .string()
  .min(1)
  .describe("The memory's id, as memory_search or memory_list returned it.");

/** The memory, or `MEMORY_NOT_FOUND` when it does not exist or lies outside `scope`. */
export async function getInScope(memory: Memory, id: string, scope: CallScope): Promise<MemoryItem> {
  const item = await memory.get(id);
  if (item === null || !withinScope(item, scope.scope)) throw memoryNotFoundIn(id, scope);
  return item;
}
