/**
 * Daily ingestion (`openclaw-dreaming.md` §4, "Other writers of signals"), run at the start of the
 * light and REM phases: the recent daily notes are read snippet by snippet, and each snippet counts
 * as a `daily` sighting of its range (score 0.62, query `__dreaming_daily__:<day>`, the note's day as
 * its day bucket), so notes nobody searched still reach the light phase.
 *
 * A note is read once a dreaming day: a checkpoint keeps its size and time and the day it was read,
 * and a note unchanged since, on the same day, is skipped. Planning is separate from recording so
 * `lucid sleep preview` can show what a sweep would see without writing anything.
 *
 * @module
 */

import { resolve } from "node:path";
import type { MemoryContext } from "../core/context.js";
import { secretsGuardOf } from "../core/secrets-guard.js";
import type { SleepStateRecord } from "../store/ports/sleep-state.js";
import { readWorkspaceBytes, realRoot } from "./confined-path.js";
import { contaminationOf } from "./contamination.js";
import { chunkNote } from "./note-chunks.js";
import { shortTermDay } from "./note-paths.js";
import { applyHit, type RecallEntry } from "./recall-entry.js";
import { recallKey } from "./recall-keys.js";
import { addDays } from "./recall-window.js";
import { recordSearches, type SearchToRecord } from "./record-recalls.js";
import { redactNote } from "./redact-note.js";

/** OpenClaw's `DAILY_INGESTION_SCORE`. */
export const DAILY_SCORE = 0.62;
/** Where the checkpoints are kept (`SleepStatePort`), by note path. */
export const DAILY_CHECKPOINTS = "daily-ingestion";
/** The window is at least this many days, whatever the phases' lookback. */
const MIN_WINDOW_DAYS = 14;
const MIN_SNIPPET = 8;
const MAX_SNIPPET = 280;

export interface IngestOptions {
  /** The sweep's clock (ISO). */
  readonly now: string;
  /** The dreaming day (`YYYY-MM-DD` in the workspace's zone). */
  readonly today: string;
  /** The largest lookback of the phases that run. */
  readonly lookbackDays: number;
  /** The light phase's limit: the snippets read are capped at `max(20, limit × 4)`. */
  readonly limit: number;
}

interface Checkpoint {
  readonly size: number;
  readonly mtimeMs: number;
  readonly day: string;
}

export interface IngestPlan {
  /** One synthetic search a note: its snippets as hits. */
  readonly searches: readonly SearchToRecord[];
  readonly checkpoints: readonly SleepStateRecord[];
  /** Notes in the window, and those read this time. */
  readonly files: number;
  readonly read: number;
}

/**
 * What ingestion would record now: the notes of the last `max(14, lookbackDays)` days, newest first,
 * that changed or were not read today. The workspace's index must be up to date (its files are the
 * notes).
 */
export async function planDailyIngestion(
  context: MemoryContext,
  workspace: string,
  options: IngestOptions,
): Promise<IngestPlan> {
  const root = resolve(workspace);
  const first = addDays(options.today, -Math.max(MIN_WINDOW_DAYS, options.lookbackDays));
  const notes = (await context.store.listNoteFiles(root))
    .flatMap((file) => {
      const day = shortTermDay(file.path);
      return day !== undefined && day >= first && day <= options.today ? [{ file, day }] : [];
    })
    .sort((a, b) => (a.day === b.day ? (a.file.path < b.file.path ? -1 : 1) : a.day < b.day ? 1 : -1));
  const known = new Map(
    (
      await context.store.getSleepState(
        root,
        DAILY_CHECKPOINTS,
        notes.map((note) => note.file.path),
      )
    ).map((record) => [record.key, record.value as Partial<Checkpoint>]),
  );
  const due = notes.filter(({ file }) => {
    const seen = known.get(file.path);
    return !(seen?.size === file.size && seen.mtimeMs === file.mtimeMs && seen.day === options.today);
  });
  if (due.length === 0) return { searches: [], checkpoints: [], files: notes.length, read: 0 };

  const total = Math.max(20, options.limit * 4);
  const perFile = Math.max(6, Math.ceil(total / due.length));
  const scanner = secretsGuardOf(context).scanner;
  const searches: SearchToRecord[] = [];
  const checkpoints: SleepStateRecord[] = [];
  let taken = 0;
  const real = await realRoot(root);
  for (const { file, day } of due) {
    const bytes = await readWorkspaceBytes(root, file.path, real);
    // Gone (or linked out of the workspace) since it was indexed: the next sweep's index drops it.
    if (bytes === null) continue;
    const text = Buffer.from(bytes).toString("utf8");
    checkpoints.push({
      key: file.path,
      value: { size: file.size, mtimeMs: file.mtimeMs, day: options.today },
      updatedAt: options.now,
    });
    if (taken >= total) continue;
    const hits = chunkNote(redactNote(text, scanner))
      .filter(
        (chunk) =>
          chunk.text.length >= MIN_SNIPPET &&
          chunk.text.length <= MAX_SNIPPET &&
          contaminationOf(chunk.text) === undefined,
      )
      .slice(0, Math.min(perFile, total - taken))
      .map((chunk) => ({
        path: file.path,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        score: DAILY_SCORE,
        snippet: chunk.text,
      }));
    taken += hits.length;
    if (hits.length > 0) searches.push({ query: `__dreaming_daily__:${day}`, at: options.now, day, hits });
  }
  return { searches, checkpoints, files: notes.length, read: checkpoints.length };
}

/** Records the plan's signals and checkpoints. Returns the sightings recorded. */
export async function recordDailyIngestion(
  context: MemoryContext,
  workspace: string,
  plan: IngestPlan,
  timeZone: string,
): Promise<number> {
  const root = resolve(workspace);
  const results = await recordSearches(context, { workspace: root, timeZone, type: "daily" }, plan.searches);
  await context.store.putSleepState(root, DAILY_CHECKPOINTS, plan.checkpoints);
  return results.reduce((sum, result) => sum + result.recorded, 0);
}

/** The entries as they would be after the plan, without writing: what a preview ranks. */
export function withIngestion(entries: readonly RecallEntry[], plan: IngestPlan): RecallEntry[] {
  const byKey = new Map(entries.map((entry) => [entry.key, entry]));
  for (const search of plan.searches) {
    const signal = {
      type: "daily" as const,
      query: search.query,
      at: search.at ?? "",
      day: search.day ?? "",
    };
    for (const hit of search.hits) {
      const key = recallKey(hit.path, hit.startLine, hit.endLine);
      const update = applyHit(byKey.get(key), { ...hit, snippet: hit.snippet ?? "" }, signal);
      if (update.recorded) byKey.set(key, update.entry);
    }
  }
  return [...byKey.values()];
}
