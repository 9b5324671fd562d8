/**
 * The writing half of `memory.dream`: apply a plan, undo a run, list and show runs, and the
 * automatic path (`auto`, `ifDue`, `gate`) that `lucid dream --auto` / `--if-due` and the MCP
 * server use.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import type { MemoryContext } from "../memory/context.js";
import { scopeFromOptions, sessionScopeKey } from "../memory/scope.js";
import type { ScopeOptions } from "../memory/types.js";
import type { DreamRunRecord, RunMemory, Scope } from "../store/store.js";
import { type ApplyOptions, type ApplyResult, applyPlan } from "./apply/apply-plan.js";
import { type AutoResult, type IfDueResult, runAuto, runIfDue } from "./apply/auto.js";
import type { ApplyDecisions } from "./apply/decisions.js";
import { type UndoResult, undoRun } from "./apply/undo-run.js";
import type { DreamPlanOptions } from "./dream-api.js";
import { checkGate, type GateOptions, type GateStatus } from "./gate/gate.js";
import { withDreamLease } from "./gate/lease.js";
import type { DreamPlan } from "./plan.js";

export interface DreamRunsApi {
  /**
   * Applies a plan in one transaction (merges → resolved conflicts → deletions → rewrites) under
   * the scope's lease, and records the run for `undo`.
   *
   * @example
   * const plan = await memory.dream.plan({ userId: "alice" });
   * const { runId, counts } = await memory.dream.apply(plan, { conflicts: { [`${a}:${b}`]: "B" } });
   */
  apply(plan: DreamPlan, decisions?: ApplyDecisions, options?: ApplyOptions): Promise<ApplyResult>;
  /** Puts every memory a run touched back as it was; refuses (UNDO_CONFLICT) if one changed since, unless `force`. */
  undo(runId: string, options?: { force?: boolean }): Promise<UndoResult>;
  /** Runs, newest first: of one scope, or of all when no scope is given. */
  runs(scope?: ScopeOptions, options?: { limit?: number }): Promise<DreamRunRecord[]>;
  /** One run with the memories it touched (their preimages and what it left). */
  show(runId: string): Promise<{ run: DreamRunRecord; memories: RunMemory[] }>;
  /** `dream --auto`: plan and apply deletions, merges and rewrites; conflicts become one reminder. */
  auto(scope: ScopeOptions, options?: DreamPlanOptions): Promise<AutoResult>;
  /** Runs `auto` when the scope's gate passes. */
  ifDue(scope: ScopeOptions, options?: GateOptions & { plan?: DreamPlanOptions }): Promise<IfDueResult>;
  /** The gate's verdict for a scope, naming what blocks it. */
  gate(scope: ScopeOptions, options?: GateOptions): Promise<GateStatus>;
}

export function createDreamRunsApi(
  getContext: () => Promise<MemoryContext>,
  plan: (scope: ScopeOptions, options?: DreamPlanOptions) => Promise<DreamPlan>,
): DreamRunsApi {
  const planner = (options?: DreamPlanOptions) => (scope: Scope) => plan(toOptions(scope), options);
  return {
    async apply(dreamPlan, decisions, options) {
      const context = await getContext();
      return withDreamLease(context, dreamPlan.scope, () =>
        applyPlan(context, dreamPlan, decisions, options),
      );
    },
    async undo(runId, options) {
      return undoRun(await getContext(), runId, options);
    },
    async runs(scope, options = {}) {
      const context = await getContext();
      const scopeKey = scope === undefined ? null : sessionScopeKey(requiredScope(scope, "dream.runs"));
      return context.store.listDreamRuns(scopeKey, options.limit ?? 20);
    },
    async show(runId) {
      const found = await (await getContext()).store.getDreamRun(runId);
      if (found === null) {
        throw new LucidError("RUN_NOT_FOUND", `No dream run ${runId}. List runs with \`lucid dream runs\`.`, {
          details: { runId },
        });
      }
      return found;
    },
    async auto(scope, options) {
      return runAuto(await getContext(), requiredScope(scope, "dream.auto"), planner(options));
    },
    async ifDue(scope, options = {}) {
      const { plan: planOptions, ...gate } = options;
      return runIfDue(await getContext(), requiredScope(scope, "dream.ifDue"), planner(planOptions), gate);
    },
    async gate(scope, options) {
      return checkGate(await getContext(), requiredScope(scope, "dream.gate"), options);
    },
  };
}

function requiredScope(options: ScopeOptions, verb: string): Scope {
  const scope = scopeFromOptions(options ?? {});
  if (Object.keys(scope).length === 0) {
    throw new LucidError(
      "SCOPE_REQUIRED",
      `${verb} needs a scope: pass at least one of userId, agentId, appId or runId, e.g. { userId: "alice" }.`,
    );
  }
  return scope;
}

function toOptions(scope: Scope): ScopeOptions {
  return {
    ...(scope.user_id === undefined ? {} : { userId: scope.user_id }),
    ...(scope.agent_id === undefined ? {} : { agentId: scope.agent_id }),
    ...(scope.app_id === undefined ? {} : { appId: scope.app_id }),
    ...(scope.run_id === undefined ? {} : { runId: scope.run_id }),
  };
}
