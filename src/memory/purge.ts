/**
 * `purge`: a memory erased with every trace of it — the memory, its history, the preimages runs
 * keep of it (those runs no longer restore it on undo), and every credential its texts ever held,
 * from its scope's messages and the runs' plans — then the file compacted, so the bytes are gone
 * from disk too. The one way to take back what exact undo keeps.
 *
 * @module
 */

import type { MemoryContext } from "../core/context.js";
import { scrubHistoryAndMessages, secretsIn, stringsIn } from "../core/erase-secrets.js";
import { checkId } from "../core/inputs.js";
import { createMemoryWriter } from "../core/write/memory-writer.js";
import { LucidError } from "../errors.js";
import { SDK_ACTOR } from "./actor.js";

export interface PurgeResult {
  readonly id: string;
  /** The memory was still stored, and is now deleted. */
  readonly deleted: boolean;
  /** History rows erased (the memory's, before the purge). */
  readonly history: number;
  /** Runs that kept a preimage or record of it: their undo no longer touches it. */
  readonly runs: number;
  /** Credentials its texts held, scrubbed from messages and run plans. */
  readonly secrets: number;
  readonly messages: number;
  readonly runPlans: number;
  /** False when another process kept part of the write-ahead log alive (emptied when it closes). */
  readonly compacted: boolean;
}

/** @example await purgeMemory(context, "0b6e…"); // { deleted: true, history: 3, runs: 1, … } */
export async function purgeMemory(context: MemoryContext, id: string): Promise<PurgeResult> {
  checkId(id);
  const at = context.clock.now().toISOString();
  const erased = await context.store.transaction(async (tx) => {
    const runIds = await tx.runsTouching({ scopeKeys: [], memoryIds: [id] });
    const [row, history, preimages] = await Promise.all([
      tx.getMemory(id),
      tx.listHistory(id),
      tx.listPreimages({ runIds, memoryId: id }),
    ]);
    const known = row ?? preimages.at(-1)?.before.row;
    if (known === undefined && history.length === 0) {
      throw new LucidError(
        "MEMORY_NOT_FOUND",
        `Nothing to purge for the id ${JSON.stringify(id)}: no such memory was ever stored here.`,
        { details: { id } },
      );
    }
    const values = secretsIn(context, [
      ...(row === null ? [] : [row.text, ...stringsIn(row.metadata)]),
      ...history.flatMap((entry) => [entry.previousValue ?? "", entry.newValue ?? ""]),
      ...preimages.flatMap(({ before }) => [before.row.text, ...stringsIn(before.row.metadata)]),
    ]);
    // The messages of its scope, known from the row or a preimage (a memory deleted outside any run
    // has left neither, and its messages cannot be told apart from the scope's others).
    const { messages } =
      known === undefined ? { messages: 0 } : await scrubHistoryAndMessages(tx, known, values);
    const runPlans = await tx.scrubRunPlans(values, runIds);
    const removed = await createMemoryWriter(tx, {
      actor: SDK_ACTOR,
      at,
      embedder: context.embedderStamp,
    }).remove(id);
    const traces = await tx.forgetTraces(id);
    return {
      id,
      deleted: removed !== null,
      history: history.length,
      runs: traces.runs,
      secrets: values.length,
      messages,
      runPlans,
    };
  });
  const { complete } = await context.store.compact();
  return { ...erased, compacted: complete };
}
