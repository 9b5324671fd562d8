/**
 * One action per memory: proposals are taken in precedence order (see `precedence.ts`), and a
 * proposal that names a memory an earlier one took is dropped.
 *
 * Two refinements:
 * - a merge or conflict that loses any member is dropped whole: its merged text or its topic was
 *   made from every member, and re-using it would bring back text that was just deleted (an
 *   expired fact, or a secret);
 * - a credential redaction of a memory that another rule deletes becomes a credential deletion:
 *   deleting removes the secret too, and the report still counts it as a credential.
 *
 * @module
 */

import type { DeleteAction, DreamAction } from "./plan.js";
import { precedenceRank } from "./precedence.js";

/**
 * @example
 * resolveOverlaps([noiseDelete("m1"), rewrite("m1"), merge(["m1", "m2"])]); // => [noiseDelete("m1")]
 */
export function resolveOverlaps(actions: readonly DreamAction[]): DreamAction[] {
  const deletedBy = new Map<string, DeleteAction>();
  for (const action of actions) {
    if (action.kind === "delete" && !deletedBy.has(action.ids[0])) deletedBy.set(action.ids[0], action);
  }
  const ranked = actions
    .map((action) => upgradeRedaction(action, deletedBy))
    .map((action, order) => ({ action, order, rank: precedenceRank(action) }))
    .sort((a, b) => a.rank - b.rank || a.order - b.order);

  const taken = new Set<string>();
  const kept: DreamAction[] = [];
  for (const { action } of ranked) {
    if (action.ids.some((id) => taken.has(id))) continue;
    if (new Set(action.ids).size !== action.ids.length) continue;
    for (const id of action.ids) taken.add(id);
    kept.push(action);
  }
  return kept;
}

function upgradeRedaction(action: DreamAction, deletedBy: ReadonlyMap<string, DeleteAction>): DreamAction {
  if (action.kind !== "rewrite" || !action.reasons.includes("credential_redacted")) return action;
  const other = deletedBy.get(action.ids[0]);
  if (other === undefined || other.reason === "credential") return action;
  return {
    kind: "delete",
    ids: action.ids,
    reason: "credential",
    why: {
      rule: "credential",
      detail: `${action.why.detail}; deleted rather than redacted because it is also ${other.reason.replace("_", " ")} (${other.why.rule})`,
      evidence: { ...action.why.evidence, alsoDeletedAs: other.reason },
    },
  };
}
