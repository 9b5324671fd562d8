/**
 * Ranking: merge the candidate lists of the three generators and order them by fused score.
 * Pure; the memory service fetches the candidates.
 *
 * @module
 */

import type { DenseHit, EntityHit, KeywordHit } from "../store/ports/search.js";
import { entityBoost, type FusedScore, fuse, normaliseBm25, type Signals } from "./fuse.js";

export type Generator = "dense" | "keyword" | "entity";

export interface RankedCandidate {
  readonly id: string;
  readonly signals: Signals;
  readonly score: FusedScore;
  readonly matchedBy: Generator[];
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
}

/** Ids found by keyword or entity but not by the dense generator: their similarity must be fetched. */
export function idsMissingSimilarity(candidates: Pick<Candidates, "dense" | "keyword" | "entity">): string[] {
  const dense = new Set(candidates.dense.map((hit) => hit.id));
  const missing = new Set<string>();
  for (const hit of [...candidates.keyword, ...candidates.entity])
    if (!dense.has(hit.id)) missing.add(hit.id);
  return [...missing];
}

/**
 * The keyword- and entity-only candidates whose similarity is worth fetching: those that could
 * still reach the top K. Scored with a similarity of 0 every candidate's score is a lower bound, so
 * the K-th best of those bounds is a floor the top K never falls under; a candidate not returned by
 * a full dense pool is no more similar than that pool's last member, which bounds it from above.
 * Exact: skipping the others cannot change the results (it saves a vector read per candidate).
 */
export function idsWorthScoring(
  candidates: Omit<Candidates, "extraSimilarity">,
  topK: number,
  pool: number,
): string[] {
  const missing = idsMissingSimilarity(candidates);
  if (missing.length === 0) return [];
  const lowerBounds = rankCandidates({ ...candidates, extraSimilarity: new Map() });
  const floor = lowerBounds[topK - 1]?.score.final ?? Number.NEGATIVE_INFINITY;
  const ceiling = candidates.dense.length >= pool ? Math.max(0, candidates.dense.at(-1)?.similarity ?? 0) : 1;
  const byId = new Map(lowerBounds.map((candidate) => [candidate.id, candidate]));
  return missing.filter((id) => {
    const candidate = byId.get(id);
    if (candidate === undefined) return false;
    const best = (candidate.score.raw + ceiling) / candidate.score.maxPossible;
    return best >= floor;
  });
}

/** Best first; ties broken by id so results are stable. */
export function rankCandidates(candidates: Candidates): RankedCandidate[] {
  const byId = new Map<string, { semantic: number; bm25: number; entity: number; matchedBy: Generator[] }>();
  const entry = (id: string) => {
    let found = byId.get(id);
    if (found === undefined) {
      found = { semantic: candidates.extraSimilarity.get(id) ?? 0, bm25: 0, entity: 0, matchedBy: [] };
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
  const query = {
    dense: candidates.denseUsed,
    anyKeyword: candidates.keyword.length > 0,
    anyEntity: candidates.entity.length > 0,
  };
  const ranked = [...byId.entries()].map(([id, found]) => {
    const signals = { semantic: Math.max(0, found.semantic), bm25: found.bm25, entity: found.entity };
    return { id, signals, score: fuse(signals, query), matchedBy: found.matchedBy };
  });
  return ranked.sort((a, b) => b.score.final - a.score.final || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
