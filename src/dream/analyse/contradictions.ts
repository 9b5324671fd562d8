/**
 * Contradictions: two memories that give one subject's single-valued attribute incompatible values
 * ("billing-api deploys to Fly.io" / "billing-api deploys to AWS"), or that affirm and deny the
 * same statement. Proposed as conflicts for the user to resolve, with a suggested winner.
 *
 * Candidates come from three places, never from all pairs, and never from two owners (full stored
 * scopes): an index of claims by (owner, attribute, subject, environments) for the templated
 * attributes (`similarity/claim-rules.ts`); the vector neighbours (`policy.contradictions`) of
 * each negated memory, for opposed statements; and the vector neighbours of every memory, for two
 * look-alikes one of which says the fact changed ("Alice uses Neovim" / "Alice switched to VS
 * Code", "The default branch is master" / "…is now main": `slotDisagreement`), however the sentence
 * is worded. Two values with no change stated may both hold ("a cat named Miso" / "a cat named
 * Tofu"); such pairs are only refused as merges. Different subjects are never in conflict ("Alice
 * prefers Vim" / "Bob prefers VS Code"), nor are statements qualified differently ("uses Node 18
 * for legacy-portal" / "uses Node 20 for new-portal").
 *
 * The suggested winner is the newer (`updatedAt`, then `createdAt`), then the more confident (when
 * both record a confidence), then the smaller id. Pinned memories take part, since the user decides
 * a conflict, but a pinned memory is always the suggestion over an unpinned one: accepting the
 * defaults must never delete a pinned memory.
 *
 * Every conflict is also refused as a merge by the duplicates analyser (same claim key and
 * incompatible values, or opposite polarity), so the two never propose the same pair.
 *
 * @module
 */

import { ownerKey } from "../../core/scope.js";
import type { Policy } from "../../policy/policy.js";
import type { ConflictAction } from "../plan.js";
import type { DreamSnapshot, SnapshotMemory } from "../snapshot.js";
import { type Claim, claimKey, qualifiersDiffer, valuesConflict } from "./similarity/claims.js";
import { type SlotDisagreement, slotDisagreement } from "./similarity/compare.js";
import {
  type MemoryFeatures,
  mentions,
  snapshotFeatures,
  snapshotTermWeights,
} from "./similarity/features.js";
import { opposedStatements } from "./similarity/polarity.js";
import { type ValueConflict, valueConflict } from "./similarity/value-conflict.js";

interface Holder {
  readonly features: MemoryFeatures;
  readonly claim: Claim;
}

/**
 * Proposes conflicts between memories that contradict each other.
 *
 * @example
 * analyseContradictions(snapshot, policy);
 * // => [{ kind: "conflict", ids: ["m1", "m2"], topic: "deploy target of billing-api",
 * //       suggested: "m2", why: { rule: "contradiction", … } }]
 */
export function analyseContradictions(snapshot: DreamSnapshot, policy: Policy): readonly ConflictAction[] {
  const featuresOf = snapshotFeatures(snapshot);
  const conflicts = new Map<string, ConflictAction>();
  const add = (action: ConflictAction) => {
    const key = action.ids.join("\u0000");
    if (!conflicts.has(key)) conflicts.set(key, action);
  };

  // One index per owner, as the snapshot's neighbours are: two owners' claims never meet.
  const index = new Map<string, Holder[]>();
  for (const memory of snapshot.memories) {
    const features = featuresOf(memory.id);
    if (features === undefined) continue;
    for (const claim of features.claims) {
      const key = `${ownerKey(memory)}\u0000${claimKey(claim)}`;
      const holders = index.get(key);
      if (holders === undefined) index.set(key, [{ features, claim }]);
      else holders.push({ features, claim });
    }
  }
  for (const holders of index.values())
    if (holders.length > 1) for (const action of claimConflicts(holders)) add(action);

  const { minSimilarity, neighbours: k } = policy.contradictions;
  for (const memory of snapshot.memories) {
    const features = featuresOf(memory.id);
    if (features === undefined || !features.details.negated) continue;
    for (const neighbour of snapshot.neighbours(memory.id, k)) {
      if (neighbour.similarity < minSimilarity) break;
      const other = featuresOf(neighbour.id);
      const opposition = other === undefined ? undefined : opposedStatements(features, other);
      if (opposition !== undefined)
        add(polarityConflict(opposition.affirmed, opposition.denied, neighbour.similarity));
    }
  }
  const weight = snapshotTermWeights(snapshot);
  // Pairs already in a claim or polarity conflict keep it: it says what exactly they disagree on.
  const claimed = new Set([...conflicts.values()].flatMap((action) => action.ids));
  for (const memory of snapshot.memories) {
    const features = featuresOf(memory.id);
    if (features === undefined || claimed.has(memory.id)) continue;
    for (const neighbour of snapshot.neighbours(memory.id, k)) {
      if (neighbour.similarity < minSimilarity) break;
      if (claimed.has(neighbour.id)) continue;
      const other = featuresOf(neighbour.id);
      if (other === undefined) continue;
      const disagreement = slotDisagreement(features, other, weight);
      if (disagreement !== undefined) {
        add(slotConflict(features, other, disagreement, neighbour.similarity));
        continue;
      }
      // Unsure ones (each frame has words of its own) are the review tier's.
      const valueSlot = valueConflict(features, other, weight);
      if (valueSlot?.sure === true) add(valueSlotConflict(features, other, valueSlot, neighbour.similarity));
    }
  }
  return [...conflicts.entries()]
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([, action]) => action);
}

