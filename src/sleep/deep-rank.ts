/**
 * The deep phase's ranking (`openclaw-dreaming.md` §7): which recall entries have earned a place in
 * long-term memory. Six components with fixed weights, a boost from the light and REM phases, and
 * gates; deterministic, so the same entries and `now` give the same order. Each candidate keeps its
 * components and every gate's value and threshold, for `lucid sleep explain`.
 *
 * @module
 */

import { judgeInjection } from "../injection/judge-injection.js";
import { conceptTags } from "./concept-tags.js";
import { contaminationOf } from "./contamination.js";
import { isShortTermPath } from "./note-paths.js";
import type { RecallEntry } from "./recall-entry.js";

/** The weights, as OpenClaw fixes them (`PROMOTION_WEIGHTS`); they sum to 1. */
export const PROMOTION_WEIGHTS = Object.freeze({
  frequency: 0.24,
  relevance: 0.3,
  diversity: 0.15,
  recency: 0.15,
  consolidation: 0.1,
  conceptual: 0.06,
});

export type Component = keyof typeof PROMOTION_WEIGHTS;

export interface DeepOptions {
  /** ISO instant the ranking is for. */
  readonly now: string;
  /** Candidates kept. Default 10. */
  readonly limit?: number;
  /** Least score to promote. Default 0.75. */
  readonly minScore?: number;
  /** Least number of signals (recalls, daily and grounded sightings). Default 3. */
  readonly minRecallCount?: number;
  /** Least number of distinct queries people asked. Default 3. */
  readonly minUniqueQueries?: number;
  /** Days in which recency halves. Default 14. */
  readonly recencyHalfLifeDays?: number;
  /** Most days since the last recall; `null` for no limit. Default 30. */
  readonly maxAgeDays?: number | null;
  /** Rank entries promoted before too. Default false. */
  readonly includePromoted?: boolean;
}

/** A phase's signals for one entry: how often the light or REM phase staged it, and when last. */
export interface PhaseSignal {
  readonly hits: number;
  readonly lastAt: string;
}

export interface PhaseSignals {
  readonly light?: PhaseSignal;
  readonly rem?: PhaseSignal;
}

export type GateName = "minRecallCount" | "minUniqueQueries" | "maxAgeDays" | "minScore";

export interface Gate {
  readonly gate: GateName;
  readonly value: number;
  readonly threshold: number;
  readonly passed: boolean;
}

export interface Scored {
  readonly entry: RecallEntry;
  /** The final score, clamped to [0, 1]. */
  readonly score: number;
  /** Before clamping: what `minScore` is compared with. */
  readonly rawScore: number;
  readonly components: Readonly<Record<Component, number>>;
  readonly phaseBoost: number;
  readonly signalCount: number;
  readonly uniqueQueries: number;
  readonly ageDays: number;
  readonly gates: readonly Gate[];
  /** Why the entry is not a candidate at all (before any gate), if it is not. */
  readonly excluded?: "not-short-term" | "contaminated" | "possible-injection" | "promoted" | "no-signals";
}

const DAY_MS = 86_400_000;

/**
 * The judge's verdict on a snippet, remembered: a sweep, `status` and `explain` score every entry,
 * some more than once, and a year of notes holds tens of thousands of them (~0.15 ms a verdict).
 * Bounded, and started afresh when full, so a long-running server does not grow it.
 */
const verdicts = new Map<string, boolean>();
const MAX_VERDICTS = 50_000;

function readsAsInstruction(snippet: string): boolean {
  let verdict = verdicts.get(snippet);
  if (verdict === undefined) {
    if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
    verdict = judgeInjection(snippet).injection;
    verdicts.set(snippet, verdict);
  }
  return verdict;
}
const clamp = (value: number) => (Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0);

/**
 * Every component, gate and exclusion of one entry.
 *
 * @example
 * scoreEntry(entry, { now: "2026-11-20T09:00:00Z" }).gates;
 * // => [{ gate: "minRecallCount", value: 4, threshold: 3, passed: true }, …]
 */
