import type { MemoryContext } from "../core/context.js";
import { checkId } from "../core/inputs.js";
import { createMemoryWriter } from "../core/write/memory-writer.js";
import { SDK_ACTOR } from "./actor.js";
import { memoryNotFound } from "./not-found.js";

/** `delete`: removes one memory, its vector, keyword entry and entity links; history keeps a DELETE row. */
export async function deleteMemory(context: MemoryContext, id: string): Promise<{ message: string }> {
  checkId(id);
  const at = context.clock.now().toISOString();
  const removed = await context.store.transaction((tx) =>
    createMemoryWriter(tx, { actor: SDK_ACTOR, at, embedder: context.embedderStamp }).remove(id),
  );
  if (removed === null) throw memoryNotFound(id);
  return { message: "Memory deleted successfully!" };
}
