/**
 * `memory.workspace(dir)`: sleep for an agent that keeps its memory in Markdown (`MEMORY.md` and
 * `memory/YYYY-MM-DD.md`). Searching the workspace returns note hits beside long-term memories and
 * records the hits on daily notes as recall signals; `promote` moves the ranges that keep being
 * recalled into `MEMORY.md` and long-term memory, as a run `rollback` undoes.
 *
 * Here, at the composition root, because a workspace search joins two services (memory's search and
 * sleep's notes), which never import each other.
 *
 * @module
 */

import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { MemoryContext } from "../core/context.js";
import { hasScope, type Scope, type ScopeOptions, scopeFromOptions, scopeToOptions } from "../core/scope.js";
import { LucidError } from "../errors.js";
import type { SearchOptions, SearchResult } from "../memory/types.js";
import type { BackfillResult, BackfillRollback } from "../sleep/diary-backfill.js";
import type { Explanation } from "../sleep/explain.js";
import type { OpenClawImport } from "../sleep/import-openclaw.js";
import type { IndexReport } from "../sleep/note-index.js";
import type { NoteRange } from "../sleep/note-range.js";
import type { PromoteOptions, PromoteResult } from "../sleep/promotion-types.js";
import type { RecallEntry, SignalType } from "../sleep/recall-entry.js";
import type { RecallHitInput, RecordResult } from "../sleep/record-recalls.js";
import type { LogError } from "../sleep/search-log.js";
import { resolveSleepSettings, type SleepSettings, type SleepSettingsInput } from "../sleep/sleep-config.js";
import type { RollbackResult } from "../sleep/sleep-rollback.js";
import type { SleepStatus } from "../sleep/sleep-status.js";
import type { SweepPhase, SweepResult } from "../sleep/sleep-sweep.js";
import type { NoteResult, NoteSearchOptions, NoteSearchResult } from "../sleep/workspace-search.js";
import type { SleepEvent } from "../store/ports/sleep-state.js";

/** OpenClaw's default agent, whose workspace `~/.openclaw/workspace` is. */
export const DEFAULT_WORKSPACE_SCOPE: Scope = Object.freeze({ agent_id: "main" });

export interface WorkspaceOptions extends ScopeOptions {
  /** The zone whose calendar days recall signals count in, and promotions are dated by. */
  timeZone?: string;
  /** Sleep's settings (`lucid.config.json` `sleep`); missing keys take OpenClaw's defaults. */
  settings?: SleepSettingsInput;
}

export interface WorkspaceSweepOptions {
  /** The sweep's clock (ISO); default now. */
  now?: string;
  /** Default all three, in order. */
  phases?: readonly SweepPhase[];
}

export interface WorkspaceSearchOptions extends Omit<SearchOptions, keyof ScopeOptions> {
  /** Note hits returned at most. Default 6. */
  notesTopK?: number;
  /** Least score of a note hit. Default 0.35. */
  notesThreshold?: number;
  /** Record short-term hits as recall signals. Default true. */
  record?: boolean;
  /** When the search ran, for its recall signals (ISO); default now. */
  at?: string;
}

export interface WorkspaceSearchResult extends SearchResult {
  /** Hits on the workspace's notes, best first. */
  notes: NoteResult[];
  /** Short-term hits recorded as recall signals. */
  recorded: number;
}

/**
 * The modules every search and record call needs, loaded once for the process. Elsewhere a method
 * loads its module with `import()` on each call, which is cheap in Node but a loader round trip under
 * a loader hook (tsx, ~0.3 ms): too much for recording, which must cost under a millisecond.
 */
let hotModules:
  | Promise<
      [
        typeof import("../memory/search.js"),
        typeof import("../sleep/workspace-search.js"),
        typeof import("../sleep/record-recalls.js"),
      ]
    >
  | undefined;
const loadHotModules = () =>
  (hotModules ??= Promise.all([
    import("../memory/search.js"),
    import("../sleep/workspace-search.js"),
    import("../sleep/record-recalls.js"),
  ]));

/** Searches of a replayed log recorded per transaction. */
const RECORD_BATCH = 1000;

export interface RecordLogResult {
  readonly searches: number;
  readonly recorded: number;
  /** Older records the replay's new ones pushed past the cap. */
  readonly evicted: number;
  readonly skipped: number;
  readonly errors: readonly LogError[];
}

export type WorkspacePromoteOptions = Omit<PromoteOptions, "scope" | "timeZone">;