/**
 * Conflicts among the memories holding one claim key. Values that agree ("AWS", "AWS ECS") form one
 * side, represented by its suggested winner; the overall winner is set against every side that
 * disagrees with it (the planner keeps one action per memory, so a three-way disagreement surfaces
 * one pair per dream).
 */
function claimConflicts(holders: readonly Holder[]): ConflictAction[] {
  const sides: Holder[][] = [];
  for (const holder of [...holders].sort((x, y) => preference(x.features.memory, y.features.memory))) {
    const side = sides.find(
      ([first]) =>
        first !== undefined && !valuesConflict(holder.claim.rule, first.claim.value, holder.claim.value),
    );
    if (side === undefined) sides.push([holder]);
    else side.push(holder);
  }
  const [winner, ...rest] = sides.map((side) => side[0] as Holder);
  if (winner === undefined) return [];
  return rest.flatMap((loser) => {
    if (loser.features.memory.id === winner.features.memory.id || !contextsAgree(winner, loser)) return [];
    return [claimConflict(winner, loser)];
  });
}

/**
 * The two must be qualified alike ("for the legacy-portal project" / "for the new-portal project"
 * are two facts), and names outside the subject and value must not differ on both sides.
 */
function contextsAgree(a: Holder, b: Holder): boolean {
  if (qualifiersDiffer(a.claim.qualifier, b.claim.qualifier)) return false;
  const context = (holder: Holder) => {
    const claimText = `${holder.claim.subjectText} ${holder.claim.valueText}`.toLowerCase();
    return holder.features.entities.filter((entity) => !claimText.includes(entity.key));
  };
  const onlyA = context(a).filter((entity) => !mentions(b.features, entity.key));
  const onlyB = context(b).filter((entity) => !mentions(a.features, entity.key));
  return onlyA.length === 0 || onlyB.length === 0;
}

function claimConflict(winner: Holder, loser: Holder): ConflictAction {
  const claim = winner.claim;
  const environments = claim.environments.length > 0 ? ` (${claim.environments.join(", ")})` : "";
  const topic = `${claim.label} of ${claim.subjectText}${environments}`;
  const ids = sortedPair(winner.features.memory.id, loser.features.memory.id);
  return freeze({
    ids,
    topic,
    suggested: winner.features.memory.id,
    why: {
      rule: "contradiction",
      detail: `${describe(winner)} vs ${describe(loser)}; ${suggestionReason(winner.features.memory, loser.features.memory)}`,
      evidence: {
        pattern: claim.rule,
        attribute: claim.attribute,
        subject: claim.subjectText,
        values: [winner.claim.valueText, loser.claim.valueText],
        pinned: [winner, loser].filter((h) => h.features.memory.pinned).map((h) => h.features.memory.id),
      },
    },
  });
}

function slotConflict(
  a: MemoryFeatures,
  b: MemoryFeatures,
  disagreement: SlotDisagreement,
  similarity: number,
): ConflictAction {
  return pairConflict(
    a,
    b,
    `${disagreement.sharedTerms.join(" ")}: ${disagreement.values}`,
    (winner, loser) =>
      `"${winner.memory.text}" vs "${loser.memory.text}": one slot, two values (${disagreement.values}); "${disagreement.change}" says the fact changed`,
    {
      pattern: "value",
      values: disagreement.values,
      similarity: round(similarity),
      overlap: round(disagreement.overlap),
      sharedTerms: Object.freeze([...disagreement.sharedTerms]),
      change: disagreement.change,
    },
  );
}

