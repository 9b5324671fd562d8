/**
 * Undoing a dream run: every memory it touched goes back to its preimage (text, metadata,
 * timestamps, vector, entity links), and what it created is removed — unless one of them changed
 * since the run, in which case undo refuses and names them (`force` restores anyway).
 *
 * @module
 */

import type { MemoryContext } from "../../core/context.js";
import { embedTexts } from "../../core/embed-texts.js";
import { scopeOfRow, withinScope } from "../../core/scope.js";
import { createMemoryWriter } from "../../core/write/memory-writer.js";
import { LucidError } from "../../errors.js";
import type { MemoryRow } from "../../store/ports/memories.js";
import type { MemoryChange } from "../../store/ports/runs.js";
import { readDreamRun } from "../dream-run.js";
import { DREAM_RUN_KIND } from "../run-kind.js";

export interface UndoResult {
  readonly runId: string;
  /** Memories put back as they were before the run. */
  readonly restored: number;
  /** Memories the run created, now removed. */
  readonly removed: number;
  /**
   * Memories not restored because their text is stored again in their scope, under another id (it
   * was added again after the run): one memory per text and scope, as `add` keeps it. The copy
   * stored later is kept.
   */
  readonly keptDuplicates: readonly { readonly id: string; readonly duplicateOf: string }[];
  /**
   * Memories left as they are because their id now holds a memory outside the run's scope (one
   * imported under the id after the run deleted it). Undo never writes outside the run's scope, with
   * or without `force` (it would overwrite or delete another user's memory), and such an id is no
   * conflict: the rest of the run is undone.
   */
  readonly keptOtherScope: readonly string[];
}

export async function undoRun(
  context: MemoryContext,
  runId: string,
  options: { force?: boolean } = {},
): Promise<UndoResult> {
  const found = await context.store.getRun(runId);
  if (found === null || found.run.kind !== DREAM_RUN_KIND) {
    throw new LucidError("RUN_NOT_FOUND", `No dream run ${runId}. List runs with \`lucid dream runs\`.`, {
      details: { runId },
    });
  }
  if (found.run.undoneAt !== null) {
    throw new LucidError("ALREADY_UNDONE", `Dream run ${runId} was already undone at ${found.run.undoneAt}.`);
  }
  const memories = found.changes.filter((change): change is MemoryChange => change.kind === "memory");
  // The preimages' vectors are used as they are when they come from the embedder the store has now;
  // after a re-embed (or from a run that did not record its embedder) every preimage is embedded again.
  const runEmbedder = readDreamRun(found.run).outcome.embedder;
  const sameModel =
    runEmbedder !== undefined &&
    runEmbedder.id === context.embedderStamp.id &&
    runEmbedder.dimension === context.embedderStamp.dimension;
  const missing = memories.filter(
    (memory) => memory.before !== null && (memory.before.embedding === null || !sameModel),
  );
  const vectors = await embedTexts(
    context,
    missing.map((memory) => memory.before?.row.text ?? ""),
    "update",
  );
  const vectorOf = new Map(missing.map((memory, index) => [memory.memoryId, vectors[index] as Float32Array]));
  const at = context.clock.now().toISOString();

  return context.store.transaction(async (tx) => {
    const rows = new Map(
      (await tx.getMemories(memories.map((memory) => memory.memoryId))).map((row) => [row.id, row]),
    );
    // Ids another scope holds now are left whatever `force` says: they are no conflict to override.
    const keptOtherScope = [...rows.values()]
      .filter((row) => !withinScope(row, found.run.scope))
      .map((row) => row.id);
    const changed = changedSince(rows, memories).filter((id) => !keptOtherScope.includes(id));
    if (changed.length > 0 && options.force !== true) {
      throw new LucidError(
        "UNDO_CONFLICT",
        `Cannot undo ${runId}: these memories changed after it ran: ${changed.join(", ")}. Undoing it with force overwrites those changes.`,
        { details: { runId, changed } },
      );
    }
    const writer = createMemoryWriter(tx, {
      actor: `dream-undo:${runId}`,
      at,
      embedder: context.embedderStamp,
    });
    let restored = 0;
    let removed = 0;
    const keptDuplicates: { id: string; duplicateOf: string }[] = [];
    const touched = new Set(memories.map((memory) => memory.memoryId));
    const ours = memories.filter((memory) => !keptOtherScope.includes(memory.memoryId));
    // Created memories go first: a merge's new text must be gone before its sources come back.
    for (const memory of ours) {
      if (memory.before !== null) continue;
      if ((await writer.remove(memory.memoryId)) !== null) removed++;
    }
    for (const memory of ours) {
      const { before } = memory;
      if (before === null) continue;
      // A copy among the run's own memories was there before the run too: undo puts both back.
      const copy = await tx.findByHash(scopeOfRow(before.row), before.row.hash);
      if (copy !== null && copy.id !== before.row.id && !touched.has(copy.id)) {
        keptDuplicates.push({ id: before.row.id, duplicateOf: copy.id });
        continue;
      }
      const fresh = vectorOf.get(memory.memoryId);
      await writer.restore(fresh === undefined ? before : { ...before, embedding: fresh });
      restored++;
    }
    await tx.markRunUndone(runId, at);
    return { runId, restored, removed, keptDuplicates, keptOtherScope };
  });
}

/** Touched memories whose current state (`rows`, by id) is not what the run left. */
function changedSince(rows: ReadonlyMap<string, MemoryRow>, memories: readonly MemoryChange[]): string[] {
  return memories
    .filter((memory) => {
      const row = rows.get(memory.memoryId);
      if (memory.after === null) return row !== undefined;
      return row === undefined || row.hash !== memory.after.hash || row.updatedAt !== memory.after.updatedAt;
    })
    .map((memory) => memory.memoryId);
}