export interface Workspace {
  /** The workspace's absolute path. */
  readonly dir: string;
  /** Where promoted snippets become long-term memories (default `agent_id=main`). */
  readonly scope: Scope;
  /** Brings the notes index up to date (a search does this itself). */
  index(): Promise<IndexReport>;
  /** Long-term memories of the workspace's scope and note hits, recording recall signals. */
  search(query: string, options?: WorkspaceSearchOptions): Promise<WorkspaceSearchResult>;
  /** Note hits only (recording recall signals unless `record: false`): what `recall` injects. */
  notes(query: string, options?: Omit<NoteSearchOptions, "timeZone">): Promise<NoteSearchResult>;
  /** The lines of a note by address: `memory/2026-11-04.md#L3-L5`. */
  get(address: string): Promise<NoteRange>;
  /** Records one search's hits, as a search would. */
  record(
    query: string,
    hits: readonly RecallHitInput[],
    options?: { at?: string; type?: SignalType },
  ): Promise<RecordResult>;
  /** Replays a search log (JSONL, `lucid sleep record`). */
  recordLog(text: string): Promise<RecordLogResult>;
  /** Reads OpenClaw's recall store (`memory/.dreams/short-term-recall.json`, or `text`). */
  importOpenClaw(text?: string): Promise<OpenClawImport>;
  /** Every recall record of the workspace. */
  signals(): Promise<RecallEntry[]>;
  /** What the deep phase would promote; with `apply: true`, promotes it. */
  promote(options?: WorkspacePromoteOptions): Promise<PromoteResult>;
  explain(target: string, options?: Omit<WorkspacePromoteOptions, "apply">): Promise<Explanation>;
  status(options?: { now?: string }): Promise<SleepStatus>;
  /** Undoes a promotion run (default: the latest). */
  rollback(options?: { runId?: string; force?: boolean }): Promise<RollbackResult>;
  /** Light, REM and deep, then the diary: one sweep, under the workspace's lease. */
  sweep(options?: WorkspaceSweepOptions): Promise<SweepResult>;
  /** What a sweep would stage, reflect and promote, writing nothing. */
  preview(options?: WorkspaceSweepOptions): Promise<SweepResult>;
  /** Dream Diary entries for past days, from their daily notes (`lucid sleep backfill`). */
  backfill(options: { from: string; to?: string; now?: string }): Promise<BackfillResult>;
  /** Removes the diary entries Lucid's backfills wrote (an edited one only with `force`). */
  rollbackBackfill(options?: { force?: boolean; now?: string }): Promise<BackfillRollback>;
  /** The workspace's event log, newest first. */
  events(options?: { limit?: number; type?: string }): Promise<SleepEvent[]>;
  /** The Dream Diary (`DREAMS.md`): where it is, and its text ("" when there is none yet). */
  diary(): Promise<{ path: string; exists: boolean; text: string }>;
  /** The settings the workspace sleeps with (the given ones over the defaults). */
  readonly settings: SleepSettings;
}

/**
 * @example
 * const notes = memory.workspace("/home/ana/.openclaw/workspace");
 * await notes.search("where do we stay in Kyoto?");
 * await notes.promote({ apply: true });
 */
