/**
 * Ranking: merge the candidate lists of the generators, give every candidate all its signals, and
 * order them by fused score (`fuse.ts`). Pure; the memory service fetches the candidates.
 *
 * @module
 */

import type { DenseHit, EntityHit, KeywordHit } from "../store/ports/search.js";
import {
  type ActiveSignals,
  entityBoost,
  FUSION_WEIGHTS,
  type FusedScore,
  type FusionWeights,
  maxPossibleScore,
  normaliseBm25,
  rawScore,
  type Signals,
} from "./fuse.js";

export type Generator = "dense" | "keyword" | "entity";

export interface RankedCandidate {
  readonly id: string;
  readonly signals: Signals;
  readonly score: FusedScore;
  readonly matchedBy: Generator[];
  /** The thread whose best candidate lent this one its share, when it has one. */
  readonly thread?: string;
}

/** What the query asks that only some memories answer (decided once per query). */
export interface QueryFacts {
  /** The query names a speaker of the scope. */
  readonly speakers: boolean;
  /** The query names a month, year or day. */
  readonly dates: boolean;
  /** The query asks when, or for how long. */
  readonly timeQuestion: boolean;
}

/** What a candidate memory is, as far as the priors care. */
export interface CandidateFacts {
  readonly thread?: string;
  /** Said by a speaker the query names. */
  readonly speaker: boolean;
  /** Its time falls in a month, year or day the query names. */
  readonly date: boolean;
  /** Its text states a time. */
  readonly time: boolean;
}

export interface Candidates {
  readonly dense: readonly DenseHit[];
  readonly keyword: readonly KeywordHit[];
  readonly entity: readonly EntityHit[];
  /** Similarities of candidates the dense generator did not return (found by keyword or entity). */
  readonly extraSimilarity: ReadonlyMap<string, number>;
  /** Query terms, which set the BM25 sigmoid's shape. */
  readonly termCount: number;
  /** Whether the dense signal took part (false in keyword-only mode). */
  readonly denseUsed: boolean;
  readonly query?: QueryFacts;
  /** Per candidate id; a candidate without an entry has no thread and no prior. */
  readonly facts?: ReadonlyMap<string, CandidateFacts>;
}

const NO_QUERY_FACTS: QueryFacts = { speakers: false, dates: false, timeQuestion: false };

/** Ids found by another generator but not by the dense one: their similarity must be fetched. */
export function idsMissingSimilarity(candidates: Pick<Candidates, "dense" | "keyword" | "entity">): string[] {
  const dense = new Set(candidates.dense.map((hit) => hit.id));
  const missing = new Set<string>();
  for (const hit of [...candidates.keyword, ...candidates.entity])
    if (!dense.has(hit.id)) missing.add(hit.id);
  return [...missing];
}

/**
 * The candidates without a similarity that are worth fetching one for: those that could still reach
 * the top K. Scored with a similarity of 0 every candidate's score is a lower bound (scores only grow
 * with a signal), so the K-th best of those bounds is a floor the top K never falls under; a
 * candidate not returned by a full dense pool is no more similar than that pool's last member, which
 * bounds it from above. A threaded candidate's similarity can also lift its thread's other
 * members, so it is skipped only when even its best base cannot beat what its thread already has
 * for certain (the best lower bound among the thread's members): then the thread's share is the
 * same with or without it. Exact: skipping the others cannot change the results.
 */
export function idsWorthScoring(
  candidates: Omit<Candidates, "extraSimilarity">,
  topK: number,
  pool: number,
  weights: FusionWeights = FUSION_WEIGHTS,
): string[] {
  const missing = idsMissingSimilarity(candidates);
  if (missing.length === 0) return [];
  const lowerBounds = rankCandidates({ ...candidates, extraSimilarity: new Map() }, weights);
  const floor = lowerBounds[topK - 1]?.score.final ?? Number.NEGATIVE_INFINITY;
  const ceiling = candidates.dense.length >= pool ? Math.max(0, candidates.dense.at(-1)?.similarity ?? 0) : 1;
  const byId = new Map(lowerBounds.map((candidate) => [candidate.id, candidate]));
  const threadFloor = new Map<string, number>();
  for (const candidate of lowerBounds) {
    if (candidate.thread === undefined) continue;
    threadFloor.set(candidate.thread, Math.max(threadFloor.get(candidate.thread) ?? 0, candidate.score.base));
  }
  return missing.filter((id) => {
    const candidate = byId.get(id);
    if (candidate === undefined) return false;
    const { raw, maxPossible } = candidate.score;
    const bestBase = maxPossible === 0 ? 0 : Math.min((raw + weights.semantic * ceiling) / maxPossible, 1);
    if (candidate.thread === undefined) return bestBase >= floor;
    const known = threadFloor.get(candidate.thread) ?? 0;
    if (bestBase > known) return true;
    return (1 - weights.thread) * bestBase + weights.thread * known >= floor;
  });
}

