/**
 * `dream --auto`: plan and apply a scope's consolidation without a person — deletions, merges and
 * rewrites; conflicts are left for a person, with one reminder memory — under the scope's lease.
 * `ifDue` first asks the gate and runs only when it passes.
 *
 * @module
 */

import type { MemoryContext } from "../../core/context.js";
import { type Scope, scopeKey } from "../../core/scope.js";
import { checkGate, type GateOptions, type GateStatus } from "../gate/gate.js";
import { withDreamLease } from "../gate/lease.js";
import type { DreamPlan } from "../plan.js";
import { type ApplyResult, applyPlan } from "./apply-plan.js";
import { AUTO_DECISIONS } from "./decisions.js";

export interface AutoResult extends ApplyResult {
  readonly plan: DreamPlan;
  /** `[lucid dream --auto] scope=user_id=alice  merged=1  pruned=3  conflicts_skipped=0` */
  readonly line: string;
}

export interface IfDueResult {
  readonly ran: boolean;
  readonly gate: GateStatus;
  readonly result?: AutoResult;
}

export type MakePlan = (scope: Scope) => Promise<DreamPlan>;

export async function runAuto(
  context: MemoryContext,
  scope: Scope,
  makePlan: MakePlan,
  signal?: AbortSignal,
): Promise<AutoResult> {
  return withDreamLease(context, scope, async () => {
    const plan = await makePlan(scope);
    const result = await applyPlan(context, plan, AUTO_DECISIONS, {
      mode: "auto",
      remindOfConflicts: true,
      ...(signal === undefined ? {} : { signal }),
    });
    const { merged, pruned, conflictsSkipped } = result.counts;
    // Review items are never applied without a person; the line says how many wait (when any do).
    const review = plan.review.length > 0 ? `  review=${plan.review.length}` : "";
    const line = `[lucid dream --auto] scope=${scopeKey(scope)}  merged=${merged}  pruned=${pruned}  conflicts_skipped=${conflictsSkipped}${review}`;
    return { ...result, plan, line };
  });
}

/** Runs `--auto` when the gate passes; completion is recorded by the apply's own transaction. */
export async function runIfDue(
  context: MemoryContext,
  scope: Scope,
  makePlan: MakePlan,
  options: GateOptions = {},
  signal?: AbortSignal,
): Promise<IfDueResult> {
  const gate = await checkGate(context, scope, options);
  if (!gate.eligible) return { ran: false, gate };
  return { ran: true, gate, result: await runAuto(context, scope, makePlan, signal) };
}
