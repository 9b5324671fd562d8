import { resolve } from "node:path";
import type { MemoryContext } from "../core/context.js";
import { withLease } from "../core/lease.js";
import { startLlmRun } from "../core/llm-run.js";
import type { LlmCost } from "../core/llm-usage.js";
import type { Scope } from "../core/scope.js";
import { isLucidError } from "../errors.js";
import type { SleepEventInput } from "../store/ports/sleep-state.js";
import { calendarDay } from "../text/expiry-date.js";
import { planDailyIngestion, recordDailyIngestion, withIngestion } from "./daily-ingest.js";
import { applyPromotion, rankCandidates } from "./deep-promote.js";
import type { DeepOptions } from "./deep-rank.js";
import { backfillDateLabel, diaryEntries, readDiary } from "./dream-diary.js";
import { lightBody, type StagedEntry, selectLightCandidates, withLightSignal } from "./light-phase.js";
import type { Phase } from "./managed-block.js";
import { type IndexReport, indexWorkspace } from "./note-index.js";
import { writePhaseOutput } from "./phase-output.js";
import type { PromoteResult, PromotionCandidate } from "./promotion-types.js";
import type { RecallEntry } from "./recall-entry.js";
import { patchRecalls, workspaceRecalls } from "./record-recalls.js";
import { type Reflection, remBody, runRem, type Truth, withRemSignal } from "./rem-phase.js";
import type { SleepSettings } from "./sleep-config.js";
import { sleepNow } from "./sleep-now.js";
import { sleepLeaseKey } from "./sleep-run.js";
import { type SweepDiary, writeSweepDiary } from "./sweep-diary.js";

export const SWEEP_PHASES = ["light", "rem", "deep"] as const satisfies readonly Phase[];
export type SweepPhase = (typeof SWEEP_PHASES)[number];

export interface SweepOptions {
  readonly settings: SleepSettings;
  /** Where promoted snippets go as long-term memories. */
  readonly scope: Scope;
  readonly timeZone: string;
  /** The sweep's clock (ISO); default now. */
  readonly now?: string;
  /** Default all three; a phase disabled in the settings is skipped whatever this says. */
  readonly phases?: readonly SweepPhase[];
  /** Write; false is a preview. */
  readonly apply: boolean;
}

export type PhaseOutcome = "completed" | "skipped" | "failed";

export interface PhaseReport {
  /** The three phases, and the diary's page after them. */
  readonly phase: SweepPhase | "diary";
  readonly outcome: PhaseOutcome;
  /** Why it was skipped, or what failed. */
  readonly reason?: string;
  /** Files written (a day's note with the managed block, a separate report). */
  readonly written: readonly string[];
}

export interface SweepResult {
  readonly workspace: string;
  readonly now: string;
  /** The dreaming day, in the workspace's zone. */
  readonly day: string;
  readonly applied: boolean;
  readonly index: IndexReport;
  /** Daily notes in the window, those read this time, and the sightings recorded. */
  readonly ingestion: { readonly files: number; readonly read: number; readonly sightings: number };
  readonly phases: readonly PhaseReport[];
  readonly staged: readonly StagedEntry[];
  readonly reflections: readonly Reflection[];
  readonly truths: readonly Truth[];
  /** What deep ranked (a preview stops here). */
  readonly candidates: readonly PromotionCandidate[];
  /** The apply, when deep ran with `apply`. */
  readonly promotion: PromoteResult | null;
  /** The diary entry the sweep wrote (or would write), and where. */
  readonly diary: SweepDiary | null;
  /** What the LLM calls of this sweep cost (the diary's narrative), when it made any. */
  readonly llm?: LlmCost;
}

/**
 * @example
 * await sweep(context, "/home/ana/notes", { settings, scope: { agent_id: "main" }, timeZone: "UTC", apply: true });
 * // => { phases: [{ phase: "light", outcome: "completed", … }, …], staged: [ … ], promotion: { promoted: [ … ] }, … }
 */
export async function sweep(
  context: MemoryContext,
  workspace: string,
  options: SweepOptions,
): Promise<SweepResult> {
  const root = resolve(workspace);
  const now = sleepNow(context.clock, options.now);
  const run = () => sweepHeld(context, root, { ...options, now });
  if (!options.apply) return run();
  try {
    return await withLease(context, await sleepLeaseKey(root), { what: "sleep" }, run);
  } catch (error) {
    // A sweep that could not run at all (its index, the store) still leaves its trace: status
    // shows it as the last sweep, failed, with why. Another sweep holding the lease is not one.
    if (!isLucidError(error, "DREAM_LEASE_HELD")) {
      const failure = failureOf(error);
      await context.store
        .appendSleepEvents(root, [
          {
            type: "memory.dream.completed",
            at: now,
            data: { phase: "sweep", outcome: "failed", error: failure },
          },
        ])
        .catch(() => undefined);
    }
    throw error;
  }
}