export function createWorkspace(
  getContext: () => Promise<MemoryContext>,
  dir: string,
  options: WorkspaceOptions = {},
): Workspace {
  if (typeof dir !== "string" || dir.trim() === "") {
    throw new LucidError("INVALID_ARGUMENT", "workspace(dir) needs the workspace's directory.");
  }
  const root = resolve(dir);
  const given = scopeFromOptions(options);
  const scope = hasScope(given) ? given : DEFAULT_WORKSPACE_SCOPE;
  const settings = resolveSleepSettings(options.settings);
  const zone = options.timeZone ?? settings.timezone;
  const ready = async (): Promise<MemoryContext> => {
    const info = await stat(root).catch(() => undefined);
    if (info === undefined || !info.isDirectory()) {
      throw new LucidError(
        "WORKSPACE_NOT_FOUND",
        `No workspace at ${root}: it must be a directory holding MEMORY.md and memory/. Pass --workspace DIR, or set sleep.workspace in lucid.config.json.`,
        { details: { workspace: root } },
      );
    }
    return getContext();
  };
  const timeZoneOf = (context: MemoryContext) => zone ?? context.timeZone;

  // `sleep.phases.deep.*` as the defaults of promote and explain (flags and options win).
  const deep = settings.phases.deep;
  const configuredDeep = {
    limit: deep.limit,
    minScore: deep.minScore,
    minRecallCount: deep.minRecallCount,
    minUniqueQueries: deep.minUniqueQueries,
    recencyHalfLifeDays: deep.recencyHalfLifeDays,
    maxAgeDays: deep.maxAgeDays,
    maxLoss: deep.maxPriorEntryLossFraction,
    visibleChars: deep.maxPromotedSnippetTokens * 4,
  };
  const runSweep = async (sweepOptions: WorkspaceSweepOptions, apply: boolean) => {
    const context = await ready();
    const { sweep } = await import("../sleep/sleep-sweep.js");
    return sweep(context, root, { ...sweepOptions, settings, scope, timeZone: timeZoneOf(context), apply });
  };

  return {
    dir: root,
    scope,
    settings,
    sweep: (sweepOptions = {}) => runSweep(sweepOptions, true),
    preview: (sweepOptions = {}) => runSweep(sweepOptions, false),
    async backfill(backfillOptions) {
      const context = await ready();
      const { backfillDiary } = await import("../sleep/diary-backfill.js");
      return backfillDiary(context, root, {
        ...backfillOptions,
        to: backfillOptions.to ?? backfillOptions.from,
        timeZone: timeZoneOf(context),
      });
    },
    async rollbackBackfill(rollbackOptions = {}) {
      const context = await ready();
      const { rollbackBackfill } = await import("../sleep/diary-backfill.js");
      return rollbackBackfill(context, root, rollbackOptions);
    },
    async events(eventOptions = {}) {
      return (await ready()).store.listSleepEvents(root, eventOptions);
    },
    async index() {
      const { indexWorkspace } = await import("../sleep/note-index.js");
      return indexWorkspace(await ready(), root);
    },
    async search(query, searchOptions = {}) {
      const context = await ready();
      const [{ searchMemories }, { searchNotes }] = await loadHotModules();
      const { notesTopK, notesThreshold, record, at, ...memoryOptions } = searchOptions;
      const noteOptions: NoteSearchOptions = {
        timeZone: timeZoneOf(context),
        ...(notesTopK === undefined ? {} : { topK: notesTopK }),
        ...(notesThreshold === undefined ? {} : { threshold: notesThreshold }),
        ...(record === undefined ? {} : { record }),
        ...(at === undefined ? {} : { at }),
      };
      // Notes first: the index is brought up to date before the long-term search shares the store.
      const found = await searchNotes(context, root, query, noteOptions);
      const memories = await searchMemories(context, query, { ...memoryOptions, ...scopeToOptions(scope) });
      return { ...memories, notes: found.notes, recorded: found.recorded };
    },
    async notes(query, noteOptions = {}) {
      const context = await ready();
      const [, { searchNotes }] = await loadHotModules();
      return searchNotes(context, root, query, { ...noteOptions, timeZone: timeZoneOf(context) });
    },
    async get(address) {
      const { readNoteRange } = await import("../sleep/note-range.js");
      await ready();
      return readNoteRange(root, address);
    },
    async record(query, hits, recordOptions = {}) {
      const context = await ready();
      const [, , { recordRecalls }] = await loadHotModules();
      return recordRecalls(
        context,
        { workspace: root, query, timeZone: timeZoneOf(context), ...recordOptions },
        hits,
      );
    },
    async recordLog(text) {
      const context = await ready();
      const [{ parseSearchLog }, { recordSearches }] = await Promise.all([
        import("../sleep/search-log.js"),
        import("../sleep/record-recalls.js"),
      ]);
      const { searches, errors } = parseSearchLog(text);
      let recorded = 0;
      let evicted = 0;
      let skipped = 0;
      // One replay reads each note once, and commits once a batch: a year of searches is 20 batches,
      // each short enough not to keep other writers waiting long.
      const lines = new Map<string, Promise<string[] | undefined>>();
      for (let start = 0; start < searches.length; start += RECORD_BATCH) {
        const results = await recordSearches(
          context,
          { workspace: root, timeZone: timeZoneOf(context), lines },
          searches.slice(start, start + RECORD_BATCH),
        );
        for (const result of results) {
          recorded += result.recorded;
          evicted += result.evicted;
          skipped += result.skipped.length;
        }
      }
      return { searches: searches.length, recorded, evicted, skipped, errors };
    },
    async importOpenClaw(text) {
      const context = await ready();
      const { importOpenClawRecalls, readOpenClawRecallStore } = await import("../sleep/import-openclaw.js");
      return importOpenClawRecalls(context, root, text ?? (await readOpenClawRecallStore(root)));
    },
    async diary() {
      await ready();
      const { locateDiary, readDiary } = await import("../sleep/dream-diary.js");
      const where = await locateDiary(root);
      return { path: where.path, exists: where.exists, text: where.exists ? await readDiary(root) : "" };
    },
    async signals() {
      const { workspaceRecalls } = await import("../sleep/record-recalls.js");
      return workspaceRecalls(await ready(), root);
    },
    async promote(promoteOptions = {}) {
      const context = await ready();
      const { promote } = await import("../sleep/deep-promote.js");
      return promote(context, root, {
        ...configuredDeep,
        ...promoteOptions,
        scope,
        timeZone: timeZoneOf(context),
      });
    },
    async explain(target, explainOptions = {}) {
      const context = await ready();
      const [{ explainEntry }, { workspaceRecalls }] = await Promise.all([
        import("../sleep/explain.js"),
        import("../sleep/record-recalls.js"),
      ]);
      const now = explainOptions.now ?? context.clock.now().toISOString();
      return explainEntry(await workspaceRecalls(context, root), target, {
        ...configuredDeep,
        ...explainOptions,
        now,
      });
    },
    async status(statusOptions = {}) {
      const context = await ready();
      const { sleepStatus } = await import("../sleep/sleep-status.js");
      return sleepStatus(context, root, { ...statusOptions, scope, settings });
    },
    async rollback(rollbackOptions = {}) {
      const context = await ready();
      const { rollbackSleep } = await import("../sleep/sleep-rollback.js");
      return rollbackSleep(context, root, rollbackOptions);
    },
  };
}
