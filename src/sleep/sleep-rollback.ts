/**
 * Rolling back a sleep run: `MEMORY.md` gets back the exact bytes it had before the run (or goes
 * away, when the run created it), the entries the run promoted lose their `promotedAt` (so they can
 * be promoted again), and the long-term memories the run added are removed. When the file was
 * edited after the run — by hand, or by a later run — the rollback refuses, naming the lines that
 * changed, unless forced. A `MEMORY.md` that is now a symbolic link, or lies outside the workspace
 * (a run recorded before sleep refused links wrote through one), is not written: the rollback refuses.
 *
 * @module
 */

import { resolve } from "node:path";
import type { MemoryContext } from "../core/context.js";
import { withLease } from "../core/lease.js";
import { createMemoryWriter } from "../core/write/memory-writer.js";
import { LucidError } from "../errors.js";
import type { FileChange, MemoryChange, RunRecord } from "../store/ports/runs.js";
import { checkWritable } from "./confined-path.js";
import { readBytes, restoreFile, sha256 } from "./memory-file.js";
import type { RecallEntry } from "./recall-entry.js";
import { SLEEP_RUN_KIND, sleepKey, sleepLeaseKey } from "./sleep-run.js";

export interface RollbackResult {
  readonly runId: string;
  readonly memoryFile: string;
  /** Whether the file was put back (false when it already had the run's preimage). */
  readonly restored: boolean;
  /** Entries whose `promotedAt` was cleared. */
  readonly unpromoted: number;
  /** Long-term memories the run added, now removed. */
  readonly removedMemories: number;
}

/**
 * @example
 * await rollbackSleep(context, "/home/ana/notes");              // the latest run
 * await rollbackSleep(context, "/home/ana/notes", { runId, force: true });
 */
export async function rollbackSleep(
  context: MemoryContext,
  workspace: string,
  options: { runId?: string; force?: boolean } = {},
): Promise<RollbackResult> {
  const root = resolve(workspace);
  return withLease(context, await sleepLeaseKey(root), { what: "sleep" }, async () => {
    const run = await runToRollBack(context, root, options.runId);
    const found = await context.store.getRun(run.id);
    const file = found?.changes.find((change): change is FileChange => change.kind === "file");
    const plan = readPlan(run);
    if (found === null || file === undefined || plan === undefined) {
      throw new LucidError("RUN_NOT_FOUND", `Sleep run ${run.id} holds no MEMORY.md preimage to restore.`, {
        details: { runId: run.id },
      });
    }
    // Before it is even read: the refusal below would quote a file the workspace does not own.
    await checkWritable(root, file.path);
    const current = await readBytes(file.path);
    const currentSha = current === null ? null : sha256(current);
    if (currentSha !== file.after?.sha256 && options.force !== true) {
      const changed = changedLines(
        plan.after,
        current === null ? null : Buffer.from(current).toString("utf8"),
      );
      throw new LucidError(
        "UNDO_CONFLICT",
        `Cannot roll back ${run.id}: ${file.path} was changed after it ran (${changed.summary}). Rolling it back with force discards those changes too.`,
        { details: { runId: run.id, memoryFile: file.path, added: changed.added, removed: changed.removed } },
      );
    }
    const restored = currentSha !== (file.before === null ? null : sha256(file.before));
    const at = context.clock.now().toISOString();
    const memories = found.changes.filter((change): change is MemoryChange => change.kind === "memory");
    let unpromoted = 0;
    let removedMemories = 0;
    await context.store.transaction(async (tx) => {
      const keys = plan.promoted.map((entry) => entry.key);
      const records = await tx.getRecalls(root, keys);
      const cleared = records.flatMap((record) => {
        const entry = record.entry as Partial<RecallEntry>;
        if (entry.promotedAt === undefined) return [];
        const { promotedAt: _promotedAt, ...rest } = entry;
        return [{ ...record, entry: rest, updatedAt: at }];
      });
      await tx.putRecalls(root, cleared);
      unpromoted = cleared.length;
      const writer = createMemoryWriter(tx, {
        actor: `sleep-rollback:${run.id}`,
        at,
        embedder: context.embedderStamp,
      });
      for (const memory of memories) {
        if (memory.before === null && (await writer.remove(memory.memoryId)) !== null) removedMemories++;
      }
      await tx.markRunUndone(run.id, at);
      // Last, inside the transaction: a file that cannot be written rolls the store back with it.
      if (restored) await restoreFile(file.path, file.before);
    });
    return { runId: run.id, memoryFile: file.path, restored, unpromoted, removedMemories };
  });
}

