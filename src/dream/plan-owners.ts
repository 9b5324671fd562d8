/**
 * One owner per action (docs/dream-plan.md, "One owner"): what `parsePlan` checks of the owners a
 * plan records for its members. `apply` checks the same against the store.
 *
 * @module
 */

import { formatScope, ownerKey, type Scope, withinScope } from "../core/scope.js";
import type { DreamAction, SeenMemory } from "./plan.js";

/**
 * A merge or conflict joins memories of one owner only (docs/dream-plan.md, "One owner"): the
 * members whose `seen` records an owner must record the same one, inside the plan's scope. A
 * member without a record (a hand-made plan) is checked by `apply`, against the store.
 */
export function checkOwners(
  action: DreamAction,
  seen: Readonly<Record<string, SeenMemory>>,
  planScope: Scope,
  at: (problem: string, ids: readonly string[]) => never,
): void {
  const recorded = action.ids.flatMap((id) => {
    const scope = seen[id]?.scope;
    return scope === undefined ? [] : [{ id, scope }];
  });
  for (const { id, scope } of recorded) {
    if (!withinScope(scope, planScope))
      at(
        `names memory ${id}, whose seen owner (${formatScope(scope) || "no scope"}) is outside the plan's scope (${formatScope(planScope)})`,
        [id],
      );
  }
  const [first, ...rest] = recorded;
  const other = rest.find(({ scope }) => first !== undefined && ownerKey(scope) !== ownerKey(first.scope));
  if (first === undefined || other === undefined) return;
  at(
    `joins memories of different owners: ${first.id} is ${formatScope(first.scope) || "no scope"}, ${other.id} is ${formatScope(other.scope) || "no scope"}; a ${action.kind} only joins memories of one owner (the same user_id, agent_id, app_id and run_id)`,
    [first.id, other.id],
  );
}
