/**
 * Fusion: one relevance score from the signals of hybrid retrieval.
 *
 * Starting point is Mem0's normalised sum (specs/mem0.md §C.4):
 *
 *   semantic = clamp(cosine, 0, 1)
 *   bm25     = 1 / (1 + e^(-steepness · (raw − midpoint)))        (0 when no query word matched)
 *              where raw is BM25 over the memory's window: its text and, when it came from a
 *              conversation, the texts just before and after it
 *   entity   = 0.5 / (1 + 0.001 · (links − 1)²)                   (max over shared entities)
 *
 * to which Lucid adds what a memory from a conversation knows (README, "search"):
 *
 *   speaker  = 1 when the memory was said by a person the query names
 *   date     = 1 when the memory's time falls in a month, year or day the query names
 *   time     = 1 when the query asks when / how long and the memory states a time
 *
 * Each signal has a weight; the base score is the weighted sum over the weights of the signals
 * this query could produce (so a query without names or dates is scored as if they did not exist,
 * and scores stay in [0, 1]). A memory in a thread then takes a share of its thread's best base
 * score among the candidates — many similar turns of one good session beat one stray turn:
 *
 *   base  = Σ wᵢ · signalᵢ / Σ_{i active} wᵢ · maxᵢ      (maxᵢ: 0.5 for entity, else 1)
 *   final = (1 − λ) · base + λ · max(base over the memory's thread's candidates)
 *
 * Every candidate gets its semantic score, including those found only by keyword or entity (Mem0
 * never ranks those at all — its issue #5742). The weights were chosen by leave-one-conversation-out
 * cross-validation on LoCoMo (`npm run bench:locomo -- --tune`, BENCHMARKS.md).
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

export const SIGNAL_NAMES = ["semantic", "bm25", "entity", "speaker", "date", "time"] as const;
export type SignalName = (typeof SIGNAL_NAMES)[number];

export type Signals = Readonly<Record<SignalName, number>>;

export interface FusionWeights extends Readonly<Record<SignalName, number>> {
  /** λ: the share of a memory's score that comes from its thread's best candidate. */
  readonly thread: number;
}

/**
 * The shipped weights (see the module comment). `entity` keeps Mem0's scale: the boost itself is
 * at most 0.5, so a weight of 1 adds at most 0.5 to the sum, as in Mem0.
 */
export const FUSION_WEIGHTS: FusionWeights = Object.freeze({
  semantic: 1,
  bm25: 0.5,
  entity: 1,
  speaker: 0.3,
  date: 0.3,
  time: 0.2,
  thread: 0.3,
});

/** Which signals this query could produce: only those count in the denominator. */
export type ActiveSignals = Readonly<Record<SignalName, boolean>>;

export interface FusedScore {
  /** The weighted sum of the signals. */
  readonly raw: number;
  /** The weighted sum a memory perfect on every active signal would reach. */
  readonly maxPossible: number;
  /** raw / maxPossible: the score before the thread's share. */
  readonly base: number;
  /** The score results are ordered and thresholded by. */
  readonly final: number;
}

/** The maximum each signal reaches: the entity boost is at most 0.5, every other signal 1. */
const SIGNAL_MAX: Readonly<Record<SignalName, number>> = {
  semantic: 1,
  bm25: 1,
  entity: ENTITY_BOOST_WEIGHT,
  speaker: 1,
  date: 1,
  time: 1,
};

export function maxPossibleScore(active: ActiveSignals, weights: FusionWeights): number {
  let total = 0;
  for (const name of SIGNAL_NAMES) if (active[name]) total += weights[name] * SIGNAL_MAX[name];
  return total;
}

/** The weighted sum of one memory's signals (inactive signals are 0 by construction). */
export function rawScore(signals: Signals, weights: FusionWeights): number {
  let total = 0;
  for (const name of SIGNAL_NAMES) total += weights[name] * signals[name];
  return total;
}
