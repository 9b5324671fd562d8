/**
 * Fusion: one relevance score from the dense, keyword and entity signals.
 *
 * Starting point is Mem0's normalised sum (specs/mem0.md §C.4):
 *
 *   semantic = clamp(cosine, 0, 1)
 *   bm25     = 1 / (1 + e^(-steepness · (raw − midpoint)))        (0 when no query word matched)
 *   entity   = 0.5 / (1 + 0.001 · (links − 1)²)                   (max over shared entities)
 *   score    = (semantic + bm25 + entity) / maxPossible,
 *   maxPossible = [dense used] + [any bm25 hit] + 0.5·[any entity hit]
 *
 * with one change: every candidate gets its semantic score, including those found only by keyword
 * or entity (Mem0 never ranks those at all — its issue #5742).
 *
 * @module
 */

/** Mem0's BM25 sigmoid parameters by query length in terms (`getBm25Params`). */
export function bm25Params(termCount: number): { midpoint: number; steepness: number } {
  if (termCount <= 3) return { midpoint: 5, steepness: 0.7 };
  if (termCount <= 6) return { midpoint: 7, steepness: 0.6 };
  if (termCount <= 9) return { midpoint: 9, steepness: 0.5 };
  if (termCount <= 15) return { midpoint: 10, steepness: 0.5 };
  return { midpoint: 12, steepness: 0.5 };
}

export function normaliseBm25(raw: number, termCount: number): number {
  if (raw <= 0) return 0;
  const { midpoint, steepness } = bm25Params(termCount);
  return 1 / (1 + Math.exp(-steepness * (raw - midpoint)));
}

/** Mem0's ENTITY_BOOST_WEIGHT, damped for entities linked to many memories (they say less). */
export const ENTITY_BOOST_WEIGHT = 0.5;

export function entityBoost(linkCount: number): number {
  return ENTITY_BOOST_WEIGHT / (1 + 0.001 * (linkCount - 1) ** 2);
}

export interface Signals {
  readonly semantic: number;
  readonly bm25: number;
  readonly entity: number;
}

export interface FusedScore {
  readonly raw: number;
  readonly maxPossible: number;
  readonly final: number;
}

export interface QuerySignals {
  /** The dense signal took part (false in keyword-only mode). */
  readonly dense: boolean;
  /** The query produced any keyword / entity hit (decided per query, as Mem0 does). */
  readonly anyKeyword: boolean;
  readonly anyEntity: boolean;
}

export function fuse(signals: Signals, query: QuerySignals): FusedScore {
  const semantic = Math.min(Math.max(signals.semantic, 0), 1);
  const raw = semantic + signals.bm25 + signals.entity;
  const maxPossible =
    (query.dense ? 1 : 0) + (query.anyKeyword ? 1 : 0) + (query.anyEntity ? ENTITY_BOOST_WEIGHT : 0);
  return { raw, maxPossible, final: maxPossible === 0 ? 0 : Math.min(raw / maxPossible, 1) };
}
