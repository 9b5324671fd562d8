/**
 * Dream's relation judge for facts about to be added: the duplicate and contradiction analysers
 * and the review tier, run over a small snapshot of the facts and the stored memories near them,
 * so `add` with `infer: true` decides with exactly the rules a dream would apply later.
 *
 * What is judged is how the facts relate, not what may be changed: pins and immutable categories
 * (which keep a dream from merging) are lifted here, since restating a pinned memory must not add
 * it twice; the caller decides what it may do to the memory it finds.
 *
 * @module
 */

import type { FactRelation, RelateFactsInput } from "../core/relate-facts.js";
import type { Policy } from "../policy/policy.js";
import { analyseContradictions } from "./analyse/contradictions.js";
import { analyseDuplicates } from "./analyse/duplicates.js";
import { snapshotFeatures } from "./analyse/similarity/features.js";
import { composeMerge } from "./analyse/similarity/merge-text.js";
import { buildSnapshot } from "./build-snapshot.js";
import { planDream } from "./plan-dream.js";

/**
 * @example
 * const relations = await relateFacts({ scope, now, policy, facts, stored, vectors });
 * relations.get(facts[0].id); // => { kind: "supersedes", other: "m7", detail: "…" }
 */
export async function relateFacts(input: RelateFactsInput): Promise<ReadonlyMap<string, FactRelation>> {
  const factIds = new Set(input.facts.map((fact) => fact.id));
  const order = new Map(input.facts.map((fact, index) => [fact.id, index]));
  // Both marks of a pin: `metadata.pinned`, and Mem0's "[PINNED]" text prefix.
  const unprotect = (row: (typeof input.stored)[number]) => {
    const { pinned: _pinned, ...metadata } = row.metadata;
    return { ...row, text: row.text.replace(/^\s*\[PINNED\]\s*/u, ""), metadata };
  };
  const snapshot = buildSnapshot({
    scope: input.scope,
    now: input.now,
    rows: [...input.stored.map(unprotect), ...input.facts],
    vectors: input.vectors,
  });
  const plan = planDream(snapshot, judgingPolicy(input.policy), {
    analysers: [analyseDuplicates, analyseContradictions],
    review: true,
  });
  const relations = new Map<string, FactRelation>();
  const relate = (fact: string, relation: FactRelation) => {
    if (!relations.has(fact)) relations.set(fact, relation);
  };
  // A fact relates to a stored memory, or to an earlier fact of the same add (never a later one).
  const pick = (ids: readonly string[]) => {
    const facts = ids
      .filter((id) => factIds.has(id))
      .sort((x, y) => (order.get(x) ?? 0) - (order.get(y) ?? 0));
    const stored = ids.find((id) => !factIds.has(id));
    return facts.flatMap((fact, index) => {
      const other = stored ?? (index > 0 ? facts[0] : undefined);
      return other === undefined ? [] : [[fact, other] as const];
    });
  };
  const featuresOf = snapshotFeatures(snapshot);
  // What the pair says together (the more complete text, with the details only the other carries):
  // a restatement may still add something, which must not be lost.
  const merged = (fact: string, other: string) => {
    const a = featuresOf(fact);
    const b = featuresOf(other);
    return a === undefined || b === undefined ? undefined : composeMerge([b, a]).text;
  };
  for (const action of plan.actions) {
    if (action.kind !== "merge" && action.kind !== "conflict") continue;
    const kind = action.kind === "merge" ? "restates" : "supersedes";
    for (const [fact, other] of pick(action.ids)) {
      const text = kind === "restates" ? merged(fact, other) : undefined;
      relate(fact, {
        kind,
        other,
        detail: action.why.detail,
        ...(text === undefined ? {} : { merged: text }),
      });
    }
  }
  for (const item of plan.review) {
    // A possible injection is one memory, not a relation between two.
    if (item.kind === "possible-injection") continue;
    for (const [fact, other] of pick(item.proposal.ids)) {
      const text = item.kind === "possible-duplicate" ? merged(fact, other) : undefined;
      relate(fact, {
        kind: item.kind,
        other,
        detail: item.why.detail,
        ...(text === undefined ? {} : { merged: text }),
      });
    }
  }
  return relations;
}

/** The policy with no category immutable: see the module's note. */
function judgingPolicy(policy: Policy): Policy {
  return {
    ...policy,
    categories: Object.fromEntries(
      Object.entries(policy.categories).map(([name, category]) => [name, { ...category, immutable: false }]),
    ),
  };
}
