/**
 * The writing half of `memory.dream`: apply a plan, undo a run, list and show runs, and the
 * automatic path (`auto`, `ifDue`, `gate`) that `lucid dream --auto` / `--if-due` and the MCP
 * server use.
 *
 * @module
 */

import type { MemoryContext } from "../core/context.js";
import {
  requireScope,
  type Scope,
  type ScopeOptions,
  scopeFromOptions,
  scopeKey,
  scopeToOptions,
} from "../core/scope.js";
import { LucidError } from "../errors.js";
import type { MemoryChange } from "../store/ports/runs.js";
import type { ApplyOptions, ApplyResult } from "./apply/apply-plan.js";
import type { AutoResult, IfDueResult } from "./apply/auto.js";
import type { ApplyDecisions } from "./apply/decisions.js";
import type { UndoResult } from "./apply/undo-run.js";
import type { DreamPlanOptions } from "./dream-api.js";
import { type DreamRun, readDreamRun } from "./dream-run.js";
import { checkGate, type GateOptions, type GateStatus } from "./gate/gate.js";
import { withDreamLease } from "./gate/lease.js";
import { parsePlan } from "./parse-plan.js";
import type { DreamPlan } from "./plan.js";
import { DREAM_RUN_KIND } from "./run-kind.js";

export interface DreamRunsOptions {
  /** How many runs at most (20). */
  readonly limit?: number;
  /**
   * Also the runs of scopes inside the one given (`{ userId: "alice" }` then lists the runs of
   * alice's agents too); by default, only runs of exactly that scope.
   */
  readonly nested?: boolean;
}

export interface DreamRunsApi {
  /**
   * Applies a plan in one transaction (merges → resolved conflicts → deletions → rewrites) under
   * the scope's lease, and records the run for `undo`. The plan is parsed first: one read back from
   * a file or a request is checked action by action (`INVALID_PLAN` names what is wrong).
   *
   * @example
   * const plan = await memory.dream.plan({ userId: "alice" });
   * const { runId, counts } = await memory.dream.apply(plan, { conflicts: { [`${a}:${b}`]: "B" } });
   */
  apply(plan: DreamPlan, decisions?: ApplyDecisions, options?: ApplyOptions): Promise<ApplyResult>;
  /** Puts every memory a run touched back as it was; refuses (UNDO_CONFLICT) if one changed since, unless `force`. */
  undo(runId: string, options?: { force?: boolean }): Promise<UndoResult>;
  /** Runs, newest first: of one scope (and with `nested` the scopes inside it), or of all when no scope is given. */
  runs(scope?: ScopeOptions, options?: DreamRunsOptions): Promise<DreamRun[]>;
  /** One run with the memories it touched (their preimages and what it left). */
  show(runId: string): Promise<{ run: DreamRun; memories: MemoryChange[] }>;
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
  const planner = (options?: DreamPlanOptions) => (scope: Scope) => plan(scopeToOptions(scope), options);
  const scoped = (options: ScopeOptions, verb: string) => requireScope(scopeFromOptions(options ?? {}), verb);
  return {
    async apply(dreamPlan, decisions, options) {
      const parsed = parsePlan(dreamPlan);
      const [context, { applyPlan }] = await Promise.all([getContext(), import("./apply/apply-plan.js")]);
      return withDreamLease(context, parsed.scope, () => applyPlan(context, parsed, decisions, options));
    },
    async undo(runId, options) {
      const { undoRun } = await import("./apply/undo-run.js");
      return undoRun(await getContext(), runId, options);
    },
    async runs(scope, options = {}) {
      const context = await getContext();
      const records = await context.store.listRuns({
        kind: DREAM_RUN_KIND,
        ...(scope === undefined
          ? {}
          : options.nested === true
            ? { within: scoped(scope, "dream.runs") }
            : { scopeKey: scopeKey(scoped(scope, "dream.runs")) }),
        limit: options.limit ?? 20,
      });
      return records.map(readDreamRun);
    },
    async show(runId) {
      const found = await (await getContext()).store.getRun(runId);
      if (found === null || found.run.kind !== DREAM_RUN_KIND) {
        throw new LucidError("RUN_NOT_FOUND", `No dream run ${runId}. List runs with \`lucid dream runs\`.`, {
          details: { runId },
        });
      }
      const memories = found.changes.filter((change): change is MemoryChange => change.kind === "memory");
      return { run: readDreamRun(found.run), memories };
    },
    async auto(scope, options) {
      const { runAuto } = await import("./apply/auto.js");
      return runAuto(await getContext(), scoped(scope, "dream.auto"), planner(options), options?.signal);
    },
    async ifDue(scope, options = {}) {
      const { plan: planOptions, ...gate } = options;
      const { runIfDue } = await import("./apply/auto.js");
      return runIfDue(
        await getContext(),
        scoped(scope, "dream.ifDue"),
        planner(planOptions),
        gate,
        planOptions?.signal,
      );
    },
    async gate(scope, options) {
      return checkGate(await getContext(), scoped(scope, "dream.gate"), options);
    },
  };
}
