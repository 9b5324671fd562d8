/**
 * The light phase (`openclaw-dreaming.md` §5): what was recalled in the last days is staged — a
 * short list of candidates, each with its confidence and evidence — in a managed `## Light Sleep`
 * block. It never writes `MEMORY.md`; staging only gives the deep phase a small boost for what keeps
 * coming back (a light phase signal).
 *
 * Pure: the sweep reads the entries and writes what this returns.
 *
 * @module
 */

import { contaminationOf } from "./contamination.js";
import { visibleSnippet } from "./promotion-format.js";
import type { RecallEntry } from "./recall-entry.js";
import { MAX_PHASE_HITS } from "./recall-entry.js";
import { inLookback } from "./recall-window.js";
import type { LightPhaseSettings } from "./sleep-config.js";
import { containment, snippetSimilarity } from "./text-similarity.js";

/** A diary entry tells a snippet when it holds this share of the snippet's words. */
const DIARY_COVERAGE = 0.35;
/** Diary entries read for coverage. */
const RECENT_DIARY_ENTRIES = 4;

export interface StagedEntry {
  readonly key: string;
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly snippet: string;
  /** Average score of its signals. */
  readonly confidence: number;
  readonly recalls: number;
  /** Whether the last diary entries already tell it (staged after the rest). */
  readonly covered: boolean;
}

export interface LightInput {
  /** Every recall entry of the workspace. */
  readonly entries: readonly RecallEntry[];
  /** The dreaming day (`YYYY-MM-DD` in the workspace's zone) and its day function. */
  readonly today: string;
  readonly dayOf: (iso: string) => string;
  readonly settings: LightPhaseSettings;
  /** Paths of the notes that exist now. */
  readonly notes: ReadonlySet<string>;
  /** The diary's entries, oldest first (their bodies). */
  readonly diary: readonly string[];
}

/**
 * The entries to stage, in order (§5 steps 2–6): recalled within the lookback, not staged on an
 * earlier day unchanged, their note still there, deduplicated per note, those the diary already
 * tells last, at most `limit`. Entries promoted on an earlier day have done their work and are left
 * out; one promoted today is staged as it was before its promotion, so a second sweep the same day
 * sees what the first saw.
 */
export function selectLightCandidates(input: LightInput): StagedEntry[] {
  const { settings, today, dayOf } = input;
  if (!settings.enabled || settings.limit <= 0) return [];
  const inWindow = (entry: RecallEntry) =>
    inLookback(entry, { today, lookbackDays: settings.lookbackDays, dayOf });
  // Staged on an earlier day, and the claim unchanged since: not news. Staged today: staged again,
  // so a second sweep the same day writes the same block.
  const fresh = (entry: RecallEntry) =>
    entry.lightClaimHash !== entry.claimHash ||
    entry.lastLightAt === undefined ||
    dayOf(entry.lastLightAt) >= today;
  const live = input.entries
    .filter(
      (entry) =>
        (entry.promotedAt === undefined || dayOf(entry.promotedAt) >= today) &&
        input.notes.has(entry.path) &&
        contaminationOf(entry.snippet) === undefined &&
        inWindow(entry) &&
        fresh(entry),
    )
    .sort(
      (a, b) =>
        (a.lastRecalledAt < b.lastRecalledAt ? 1 : a.lastRecalledAt > b.lastRecalledAt ? -1 : 0) ||
        b.recallCount - a.recallCount ||
        (a.key < b.key ? -1 : 1),
    );

  // One claim seen twice in a note is staged once, its evidence merged as OpenClaw merges it: the
  // larger of each count and of the total score.
  const kept: { entry: RecallEntry; recall: number; daily: number; grounded: number; totalScore: number }[] =
    [];
  for (const entry of live) {
    const twin = kept.find(
      (each) =>
        each.entry.path === entry.path &&
        snippetSimilarity(each.entry.snippet, entry.snippet) >= settings.dedupeSimilarity,
    );
    if (twin === undefined) {
      kept.push({
        entry,
        recall: entry.recallCount,
        daily: entry.dailyCount,
        grounded: entry.groundedCount,
        totalScore: entry.totalScore,
      });
      continue;
    }
    twin.recall = Math.max(twin.recall, entry.recallCount);
    twin.daily = Math.max(twin.daily, entry.dailyCount);
    twin.grounded = Math.max(twin.grounded, entry.groundedCount);
    twin.totalScore = Math.max(twin.totalScore, entry.totalScore);
  }

  const recent = input.diary.slice(-RECENT_DIARY_ENTRIES);
  const staged = kept.map(({ entry, recall, daily, grounded, totalScore }) => {
    const signals = recall + daily + grounded;
    const text = entry.snippet.toLowerCase();
    const covered = recent.some(
      (body) => body.toLowerCase().includes(text) || containment(entry.snippet, body) >= DIARY_COVERAGE,
    );
    return {
      key: entry.key,
      path: entry.path,
      startLine: entry.startLine,
      endLine: entry.endLine,
      snippet: entry.snippet,
      confidence: signals > 0 ? Math.min(1, totalScore / signals) : 0,
      recalls: recall,
      covered,
    };
  });
  return [...staged.filter((each) => !each.covered), ...staged.filter((each) => each.covered)].slice(
    0,
    settings.limit,
  );
}

/**
 * The block's body (§5 step 7).
 *
 * @example
 * lightBody([{ snippet: "Moved the deploy to Thursday", confidence: 0.81, path: "memory/2026-11-04.md", startLine: 3, endLine: 3, recalls: 4, … }]);
 * // => "- Candidate: Moved the deploy to Thursday\n  - confidence: 0.81\n  - evidence: memory/2026-11-04.md:3-3\n  - recalls: 4\n  - status: staged"
 */
export function lightBody(staged: readonly StagedEntry[]): string {
  if (staged.length === 0) return "- No notable updates.";
  return staged
    .map((entry) =>
      [
        `- Candidate: ${visibleSnippet(entry.snippet)}`,
        `  - confidence: ${entry.confidence.toFixed(2)}`,
        `  - evidence: ${entry.path}:${entry.startLine}-${entry.endLine}`,
        `  - recalls: ${entry.recalls}`,
        "  - status: staged",
      ].join("\n"),
    )
    .join("\n");
}

/**
 * The entry with the light phase's signal for this sweep (§5 step 9), or undefined when it already
 * has it today: a second sweep the same day changes nothing.
 */
export function withLightSignal(
  entry: RecallEntry,
  now: string,
  dayOf: (iso: string) => string,
): RecallEntry | undefined {
  if (entry.lastLightAt !== undefined && dayOf(entry.lastLightAt) === dayOf(now)) return undefined;
  return {
    ...entry,
    lightHits: Math.min(MAX_PHASE_HITS, (entry.lightHits ?? 0) + 1),
    lastLightAt: now,
    lightClaimHash: entry.claimHash,
  };
}
