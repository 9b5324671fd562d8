/**
 * `lucid sleep status`: where a workspace stands — its `MEMORY.md` against the budget, its indexed
 * notes, its recall records, the last run and the last sweep, what a promotion would take now and,
 * when nothing would, why (`openclaw-dreaming.md` §13 item 3), the notes the index leaves out and
 * the files sleep will not write (links), and the latest events of its log.
 *
 * @module
 */

import { lstat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { MemoryContext } from "../core/context.js";
import type { SleepEvent } from "../store/ports/sleep-state.js";
import { readWorkspaceBytes } from "./confined-path.js";
import { rankCandidates } from "./deep-promote.js";
import type { DeepOptions } from "./deep-rank.js";
import { DIARY_NAMES } from "./dream-diary.js";
import { MEMORY_MAX_CHARS } from "./memory-budget.js";
import { locateMemoryFile } from "./memory-file.js";
import { type LeftOut, leftOutOf, listNotes } from "./note-index.js";
import { type Blocker, promotionBlockers } from "./promotion-blockers.js";
import type { PromotionCandidate } from "./promotion-types.js";
import { workspaceRecalls } from "./record-recalls.js";
import { DEFAULT_SLEEP_SETTINGS, type SleepSettings } from "./sleep-config.js";
import { sleepNow } from "./sleep-now.js";
import { sleepRuns } from "./sleep-rollback.js";

/** Events of the log a status carries. */
/** The phases a sweep logs (backfills and their rollbacks are not sweeps). */
const SWEEP_EVENT_PHASES = new Set(["light", "rem", "deep", "diary", "sweep"]);

export const STATUS_EVENTS = 10;

/** The phases the most recent sweep ran, from its `memory.dream.completed` events. */
export interface LastSweep {
  /** The sweep's clock: every event of one sweep carries it. */
  readonly at: string;
  /** In the order the sweep ran them (light, rem, deep, then the diary when it failed). */
  readonly phases: readonly { readonly phase: string; readonly outcome: string }[];
}

export interface SleepStatus {
  readonly workspace: string;
  readonly memoryFile: string;
  /** Characters of `MEMORY.md` (0 when it does not exist yet) and the budget. */
  readonly memoryChars: number;
  readonly budgetChars: number;
  readonly indexedFiles: number;
  readonly shortTermFiles: number;
  /** Notes (and folders, ending in `/`) the index leaves out, and why: a link out of the workspace, a size. */
  readonly leftOut: readonly LeftOut[];
  /** `MEMORY.md` or `DREAMS.md` when sleep will not write it (a symbolic link), and why. */
  readonly unwritable: readonly LeftOut[];
  readonly entries: number;
  readonly promotedEntries: number;
  readonly lastRun: {
    readonly id: string;
    readonly committedAt: string;
    readonly promoted: number;
    readonly undoneAt: string | null;
  } | null;
  readonly lastSweep: LastSweep | null;
  readonly wouldPromote: readonly PromotionCandidate[];
  /** What keeps the deep phase from promoting; empty when something would. */
  readonly blockers: readonly Blocker[];
  /** The last {@link STATUS_EVENTS} events of the workspace's log, newest first. */
  readonly events: readonly SleepEvent[];
}

export interface SleepStatusOptions {
  /** The clock (ISO) recency is measured from; default now. */
  readonly now?: string;
  /** Where a promotion would write; a status writes nothing. */
  readonly scope: Record<string, string>;
  /** The deep phase's switch, limit and gates; default OpenClaw's. */
  readonly settings?: SleepSettings;
}

/**
 * @example
 * const status = await sleepStatus(context, "/home/ana/notes", { scope: { agent_id: "main" }, settings });
 * status.blockers[0]?.message;
 * // => "412 of 430 ranges were asked by fewer than 3 distinct queries (minUniqueQueries); the closest, …"
 */
export async function sleepStatus(
  context: MemoryContext,
  workspace: string,
  options: SleepStatusOptions,
): Promise<SleepStatus> {
  const root = resolve(workspace);
  const now = sleepNow(context.clock, options.now);
  const deep = (options.settings ?? DEFAULT_SLEEP_SETTINGS).phases.deep;
  // The options a sweep's deep phase ranks with (`sleep-sweep.ts`), so status and sweep agree.
  const rankOptions: DeepOptions = {
    now,
    limit: deep.limit,
    minScore: deep.minScore,
    minRecallCount: deep.minRecallCount,
    minUniqueQueries: deep.minUniqueQueries,
    recencyHalfLifeDays: deep.recencyHalfLifeDays,
    maxAgeDays: deep.maxAgeDays,
  };
  const memoryFile = await locateMemoryFile(root);
  // Read where its link leads only inside the workspace: a link out counts as no file.
  const bytes = await readWorkspaceBytes(root, memoryFile.path);
  const files = await context.store.listNoteFiles(root);
  // Read once and ranked here: a `promote` preview would read the recalls and MEMORY.md again.
  const entries = await workspaceRecalls(context, root);
  const [last] = await sleepRuns(context, root, 1);
  const events = await context.store.listSleepEvents(root, { limit: STATUS_EVENTS });
  // A sweep logs at most one completion a phase and the diary: 20 hold the newest sweep's whole.
  const completions = await context.store.listSleepEvents(root, {
    type: "memory.dream.completed",
    limit: 20,
  });
  const promoted = last?.outcome.promoted;
  return {
    workspace: root,
    memoryFile: memoryFile.path,
    memoryChars: bytes === null ? 0 : Buffer.from(bytes).toString("utf8").length,
    budgetChars: MEMORY_MAX_CHARS,
    indexedFiles: files.length,
    shortTermFiles: files.filter((file) => file.shortTerm).length,
    leftOut: leftOutOf(await listNotes(root)),
    unwritable: await linkedFiles(root, [memoryFile.name, ...DIARY_NAMES]),
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
    lastSweep: lastSweepOf(completions),
    wouldPromote: rankCandidates(entries, rankOptions),
    blockers: promotionBlockers(entries, rankOptions, options.settings),
    events,
  };
}

/** Which of the files sleep rewrites are symbolic links: a promotion or a diary entry would fail. */
async function linkedFiles(root: string, names: readonly string[]): Promise<LeftOut[]> {
  const linked: LeftOut[] = [];
  for (const name of names) {
    const info = await lstat(join(root, name)).catch(() => undefined);
    // On a case-insensitive disk DREAMS.md and dreams.md are one link: name it once.
    if (
      info?.isSymbolicLink() === true &&
      !linked.some((each) => each.path.toLowerCase() === name.toLowerCase())
    )
      linked.push({
        path: name,
        reason: "is a symbolic link: sleep will not write through it (replace the link with the file)",
      });
  }
  return linked;
}

/**
 * The newest sweep's phases: the completions that share the newest one's time, each phase once
 * (the newest, should two sweeps have run with the same clock), oldest first. A backfill writes
 * old days' diary entries outside any sweep: it is in the log, not a sweep.
 */
function lastSweepOf(completions: readonly SleepEvent[]): LastSweep | null {
  const phaseOf = (event: SleepEvent) =>
    typeof event.data.phase === "string" ? event.data.phase : "unknown";
  const swept = completions.filter((event) => SWEEP_EVENT_PHASES.has(phaseOf(event) ?? ""));
  const [newest] = swept;
  if (newest === undefined) return null;
  const byPhase = new Map<string, SleepEvent>();
  for (const event of swept) {
    if (event.at !== newest.at) break;
    if (!byPhase.has(phaseOf(event))) byPhase.set(phaseOf(event), event);
  }
  const phases = [...byPhase]
    .sort(([, a], [, b]) => a.seq - b.seq)
    .map(([phase, event]) => ({
      phase,
      outcome: typeof event.data.outcome === "string" ? event.data.outcome : "unknown",
    }));
  return { at: newest.at, phases };
}

// As `promote` and `sweep` check theirs: a clock without its offset would read as local time.