interface Entry {
  semantic: number;
  bm25: number;
  entity: number;
  matchedBy: Generator[];
}

/** Best first; ties broken by id so results are stable. */
export function rankCandidates(
  candidates: Candidates,
  weights: FusionWeights = FUSION_WEIGHTS,
): RankedCandidate[] {
  const byId = new Map<string, Entry>();
  const entry = (id: string) => {
    let found = byId.get(id);
    if (found === undefined) {
      const semantic = candidates.extraSimilarity.get(id) ?? 0;
      found = { semantic, bm25: 0, entity: 0, matchedBy: [] };
      byId.set(id, found);
    }
    return found;
  };
  for (const hit of candidates.dense) {
    const found = entry(hit.id);
    found.semantic = hit.similarity;
    found.matchedBy.push("dense");
  }
  for (const hit of candidates.keyword) {
    const found = entry(hit.id);
    found.bm25 = normaliseBm25(hit.bm25, candidates.termCount);
    found.matchedBy.push("keyword");
  }
  for (const hit of candidates.entity) {
    const found = entry(hit.id);
    found.entity = Math.max(found.entity, entityBoost(hit.linkCount));
    if (!found.matchedBy.includes("entity")) found.matchedBy.push("entity");
  }
  const query = candidates.query ?? NO_QUERY_FACTS;
  const active: ActiveSignals = {
    semantic: candidates.denseUsed,
    bm25: candidates.keyword.length > 0,
    entity: candidates.entity.length > 0,
    speaker: query.speakers,
    date: query.dates,
    time: query.timeQuestion,
  };
  const entries = [...byId.entries()].map(([id, found]): ScoredEntry => {
    const facts = candidates.facts?.get(id);
    const signals: Signals = {
      semantic: candidates.denseUsed ? Math.min(Math.max(found.semantic, 0), 1) : 0,
      bm25: found.bm25,
      entity: found.entity,
      speaker: active.speaker && facts?.speaker === true ? 1 : 0,
      date: active.date && facts?.date === true ? 1 : 0,
      time: active.time && facts?.time === true ? 1 : 0,
    };
    return { id, signals, matchedBy: found.matchedBy, ...(facts?.thread ? { thread: facts.thread } : {}) };
  });
  return fuseEntries(entries, active, weights);
}

/** One candidate with every signal known: what fusion needs, and what `--explain` shows. */
export interface ScoredEntry {
  readonly id: string;
  readonly signals: Signals;
  readonly matchedBy: Generator[];
  readonly thread?: string;
}

/**
 * Fusion proper (`fuse.ts`): the base score of each entry, then its thread's share, best first
 * with ties broken by id. Separate from candidate merging so the benchmark's weight search scores
 * exactly as search does.
 */
export function fuseEntries(
  entries: readonly ScoredEntry[],
  active: ActiveSignals,
  weights: FusionWeights = FUSION_WEIGHTS,
): RankedCandidate[] {
  const maxPossible = maxPossibleScore(active, weights);
  // Plain loops and one object per candidate: search runs this twice per query over a few hundred.
  const raws = new Float64Array(entries.length);
  const bases = new Float64Array(entries.length);
  const threadBest = new Map<string, number>();
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as ScoredEntry;
    const raw = rawScore(entry.signals, weights);
    const base = maxPossible === 0 ? 0 : Math.min(raw / maxPossible, 1);
    raws[i] = raw;
    bases[i] = base;
    if (entry.thread !== undefined && base > (threadBest.get(entry.thread) ?? -1))
      threadBest.set(entry.thread, base);
  }
  const ranked: RankedCandidate[] = new Array(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const { id, signals, matchedBy, thread } = entries[i] as ScoredEntry;
    const base = bases[i] as number;
    const best = thread === undefined ? base : (threadBest.get(thread) ?? base);
    const final = (1 - weights.thread) * base + weights.thread * best;
    const raw = raws[i] as number;
    ranked[i] =
      thread === undefined
        ? { id, signals, score: { raw, maxPossible, base, final }, matchedBy }
        : { id, signals, score: { raw, maxPossible, base, final }, matchedBy, thread };
  }
  return ranked.sort((a, b) => b.score.final - a.score.final || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