export function scoreEntry(
  entry: RecallEntry,
  options: DeepOptions,
  phase: PhaseSignals = phaseSignalsOf(entry),
): Scored {
  const now = Date.parse(options.now);
  const signalCount = entry.recallCount + entry.dailyCount + entry.groundedCount;
  const uniqueQueries = entry.userQueryHashes.length;
  const ageDays = (now - Date.parse(entry.lastRecalledAt)) / DAY_MS;
  const halfLife = options.recencyHalfLifeDays ?? 14;
  const components: Record<Component, number> = {
    frequency: clamp(Math.log(1 + signalCount) / Math.log(11)),
    relevance: signalCount > 0 ? clamp(entry.totalScore / signalCount) : 0,
    diversity: clamp(uniqueQueries / 5),
    recency: ageDays < 0 || !(halfLife > 0) ? 1 : Math.exp((-Math.LN2 * ageDays) / halfLife),
    consolidation: Math.max(daySpread(entry.recallDays), clamp(entry.groundedCount / 3)),
    conceptual: clamp(conceptTags(entry.path, entry.snippet).length / 6),
  };
  const phaseBoost = clamp(0.06 * phaseWeight(phase.light, now) + 0.09 * phaseWeight(phase.rem, now));
  let rawScore = phaseBoost;
  for (const [name, weight] of Object.entries(PROMOTION_WEIGHTS))
    rawScore += weight * components[name as Component];
  const maxAge = options.maxAgeDays === undefined ? 30 : options.maxAgeDays;
  const gates: Gate[] = [
    gate(
      "minRecallCount",
      signalCount,
      options.minRecallCount ?? 3,
      signalCount >= (options.minRecallCount ?? 3),
    ),
    gate(
      "minUniqueQueries",
      uniqueQueries,
      options.minUniqueQueries ?? 3,
      uniqueQueries >= (options.minUniqueQueries ?? 3),
    ),
    ...(maxAge === null ? [] : [gate("maxAgeDays", ageDays, maxAge, ageDays <= maxAge)]),
    gate("minScore", rawScore, options.minScore ?? 0.75, rawScore >= (options.minScore ?? 0.75)),
  ];
  const excluded = !isShortTermPath(entry.path)
    ? "not-short-term"
    : contaminationOf(entry.snippet) !== undefined
      ? "contaminated"
      : // A note that reads as an instruction to the agent is never made long-term memory.
        readsAsInstruction(entry.snippet)
        ? "possible-injection"
        : entry.promotedAt !== undefined && options.includePromoted !== true
          ? "promoted"
          : signalCount <= 0
            ? "no-signals"
            : undefined;
  return {
    entry,
    score: clamp(rawScore),
    rawScore,
    components,
    phaseBoost,
    signalCount,
    uniqueQueries,
    ageDays,
    gates,
    ...(excluded === undefined ? {} : { excluded }),
  };
}

/**
 * The entries to promote, best first (score, then recalls, then path), at most `limit`: every one
 * a candidate that passes every gate.
 */
export function rankForPromotion(entries: readonly RecallEntry[], options: DeepOptions): Scored[] {
  return entries
    .map((entry) => scoreEntry(entry, options))
    .filter((scored) => scored.excluded === undefined && scored.gates.every((each) => each.passed))
    .sort(
      (a, b) =>
        b.score - a.score ||
        b.entry.recallCount - a.entry.recallCount ||
        (a.entry.path < b.entry.path
          ? -1
          : a.entry.path > b.entry.path
            ? 1
            : a.entry.startLine - b.entry.startLine),
    )
    .slice(0, options.limit ?? 10);
}

/** The light and REM phases' signals an entry carries (a malformed field counts as none). */
export function phaseSignalsOf(entry: RecallEntry): PhaseSignals {
  const signal = (hits: unknown, lastAt: unknown): PhaseSignal | undefined =>
    typeof hits === "number" && hits > 0 && typeof lastAt === "string" && !Number.isNaN(Date.parse(lastAt))
      ? { hits, lastAt }
      : undefined;
  const light = signal(entry.lightHits, entry.lastLightAt);
  const rem = signal(entry.remHits, entry.lastRemAt);
  return { ...(light === undefined ? {} : { light }), ...(rem === undefined ? {} : { rem }) };
}

function gate(name: GateName, value: number, threshold: number, passed: boolean): Gate {
  return { gate: name, value, threshold, passed };
}

/** How spread out the recall days are: none 0, one 0.2, more by their count and span. */
function daySpread(days: readonly string[]): number {
  if (days.length === 0) return 0;
  if (days.length === 1) return 0.2;
  const times = days.map((day) => Date.parse(`${day}T00:00:00Z`)).sort((a, b) => a - b);
  const spanDays = ((times.at(-1) as number) - (times[0] as number)) / DAY_MS;
  return clamp(0.55 * clamp(Math.log(1 + (days.length - 1)) / Math.log(5)) + 0.45 * clamp(spanDays / 7));
}

/** A phase's pull on an entry: the strength of its hits, fading with a half-life of 14 days. */
function phaseWeight(signal: PhaseSignal | undefined, now: number): number {
  if (signal === undefined || signal.hits <= 0) return 0;
  const strength = clamp(Math.log(1 + signal.hits) / Math.log(7));
  const age = Math.max(0, (now - Date.parse(signal.lastAt)) / DAY_MS);
  return strength * Math.exp((-Math.LN2 * age) / 14);
}
