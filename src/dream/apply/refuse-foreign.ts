/**
 * What `apply` refuses before it changes anything, inside its transaction (`INVALID_PLAN`, the
 * whole plan, nothing applied): a plan acts on its own scope and joins one owner's memories only.
 *
 * - An action naming a memory of another scope: the plan was made for, or edited to reach, memories
 *   it may not touch.
 * - A merge or conflict whose members are stored under two owners (full stored scopes, see
 *   `ownerKey` in core/scope.ts): a merge would move one person's words into another's memory and
 *   delete theirs; resolving a conflict would delete one person's memory for another's.
 * - A memory whose stored owner is not the one the plan's `seen` records: a plan that lies about
 *   its members (`parsePlan` checks the records against each other; only the store knows the truth).
 *
 * A memory that no longer exists is none of these: its action is stale.
 *
 * @module
 */

import { formatScope, ownerKey, scopeOfRow, withinScope } from "../../core/scope.js";
import { LucidError } from "../../errors.js";
import type { MemoryRow } from "../../store/ports/memories.js";
import type { MemoryStoreOps } from "../../store/store.js";
import type { DreamAction, DreamPlan } from "../plan.js";

/**
 * @example
 * await store.transaction(async (tx) => {
 *   await refuseForeignIds(tx, plan); // throws INVALID_PLAN before anything is written
 * });
 */
export async function refuseForeignIds(tx: MemoryStoreOps, plan: DreamPlan): Promise<void> {
  const ids = [...new Set(plan.actions.flatMap((action) => action.ids))];
  const stored = new Map((await tx.getMemories(ids)).map((row) => [row.id, row]));
  for (const [index, action] of plan.actions.entries()) {
    const rows = action.ids.flatMap((id) => stored.get(id) ?? []);
    const refuse = (problem: string, named: readonly string[]): never => {
      throw new LucidError(
        "INVALID_PLAN",
        `Action ${index} (${action.kind}) ${problem}. Nothing was applied.`,
        {
          details: { action: index, kind: action.kind, ids: named },
        },
      );
    };
    const foreign = rows.filter((row) => !withinScope(row, plan.scope)).map((row) => row.id);
    if (foreign.length > 0) refuse(`names ${foreign.join(", ")}, outside the plan's scope`, foreign);
    const lie = rows.find((row) => {
      const seen = plan.seen[row.id]?.scope;
      return seen !== undefined && ownerKey(seen) !== ownerKey(row);
    });
    if (lie !== undefined) {
      refuse(
        `names ${lie.id}, which is stored under ${owner(lie)} but the plan's seen records ${formatScope(plan.seen[lie.id]?.scope ?? {}) || "no scope"}`,
        [lie.id],
      );
    }
    const [first] = rows;
    const other = first === undefined ? undefined : rows.find((row) => ownerKey(row) !== ownerKey(first));
    if (joins(action) && first !== undefined && other !== undefined) {
      refuse(
        `joins memories of different owners: ${first.id} is ${owner(first)}, ${other.id} is ${owner(other)}`,
        [first.id, other.id],
      );
    }
  }
}

function joins(action: DreamAction): boolean {
  return action.kind === "merge" || action.kind === "conflict";
}

function owner(row: MemoryRow): string {
  return formatScope(scopeOfRow(row)) || "no scope";
}