async function sweepHeld(
  context: MemoryContext,
  root: string,
  options: SweepOptions & { now: string },
): Promise<SweepResult> {
  const { settings, now, apply } = options;
  const dayOf = (iso: string) => calendarDay(Date.parse(iso), options.timeZone);
  const today = dayOf(now);
  const asked = new Set(options.phases ?? SWEEP_PHASES);
  // A phase runs when asked for, enabled and with a limit above 0 (§3).
  const enabled = (phase: SweepPhase) =>
    asked.has(phase) && settings.phases[phase].enabled && settings.phases[phase].limit > 0;
  const events: SleepEventInput[] = [];
  const reports: PhaseReport[] = [];
  const event = (type: string, data: Record<string, unknown>) => events.push({ type, at: now, data });
  const fail = (phase: SweepPhase | "diary", error: unknown) => {
    const failure = failureOf(error);
    reports.push({ phase, outcome: "failed", reason: `${failure.code}: ${failure.message}`, written: [] });
    event("memory.dream.completed", {
      phase,
      outcome: "failed",
      error: { code: failure.code, message: failure.message },
    });
  };

  const index = await indexWorkspace(context, root);
  const notes = new Set((await context.store.listNoteFiles(root)).map((file) => file.path));

  // Daily ingestion starts the light and REM phases: once a sweep.
  let ingestion = { files: 0, read: 0, sightings: 0 };
  let entries: RecallEntry[] = await workspaceRecalls(context, root);
  // Light and REM stand on the ingestion: when it fails, they fail with it, and deep still runs.
  let ingestFailure: unknown;
  if (enabled("light") || enabled("rem")) {
    try {
      const plan = await planDailyIngestion(context, root, {
        now,
        today,
        lookbackDays: Math.max(
          enabled("light") ? settings.phases.light.lookbackDays : 0,
          enabled("rem") ? settings.phases.rem.lookbackDays : 0,
        ),
        limit: settings.phases.light.limit,
      });
      let sightings = plan.searches.reduce((sum, search) => sum + search.hits.length, 0);
      if (apply) {
        sightings = await recordDailyIngestion(context, root, plan, options.timeZone);
        entries = await workspaceRecalls(context, root);
        if (plan.read > 0) event("memory.recall.recorded", { source: "daily", files: plan.read, sightings });
      } else {
        entries = withIngestion(entries, plan);
      }
      ingestion = { files: plan.files, read: plan.read, sightings };
    } catch (error) {
      ingestFailure = error;
    }
  }

  // Phase signals: written at once on apply, applied to the entries in memory either way.
  const signal = async (updated: RecallEntry[]) => {
    if (updated.length === 0) return;
    const byKey = new Map(updated.map((entry) => [entry.key, entry]));
    entries = entries.map((entry) => byKey.get(entry.key) ?? entry);
    // Only the phase fields are written, onto the records as they are now: a search recording a
    // recall while the sweep runs keeps it.
    if (apply)
      await context.store.transaction((tx) =>
        patchRecalls(
          tx,
          root,
          new Map(
            updated.map((entry) => [
              entry.key,
              {
                lightHits: entry.lightHits,
                lastLightAt: entry.lastLightAt,
                lightClaimHash: entry.lightClaimHash,
                remHits: entry.remHits,
                lastRemAt: entry.lastRemAt,
              },
            ]),
          ),
          now,
        ),
      );
  };
  const write = (phase: "light" | "rem", body: string) =>
    apply ? writePhaseOutput(context, root, { phase, body, today, now, storage: settings.storage }) : [];

  let staged: StagedEntry[] = [];
  if (!enabled("light")) reports.push(skipped("light", settings, asked));
  else if (ingestFailure !== undefined) fail("light", ingestFailure);
  else {
    try {
      // Today's own entry does not count: a second sweep the same day must see what the first saw.
      const todayLabel = backfillDateLabel(today);
      const diary = diaryEntries(await readDiary(root))
        .filter((entry) => !entry.date.startsWith(todayLabel))
        .map((entry) => entry.body);
      staged = selectLightCandidates({
        entries,
        today,
        dayOf,
        settings: settings.phases.light,
        notes,
        diary,
      });
      const body = lightBody(staged);
      const written = await write("light", body);
      const keys = new Set(staged.map((entry) => entry.key));
      await signal(
        entries.flatMap((entry) => (keys.has(entry.key) ? (withLightSignal(entry, now, dayOf) ?? []) : [])),
      );
      reports.push({ phase: "light", outcome: "completed", written });
      event("memory.dream.completed", {
        phase: "light",
        outcome: "completed",
        staged: staged.length,
        lineCount: body.split("\n").length,
        storageMode: settings.storage.mode,
        written,
      });
    } catch (error) {
      fail("light", error);
    }
  }

  let rem: { reflections: Reflection[]; truths: Truth[] } = { reflections: [], truths: [] };
  if (!enabled("rem")) reports.push(skipped("rem", settings, asked));
  else if (ingestFailure !== undefined) fail("rem", ingestFailure);
  else {
    try {
      const output = runRem({
        entries,
        today,
        dayOf,
        settings: settings.phases.rem,
        staged: staged.map((entry) => entry.key),
      });
      rem = { reflections: [...output.reflections], truths: [...output.truths] };
      const body = remBody(output);
      const written = await write("rem", body);
      const keys = new Set(output.truths.map((truth) => truth.key));
      await signal(
        entries.flatMap((entry) => (keys.has(entry.key) ? (withRemSignal(entry, now, dayOf) ?? []) : [])),
      );
      reports.push({ phase: "rem", outcome: "completed", written });
      event("memory.dream.completed", {
        phase: "rem",
        outcome: "completed",
        reflections: output.reflections.length,
        truths: output.truths.length,
        considered: output.considered.length,
        storageMode: settings.storage.mode,
        written,
      });
    } catch (error) {
      fail("rem", error);
    }
  }

  const deep = settings.phases.deep;
  // The limit is a night's: what an earlier sweep promoted today counts against it, so sweeping
  // twice in a night promotes no more than sweeping once.
  const promotedToday = entries.filter(
    (entry) => entry.promotedAt !== undefined && dayOf(entry.promotedAt) === today,
  ).length;
  const deepOptions: DeepOptions = {
    now,
    limit: Math.max(0, deep.limit - promotedToday),
    minScore: deep.minScore,
    minRecallCount: deep.minRecallCount,
    minUniqueQueries: deep.minUniqueQueries,
    recencyHalfLifeDays: deep.recencyHalfLifeDays,
    maxAgeDays: deep.maxAgeDays,
  };
  let candidates: PromotionCandidate[] = [];
  let promotion: PromoteResult | null = null;
  if (!enabled("deep")) reports.push(skipped("deep", settings, asked));
  else if (deepOptions.limit === 0)
    reports.push({
      phase: "deep",
      outcome: "skipped",
      reason: `sleep.phases.deep.limit (${deep.limit}) already promoted today`,
      written: [],
    });
  else {
    try {
      candidates = rankCandidates(entries, deepOptions);
      if (apply) {
        promotion = await applyPromotion(context, root, {
          ...deepOptions,
          apply: true,
          scope: options.scope,
          timeZone: options.timeZone,
          maxLoss: deep.maxPriorEntryLossFraction,
          visibleChars: deep.maxPromotedSnippetTokens * 4,
        });
        candidates = [...promotion.candidates];
        if (promotion.promoted.length > 0)
          event("memory.promotion.applied", {
            runId: promotion.runId,
            promoted: promotion.promoted.length,
            keys: promotion.promoted.map((entry) => entry.key),
          });
      }
      reports.push({
        phase: "deep",
        outcome: "completed",
        written: promotion?.runId ? [promotion.memoryFile] : [],
      });
      event("memory.dream.completed", {
        phase: "deep",
        outcome: "completed",
        candidates: candidates.length,
        promoted: promotion?.promoted.length ?? 0,
        refused: promotion?.refused.length ?? 0,
        runId: promotion?.runId ?? null,
      });
    } catch (error) {
      fail("deep", error);
    }
  }

  // Only a sweep that applies asks the LLM for the entry: a preview (dry run) makes no call.
  const llm = apply ? startLlmRun(context, "sleep") : undefined;
  const diary = await writeSweepDiary(root, {
    now,
    today,
    timeZone: options.timeZone,
    apply,
    staged,
    rem,
    candidates,
    promotion,
    deepRan: reports.some((report) => report.phase === "deep" && report.outcome === "completed"),
    llm,
  }).catch((error: unknown) => {
    fail("diary", error);
    return null;
  });
  if (apply && events.length > 0) await context.store.appendSleepEvents(root, events);
  return {
    workspace: root,
    now,
    day: today,
    applied: apply,
    index,
    ingestion,
    phases: reports,
    staged,
    reflections: rem.reflections,
    truths: rem.truths,
    candidates,
    promotion,
    diary,
    ...(llm === undefined || llm.spent.calls === 0 ? {} : { llm: { model: llm.model, ...llm.spent } }),
  };
}

/** What failed, as the event log and the report say it. */
function failureOf(error: unknown): { code: string; message: string } {
  if (isLucidError(error)) return { code: error.code, message: error.message };
  if (error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === "string")
    return { code: "IO_ERROR", message: error.message };
  return { code: "INTERNAL", message: error instanceof Error ? error.message : String(error) };
}

function skipped(phase: SweepPhase, settings: SleepSettings, asked: ReadonlySet<SweepPhase>): PhaseReport {
  const reason = !asked.has(phase)
    ? "not among --phases"
    : !settings.phases[phase].enabled
      ? `sleep.phases.${phase}.enabled is false`
      : `sleep.phases.${phase}.limit is 0`;
  return { phase, outcome: "skipped", reason, written: [] };
}
