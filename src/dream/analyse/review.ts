/**
 * The review tier: pairs the engine is not sure of, for a person to decide. Two kinds:
 *
 * - **possible conflict**: neighbours that may disagree, and not already a conflict — the same
 *   statement with another value where each has words of its own ("The shop's oven is a Unox" /
 *   "The bakery's oven is a Rational": `similarity/value-conflict.ts`); one stating a change the
 *   other does not, worded too differently to be sure ("We sold the Skoda and switched to a
 *   Toyota" / "The family drives a Skoda Octavia"); or worded alike and refused as a merge only for
 *   a value on each side ("Render" / "AWS"), a swapped place ("works remotely" / "works from the
 *   office") or a stated change. Accepting adds the conflict, the newer suggested.
 * - **possible duplicate**: very close in meaning (similarity ≥ {@link STRONG_SIMILARITY}), nothing
 *   telling them apart, but worded too differently for the duplicate analyser to be sure ("Releases
 *   go out on Tuesdays" / "The release train leaves every Tuesday"). Accepting adds the merge.
 *
 * Candidates are vector neighbours, as for duplicates, never all pairs. Pure; `planDream` drops the
 * items whose memories an action already took.
 *
 * @module
 */

import type { Policy } from "../../policy/policy.js";
import type { ConflictAction, MergeAction, ReviewItem } from "../plan.js";
import type { DreamSnapshot, SnapshotMemory } from "../snapshot.js";
import { suggestedWinner, suggestionReason } from "./contradictions.js";
import { categoriesCompatible } from "./duplicates.js";
import {
  comparePair,
  lexicalOverlap,
  MIN_OVERLAP,
  MIN_SHARED_TERMS,
  type RefusalReason,
} from "./similarity/compare.js";
import { type MemoryFeatures, snapshotFeatures, snapshotTermWeights } from "./similarity/features.js";
import { composeMerge } from "./similarity/merge-text.js";
import { valueConflict } from "./similarity/value-conflict.js";

/**
 * From this cosine two memories with nothing telling them apart are worth asking about. Measured
 * with MiniLM, the default model, on our corpus and the development one: restatements the
 * duplicates analyser cannot confirm from their words sit at 0.6–0.9, near misses with nothing
 * read as telling them apart mostly under 0.6. Lowered from 0.65 on the development corpus, where it
 * surfaces 0.76 of the duplicates instead of 0.70 with review precision 0.92; below 0.6 nothing more
 * comes.
 */
export const STRONG_SIMILARITY = 0.6;
/** Refusals that mean "may disagree", as against "two facts in two contexts". */
const DISAGREEING: ReadonlySet<RefusalReason> = new Set(["value", "change", "substitution", "state"]);

/**
 * @example
 * reviewCandidates(snapshot, policy);
 * // => [{ kind: "possible-conflict", proposal: { kind: "conflict", ids: ["m3", "m4"], … }, why: … }]
 */
export function reviewCandidates(snapshot: DreamSnapshot, policy: Policy): ReviewItem[] {
  const featuresOf = snapshotFeatures(snapshot);
  const weight = snapshotTermWeights(snapshot);
  // Possible conflicts are looked for as far as the contradiction analyser looks, possible
  // duplicates as far as the duplicates analyser does (`judge` checks each against its own).
  const minSimilarity = Math.min(policy.duplicates.minSimilarity, policy.contradictions.minSimilarity);
  const k = Math.max(policy.duplicates.neighbours, policy.contradictions.neighbours);
  const items = new Map<string, ReviewItem & { similarity: number }>();
  for (const memory of snapshot.memories) {
    const a = featuresOf(memory.id);
    if (a === undefined) continue;
    for (const neighbour of snapshot.neighbours(memory.id, k)) {
      if (neighbour.similarity < minSimilarity) break;
      const b = featuresOf(neighbour.id);
      const key =
        memory.id < neighbour.id ? `${memory.id}\u0000${neighbour.id}` : `${neighbour.id}\u0000${memory.id}`;
      if (b === undefined || items.has(key)) continue;
      const item = judge(a, b, neighbour.similarity, weight, policy);
      if (item !== undefined) items.set(key, { ...item, similarity: neighbour.similarity });
    }
  }
  // Most similar first, then by ids: each memory then goes to its strongest pair.
  const ranked = [...items.entries()].sort(
    ([x, i], [y, j]) => j.similarity - i.similarity || (x < y ? -1 : x > y ? 1 : 0),
  );
  const taken = new Set<string>();
  const chosen: ReviewItem[] = [];
  for (const [, { similarity: _similarity, ...item }] of ranked) {
    if (item.proposal.ids.some((id) => taken.has(id))) continue;
    for (const id of item.proposal.ids) taken.add(id);
    chosen.push(item);
  }
  return chosen;
}

