/**
 * `lucid sleep status`: where a workspace stands — its `MEMORY.md` against the budget, its indexed
 * notes, its recall records, the last run, and what a promotion would take now.
 *
 * @module
 */

import { resolve } from "node:path";
import type { MemoryContext } from "../core/context.js";
import { type PromotionCandidate, promote } from "./deep-promote.js";
import { MEMORY_MAX_CHARS } from "./memory-budget.js";
import { locateMemoryFile, readBytes } from "./memory-file.js";
import { workspaceRecalls } from "./record-recalls.js";
import { sleepRuns } from "./sleep-rollback.js";

export interface SleepStatus {
  readonly workspace: string;
  readonly memoryFile: string;
  /** Characters of `MEMORY.md` (0 when it does not exist yet) and the budget. */
  readonly memoryChars: number;
  readonly budgetChars: number;
  readonly indexedFiles: number;
  readonly shortTermFiles: number;
  readonly entries: number;
  readonly promotedEntries: number;
  readonly lastRun: {
    readonly id: string;
    readonly committedAt: string;
    readonly promoted: number;
    readonly undoneAt: string | null;
  } | null;
  readonly wouldPromote: readonly PromotionCandidate[];
}

export async function sleepStatus(
  context: MemoryContext,
  workspace: string,
  options: { now?: string; scope: Record<string, string> },
): Promise<SleepStatus> {
  const root = resolve(workspace);
  const memoryFile = await locateMemoryFile(root);
  const bytes = await readBytes(memoryFile.target);
  const files = await context.store.listNoteFiles(root);
  const entries = await workspaceRecalls(context, root);
  const [last] = await sleepRuns(context, root, 1);
  const preview = await promote(context, root, {
    scope: options.scope,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  const promoted = last?.outcome.promoted;
  return {
    workspace: root,
    memoryFile: memoryFile.path,
    memoryChars: bytes === null ? 0 : Buffer.from(bytes).toString("utf8").length,
    budgetChars: MEMORY_MAX_CHARS,
    indexedFiles: files.length,
    shortTermFiles: files.filter((file) => file.shortTerm).length,
    entries: entries.length,
    promotedEntries: entries.filter((entry) => entry.promotedAt !== undefined).length,
    lastRun:
      last === undefined
        ? null
        : {
            id: last.id,
            committedAt: last.committedAt,
            promoted: typeof promoted === "number" ? promoted : 0,
            undoneAt: last.undoneAt,
          },
    wouldPromote: preview.candidates,
  };
}
