/**
 * One recall entry and how a hit updates it (`openclaw-dreaming.md` §4, "Entry shape" and "Per-hit
 * update"): the evidence of use the deep phase ranks — how often a range of a daily note was
 * returned, for how many distinct queries, on how many days, with what scores.
 *
 * Pure: the store keeps entries, this computes the next one.
 *
 * @module
 */

import { type Contamination, contaminationOf } from "./contamination.js";
import { claimHash, queryHash, recallKey, storedSnippet } from "./recall-keys.js";

/** `recall`: a search returned it; `daily`: the light phase read it from the day's note; `grounded`: a backfill. */
export type SignalType = "recall" | "daily" | "grounded";

/** Distinct query hashes kept per entry, the most recent. */
export const MAX_QUERY_HASHES = 32;
/** Distinct recall days kept per entry, the most recent. */
export const MAX_RECALL_DAYS = 16;

export interface RecallEntry {
  readonly key: string;
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly source: "memory";
  /** The latest text of the range, as stored (`storedSnippet`). */
  readonly snippet: string;
  readonly claimHash: string;
  readonly recallCount: number;
  readonly dailyCount: number;
  readonly groundedCount: number;
  readonly totalScore: number;
  readonly maxScore: number;
  readonly firstRecalledAt: string;
  readonly lastRecalledAt: string;
  /** Every signal's query, hashed. */
  readonly queryHashes: readonly string[];
  /** Only the queries people (or agents) asked: `recall` signals. */
  readonly userQueryHashes: readonly string[];
  /** `YYYY-MM-DD` days the range was recalled on. */
  readonly recallDays: readonly string[];
  readonly promotedAt?: string;
  /** Phase signals (§5 step 9, §6 step 8): sweeps whose light phase staged it (once a day at most), when last. */
  readonly lightHits?: number;
  readonly lastLightAt?: string;
  /** The claim the light phase staged: an entry staged before and unchanged since is not staged again. */
  readonly lightClaimHash?: string;
  /** Sweeps whose REM phase named it a possible lasting truth, and when last. */
  readonly remHits?: number;
  readonly lastRemAt?: string;
}

/** Phase signals stop counting here, as OpenClaw's do. */
export const MAX_PHASE_HITS = 9999;

/** A range of a note that a signal names. */
export interface RecallHit {
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly snippet: string;
  /** The raw score of the hit, 0–1. */
  readonly score: number;
}

export interface Signal {
  readonly type: SignalType;
  readonly query: string;
  /** When it happened (ISO). */
  readonly at: string;
  /** The day it counts for (`YYYY-MM-DD` in the workspace's time zone). */
  readonly day: string;
  /** A query seen on this day already counts nothing again (session ingestion). */
  readonly dedupeByQueryPerDay?: boolean;
  /** For `grounded` signals: how many sightings this one stands for. Default 1. */
  readonly count?: number;
}

export type RecallUpdate =
  | { readonly recorded: true; readonly entry: RecallEntry }
  | { readonly recorded: false; readonly reason: Contamination };

/**
 * The entry after `hit` (undefined `entry`: the first sighting). A contaminated snippet is never
 * stored: the update says why instead.
 *
 * @example
 * const first = applyHit(undefined, { path: "memory/2026-11-04.md", startLine: 3, endLine: 3, snippet: "Book the ryokan", score: 0.9 },
 *   { type: "recall", query: "where do we stay in Kyoto?", at: "2026-11-05T09:00:00Z", day: "2026-11-05" });
 * // => { recorded: true, entry: { recallCount: 1, totalScore: 0.9, queryHashes: ["…"], recallDays: ["2026-11-05"], … } }
 */
export function applyHit(entry: RecallEntry | undefined, hit: RecallHit, signal: Signal): RecallUpdate {
  const contamination = contaminationOf(hit.snippet);
  if (contamination !== undefined) return { recorded: false, reason: contamination };
  const hash = queryHash(signal.query);
  const dedupe =
    signal.dedupeByQueryPerDay === true &&
    entry !== undefined &&
    entry.queryHashes.includes(hash) &&
    entry.recallDays.includes(signal.day);
  const count = signal.type === "grounded" ? Math.max(1, signal.count ?? 1) : 1;
  const counted = dedupe ? 0 : count;
  const score = Math.min(Math.max(hit.score, 0), 1);
  const snippet = storedSnippet(hit.snippet);
  const before = entry ?? firstEntry(hit, snippet, signal.at);
  // The daily ingestion reading a note is not a use of it: it never moves when the range was last
  // recalled, or a sighting would make a month-old recall look fresh to the deep phase's recency.
  // (OpenClaw moves it on a range's first daily sighting; its newer code stops on repeats.)
  const unchangedDaily = signal.type === "daily" && entry !== undefined;
  return {
    recorded: true,
    entry: {
      ...before,
      snippet,
      claimHash: claimHash(snippet),
      recallCount: before.recallCount + (signal.type === "recall" ? counted : 0),
      dailyCount: before.dailyCount + (signal.type === "daily" ? counted : 0),
      groundedCount: before.groundedCount + (signal.type === "grounded" ? counted : 0),
      totalScore: before.totalScore + score * counted,
      maxScore: Math.max(before.maxScore, score),
      // A deduplicated repeat changes nothing about when the range was last of use.
      lastRecalledAt:
        dedupe || unchangedDaily || signal.at < before.lastRecalledAt ? before.lastRecalledAt : signal.at,
      queryHashes: mostRecent(before.queryHashes, hash, MAX_QUERY_HASHES),
      userQueryHashes:
        signal.type === "recall"
          ? mostRecent(before.userQueryHashes, hash, MAX_QUERY_HASHES)
          : before.userQueryHashes,
      recallDays: mostRecent(before.recallDays, signal.day, MAX_RECALL_DAYS),
    },
  };
}

function firstEntry(hit: RecallHit, snippet: string, at: string): RecallEntry {
  return {
    key: recallKey(hit.path, hit.startLine, hit.endLine),
    path: hit.path,
    startLine: hit.startLine,
    endLine: hit.endLine,
    source: "memory",
    snippet,
    claimHash: claimHash(snippet),
    recallCount: 0,
    dailyCount: 0,
    groundedCount: 0,
    totalScore: 0,
    maxScore: 0,
    firstRecalledAt: at,
    lastRecalledAt: at,
    queryHashes: [],
    userQueryHashes: [],
    recallDays: [],
  };
}

/** `list` with `value` moved (or added) to its end, keeping the last `cap` distinct values. */
function mostRecent(list: readonly string[], value: string, cap: number): string[] {
  return [...list.filter((item) => item !== value), value].slice(-cap);
}