function judge(
  a: MemoryFeatures,
  b: MemoryFeatures,
  similarity: number,
  weight: (term: string) => number,
  policy: Policy,
): ReviewItem | undefined {
  const { overlap, shared } = lexicalOverlap(a, b, weight);
  const rounded = Math.round(similarity * 1000) / 1000;
  const evidence = { similarity: rounded, overlap: Math.round(overlap * 1000) / 1000 };
  if (shared.length === 0) return undefined;
  const worthAConflict = similarity >= policy.contradictions.minSimilarity;
  // The same statement with another value, not sure enough for the contradiction analyser.
  const valueSlot = valueConflict(a, b, weight);
  if (worthAConflict && valueSlot !== undefined && !valueSlot.sure) {
    const own = [...valueSlot.onlyA, ...valueSlot.onlyB];
    return {
      kind: "possible-conflict",
      proposal: conflictOf(a.memory, b.memory, valueSlot.values),
      why: {
        rule: "review",
        detail: `the same statement (${valueSlot.frame.join(" ")}) with another value: ${valueSlot.values}${own.length > 0 ? `; words of their own: ${own.join(", ")}` : ""}`,
        evidence: { ...evidence, values: valueSlot.values, frame: valueSlot.frame, ownWords: own },
      },
    };
  }
  // One says the fact changed, worded too differently for the contradiction analyser to be sure.
  const changed = worthAConflict ? lookAlikeChange(a, b, shared) : undefined;
  if (changed !== undefined) {
    return {
      kind: "possible-conflict",
      proposal: conflictOf(a.memory, b.memory, shared.join(" ")),
      why: {
        rule: "review",
        detail: `close in meaning (${rounded}), and "${changed}" says one of them changed: does it replace the other?`,
        evidence: { ...evidence, change: changed, sharedTerms: shared },
      },
    };
  }
  // A possible conflict is worded alike (the overlap a merge needs); a possible duplicate is very
  // close in meaning. Neither: not worth the full comparison, which runs the tagger.
  const wordedAlike = overlap >= MIN_OVERLAP && shared.length >= MIN_SHARED_TERMS;
  if (similarity < policy.duplicates.minSimilarity) return undefined;
  if (!wordedAlike && similarity < STRONG_SIMILARITY) return undefined;
  const comparison = comparePair(a, b, weight);
  const reasons = comparison.refusals.map((refusal) => refusal.reason);
  if (reasons.length > 0) {
    if (!reasons.some((reason) => DISAGREEING.has(reason))) return undefined;
    if (!reasons.every((reason) => DISAGREEING.has(reason) || reason === "name")) return undefined;
    if (!wordedAlike) return undefined;
    const differs = comparison.refusals.map((refusal) => `${refusal.reason}: ${refusal.detail}`);
    return {
      kind: "possible-conflict",
      // The topic is what differs ("render ≠ aws", "remotely → from the office"): the texts are shown beside it.
      proposal: conflictOf(a.memory, b.memory, comparison.refusals[0]?.detail ?? shared.join(" ")),
      why: {
        rule: "review",
        detail: `close in meaning (${rounded}) and worded alike, but they may disagree — ${differs.join("; ")}`,
        evidence: { ...evidence, refusals: differs },
      },
    };
  }
  if (comparison.agrees || similarity < STRONG_SIMILARITY) return undefined;
  if (
    !categoriesCompatible(a.memory, b.memory) ||
    !mergeable(a.memory, policy) ||
    !mergeable(b.memory, policy)
  )
    return undefined;
  return {
    kind: "possible-duplicate",
    proposal: mergeOf(a, b, rounded),
    why: {
      rule: "review",
      detail: `very close in meaning (${rounded}) with nothing telling them apart, but worded differently (content-word overlap ${Math.round(overlap * 100) / 100})`,
      evidence: { ...evidence, sharedTerms: shared },
    },
  };
}

/**
 * The change cue when exactly one of two neighbours states a change and they share a word beyond
 * the user ("We sold the Skoda and switched to a Toyota" / "The family drives a Skoda Octavia").
 */
function lookAlikeChange(
  a: MemoryFeatures,
  b: MemoryFeatures,
  shared: readonly string[],
): string | undefined {
  const strong = (features: MemoryFeatures) =>
    features.change === undefined || features.change === "started" ? undefined : features.change;
  const changeA = strong(a);
  const changeB = strong(b);
  if ((changeA === undefined) === (changeB === undefined)) return undefined;
  return shared.some((term) => term !== "user") ? (changeA ?? changeB) : undefined;
}

/** What the duplicates analyser would merge at all: never a pinned memory or an immutable category. */
function mergeable(memory: SnapshotMemory, policy: Policy): boolean {
  return !memory.pinned && policy.categories[memory.category ?? ""]?.immutable !== true;
}

function conflictOf(a: SnapshotMemory, b: SnapshotMemory, topic: string): ConflictAction {
  const ids = (a.id < b.id ? [a.id, b.id] : [b.id, a.id]) as [string, string];
  const winner = suggestedWinner(a, b);
  return {
    kind: "conflict",
    ids,
    topic,
    suggested: winner.id,
    why: { rule: "review", detail: suggestionReason(winner, winner === a ? b : a) },
  };
}

function mergeOf(a: MemoryFeatures, b: MemoryFeatures, similarity: number): MergeAction {
  const { base, text } = composeMerge([a, b]);
  const other = base === a ? b : a;
  return {
    kind: "merge",
    ids: [base.memory.id, other.memory.id],
    keep: base.memory.id,
    text,
    why: { rule: "review", detail: `accepted as one fact (similarity ${similarity})` },
  };
}
