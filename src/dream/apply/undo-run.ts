/**
 * Undoing a dream run: every memory it touched goes back to its preimage (text, metadata,
 * timestamps, vector, entity links), and what it created is removed — unless one of them changed
 * since the run, in which case undo refuses and names them (`force` restores anyway).
 *
 * @module
 */

import { LucidError } from "../../errors.js";
import type { MemoryContext } from "../../memory/context.js";
import { embedTexts } from "../../memory/embed-texts.js";
import type { MemoryStoreOps, RunMemory } from "../../store/store.js";

export interface UndoResult {
  readonly runId: string;
  /** Memories put back as they were before the run. */
  readonly restored: number;
  /** Memories the run created, now removed. */
  readonly removed: number;
}

export async function undoRun(
  context: MemoryContext,
  runId: string,
  options: { force?: boolean } = {},
): Promise<UndoResult> {
  const found = await context.store.getDreamRun(runId);
  if (found === null) {
    throw new LucidError("RUN_NOT_FOUND", `No dream run ${runId}. List runs with \`lucid dream runs\`.`, {
      details: { runId },
    });
  }
  if (found.run.undoneAt !== null) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `Dream run ${runId} was already undone at ${found.run.undoneAt}.`,
    );
  }
  // A preimage without a vector (the store had none) is embedded again; normally there is one.
  const missing = found.memories.filter(
    (memory) => memory.before !== null && memory.before.embedding === null,
  );
  const vectors = await embedTexts(
    context,
    missing.map((memory) => memory.before?.row.text ?? ""),
    "update",
  );
  const vectorOf = new Map(missing.map((memory, index) => [memory.memoryId, vectors[index] as Float32Array]));
  const now = context.clock.now().toISOString();
  const actor = `dream-undo:${runId}`;

  return context.store.transaction(async (tx) => {
    const changed = await changedSince(tx, found.memories);
    if (changed.length > 0 && options.force !== true) {
      throw new LucidError(
        "UNDO_CONFLICT",
        `Cannot undo ${runId}: these memories changed after it ran: ${changed.join(", ")}. Undo with --force to overwrite them.`,
        { details: { runId, changed } },
      );
    }
    let restored = 0;
    let removed = 0;
    for (const memory of found.memories) {
      const current = await tx.getMemory(memory.memoryId);
      if (current !== null) await tx.deleteMemory(memory.memoryId);
      const before = memory.before;
      if (before === null) {
        if (current !== null) {
          removed++;
          await tx.addHistory({
            memoryId: memory.memoryId,
            action: "DELETE",
            previousValue: current.text,
            newValue: null,
            actor,
            createdAt: now,
          });
        }
        continue;
      }
      await tx.insertMemory({
        ...before.row,
        embedding: before.embedding ?? (vectorOf.get(memory.memoryId) as Float32Array),
        entities: before.entities,
      });
      restored++;
      await tx.addHistory({
        memoryId: memory.memoryId,
        action: current === null ? "ADD" : "UPDATE",
        previousValue: current?.text ?? null,
        newValue: before.row.text,
        actor,
        createdAt: now,
      });
    }
    await tx.markDreamRunUndone(runId, now);
    return { runId, restored, removed };
  });
}

/** Touched memories whose current state is not what the run left. */
async function changedSince(tx: MemoryStoreOps, memories: readonly RunMemory[]): Promise<string[]> {
  const rows = new Map(
    (await tx.getMemories(memories.map((memory) => memory.memoryId))).map((row) => [row.id, row]),
  );
  return memories
    .filter((memory) => {
      const row = rows.get(memory.memoryId);
      if (memory.after === null) return row !== undefined;
      return row === undefined || row.hash !== memory.after.hash || row.updatedAt !== memory.after.updatedAt;
    })
    .map((memory) => memory.memoryId);
}
