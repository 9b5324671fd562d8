/**
 * The planner's protections, applied to every analyser's proposals in one place (so a new
 * analyser cannot forget them):
 *
 * - a pinned memory is never deleted, merged or rewritten — only redacted in place (a rewrite
 *   whose reasons are exactly `credential_redacted`);
 * - an immutable-category memory is never merged or rewritten except by that same redaction
 *   (it may still be deleted as noise, expired or a credential);
 * - in a conflict, a pinned memory is always the suggested winner;
 * - a merge or conflict joins memories of one owner only (the same full stored scope): the
 *   snapshot's neighbours never cross owners, and this catches any analyser that pairs otherwise.
 *
 * @module
 */

import { ownerKey } from "../core/scope.js";
import type { Policy } from "../policy/policy.js";
import { isImmutable } from "./memory-facts.js";
import type { DreamAction } from "./plan.js";
import type { DreamSnapshot } from "./snapshot.js";

export interface GuardedActions {
  readonly actions: DreamAction[];
  /** Pinned memories some proposal was refused for. */
  readonly pinnedSkipped: ReadonlySet<string>;
}

/**
 * @example
 * const { actions, pinnedSkipped } = guardActions(proposals, snapshot, policy);
 */
export function guardActions(
  proposals: readonly DreamAction[],
  snapshot: DreamSnapshot,
  policy: Policy,
): GuardedActions {
  const pinnedSkipped = new Set<string>();
  const pinned = (id: string) => snapshot.byId(id)?.pinned === true;
  const frozen = (id: string) => {
    const memory = snapshot.byId(id);
    return memory !== undefined && (memory.pinned || isImmutable(memory, policy));
  };
  const actions: DreamAction[] = [];
  for (const action of proposals) {
    const members = action.ids.flatMap((id) => snapshot.byId(id) ?? []);
    if (members.length !== action.ids.length) continue;
    if (new Set(members.map((memory) => ownerKey(memory))).size > 1) continue;
    switch (action.kind) {
      case "delete":
      case "rewrite": {
        const [id] = action.ids;
        const redactOnly =
          action.kind === "rewrite" && action.reasons.every((r) => r === "credential_redacted");
        const allowed = action.kind === "delete" ? !pinned(id) : !frozen(id) || redactOnly;
        if (allowed) actions.push(action);
        else if (pinned(id)) pinnedSkipped.add(id);
        break;
      }
      case "merge": {
        const blocked = action.ids.filter(frozen);
        for (const id of blocked.filter(pinned)) pinnedSkipped.add(id);
        if (blocked.length === 0) actions.push(action);
        break;
      }
      case "conflict": {
        const [a, b] = action.ids;
        const suggested = pinned(a) && !pinned(b) ? a : pinned(b) && !pinned(a) ? b : action.suggested;
        actions.push(suggested === action.suggested ? action : { ...action, suggested });
        break;
      }
    }
  }
  return { actions, pinnedSkipped };
}