function valueSlotConflict(
  a: MemoryFeatures,
  b: MemoryFeatures,
  conflict: ValueConflict,
  similarity: number,
): ConflictAction {
  return pairConflict(
    a,
    b,
    `${conflict.frame.join(" ")}: ${conflict.values}`,
    (winner, loser) =>
      `"${winner.memory.text}" vs "${loser.memory.text}": the same statement with another value (${conflict.values})`,
    {
      pattern: "same-slot",
      values: conflict.values,
      frame: Object.freeze([...conflict.frame]),
      similarity: round(similarity),
    },
  );
}

function polarityConflict(
  affirmed: MemoryFeatures,
  denied: MemoryFeatures,
  similarity: number,
): ConflictAction {
  const statement = affirmed.text.trim().replace(/[.!?;]+$/u, "");
  return pairConflict(
    affirmed,
    denied,
    `whether ${statement}`,
    () => `"${affirmed.memory.text}" is denied by "${denied.memory.text}"`,
    {
      pattern: "polarity",
      similarity: round(similarity),
      affirmed: affirmed.memory.id,
      denied: denied.memory.id,
    },
  );
}

/**
 * A conflict between two memories found from their words: the preferred one suggested, why in
 * `describe`'s words and the suggestion's, and which of the two are pinned beside the evidence.
 */
function pairConflict(
  a: MemoryFeatures,
  b: MemoryFeatures,
  topic: string,
  describe: (winner: MemoryFeatures, loser: MemoryFeatures) => string,
  evidence: Record<string, string | number | readonly string[]>,
): ConflictAction {
  const [winner, loser] = preference(a.memory, b.memory) <= 0 ? [a, b] : [b, a];
  return freeze({
    ids: sortedPair(a.memory.id, b.memory.id),
    topic,
    suggested: winner.memory.id,
    why: {
      rule: "contradiction",
      detail: `${describe(winner, loser)}; ${suggestionReason(winner.memory, loser.memory)}`,
      evidence: { ...evidence, pinned: [a, b].filter((f) => f.memory.pinned).map((f) => f.memory.id) },
    },
  });
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/**
 * The memory of two that a conflict suggests keeping: pinned, then newer, then more confident,
 * then the smaller id.
 */
export function suggestedWinner(a: SnapshotMemory, b: SnapshotMemory): SnapshotMemory {
  return preference(a, b) <= 0 ? a : b;
}

/** Negative when `a` should win over `b`: pinned, then newer, then more confident, then smaller id. */
function preference(a: SnapshotMemory, b: SnapshotMemory): number {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
  if (a.updatedAt !== b.updatedAt) return a.updatedAt > b.updatedAt ? -1 : 1;
  if (a.createdAt !== b.createdAt) return a.createdAt > b.createdAt ? -1 : 1;
  if (a.confidence !== null && b.confidence !== null && a.confidence !== b.confidence) {
    return a.confidence > b.confidence ? -1 : 1;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** "suggest m4: newer (2026-11-01)": why the suggested memory of a conflict is the one. */
export function suggestionReason(winner: SnapshotMemory, loser: SnapshotMemory): string {
  if (winner.pinned !== loser.pinned) return `suggest ${winner.id}: it is pinned`;
  if (winner.updatedAt !== loser.updatedAt)
    return `suggest ${winner.id}: newer (${winner.updatedAt.slice(0, 10)})`;
  if (winner.createdAt !== loser.createdAt)
    return `suggest ${winner.id}: newer (${winner.createdAt.slice(0, 10)})`;
  if (winner.confidence !== null && loser.confidence !== null && winner.confidence !== loser.confidence) {
    return `suggest ${winner.id}: more confident (${winner.confidence} > ${loser.confidence})`;
  }
  return `suggest ${winner.id}: no other difference`;
}

function describe(holder: Holder): string {
  return `${holder.features.memory.id} says ${JSON.stringify(holder.claim.valueText)}`;
}

function sortedPair(a: string, b: string): readonly [string, string] {
  return Object.freeze(a < b ? [a, b] : [b, a]) as readonly [string, string];
}

function freeze(action: Omit<ConflictAction, "kind">): ConflictAction {
  return Object.freeze({
    kind: "conflict",
    ...action,
    why: Object.freeze({ ...action.why, evidence: Object.freeze({ ...action.why.evidence }) }),
  });
}
