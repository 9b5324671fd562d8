import { SDK_ACTOR } from "./add.js";
import type { MemoryContext } from "./context.js";
import { checkId } from "./inputs.js";
import { notFound } from "./update.js";

/** `delete`: removes one memory, its vector, keyword entry and entity links; history keeps a DELETE row. */
export async function deleteMemory(context: MemoryContext, id: string): Promise<{ message: string }> {
  checkId(id);
  await context.store.transaction(async (tx) => {
    const current = await tx.getMemory(id);
    if (current === null) throw notFound(id);
    await tx.deleteMemory(id);
    await tx.addHistory({
      memoryId: id,
      action: "DELETE",
      previousValue: current.text,
      newValue: null,
      actor: SDK_ACTOR,
      createdAt: context.clock.now().toISOString(),
    });
  });
  return { message: "Memory deleted successfully!" };
}