/** The workspace's sleep runs, newest first. */
export async function sleepRuns(context: MemoryContext, workspace: string, limit = 20): Promise<RunRecord[]> {
  return context.store.listRuns({ kind: SLEEP_RUN_KIND, scopeKey: sleepKey(resolve(workspace)), limit });
}

async function runToRollBack(context: MemoryContext, root: string, runId?: string): Promise<RunRecord> {
  if (runId === undefined) {
    const latest = (await sleepRuns(context, root, 50)).find((run) => run.undoneAt === null);
    if (latest === undefined) {
      throw new LucidError(
        "RUN_NOT_FOUND",
        `No sleep run to roll back in ${root}: nothing was promoted there.`,
        {
          details: { workspace: root },
        },
      );
    }
    return latest;
  }
  const found = await context.store.getRun(runId);
  if (found === null || found.run.kind !== SLEEP_RUN_KIND || found.run.scopeKey !== sleepKey(root)) {
    throw new LucidError(
      "RUN_NOT_FOUND",
      `No sleep run ${runId} in ${root}. List them with \`lucid sleep status\`.`,
      { details: { runId, workspace: root } },
    );
  }
  if (found.run.undoneAt !== null) {
    throw new LucidError(
      "ALREADY_UNDONE",
      `Sleep run ${runId} was already rolled back at ${found.run.undoneAt}.`,
      {
        details: { runId },
      },
    );
  }
  return found.run;
}

function readPlan(run: RunRecord): { after: string; promoted: { key: string }[] } | undefined {
  const { after, promoted } = run.plan;
  if (typeof after !== "string" || !Array.isArray(promoted)) return undefined;
  const keys = promoted.flatMap((entry) =>
    entry !== null && typeof entry === "object" && !Array.isArray(entry) && typeof entry.key === "string"
      ? [{ key: entry.key }]
      : [],
  );
  return { after, promoted: keys };
}

/** The lines the file gained and lost since the run left it, for the refusal. */
function changedLines(
  after: string,
  now: string | null,
): { summary: string; added: string[]; removed: string[] } {
  if (now === null) return { summary: "it was deleted", added: [], removed: [] };
  const count = (lines: string[]) => {
    const counts = new Map<string, number>();
    for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
    return counts;
  };
  const was = count(after.split("\n").filter((line) => line.trim() !== ""));
  const is = count(now.split("\n").filter((line) => line.trim() !== ""));
  const added = [...is].flatMap(
    ([line, n]) => Array(Math.max(0, n - (was.get(line) ?? 0))).fill(line) as string[],
  );
  const removed = [...was].flatMap(
    ([line, n]) => Array(Math.max(0, n - (is.get(line) ?? 0))).fill(line) as string[],
  );
  const quote = (lines: string[]) =>
    lines
      .slice(0, 3)
      .map((line) => JSON.stringify(line.slice(0, 80)))
      .join(", ");
  const parts = [
    ...(added.length > 0 ? [`${added.length} line(s) added: ${quote(added)}`] : []),
    ...(removed.length > 0 ? [`${removed.length} line(s) removed: ${quote(removed)}`] : []),
  ];
  return {
    summary: parts.length > 0 ? parts.join("; ") : "lines reordered or whitespace changed",
    added,
    removed,
  };
}
