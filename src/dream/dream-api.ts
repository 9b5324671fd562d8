/**
 * `memory.dream`: the SDK's entry to consolidation. `plan` loads a scope's snapshot and returns the
 * frozen plan, made with the Memory's one policy; it never writes.
 *
 * The analysers (and, in `dream-runs-api.ts`, apply and undo) are loaded by the first call that
 * needs them, so a process that only asks the gate (`lucid status`) never loads them.
 *
 * @module
 */

import type { MemoryContext } from "../core/context.js";
import { requireScope, type ScopeOptions, scopeFromOptions } from "../core/scope.js";
import { LucidError } from "../errors.js";
import type { Policy } from "../policy/policy.js";
import { isResolvedPolicy } from "../policy/resolve-policy.js";
import { createDreamRunsApi, type DreamRunsApi } from "./dream-runs-api.js";
import { parsePlan } from "./parse-plan.js";
import type { DreamPlan } from "./plan.js";
import { OFF_THREAD_FROM } from "./plan-off-thread.js";

export interface DreamPlanOptions {
  /** The plan's clock: ages and TTLs are measured from it. Default: the memory's clock. */
  now?: string | Date;
  /**
   * A policy for this plan only, made by `resolvePolicy(...)`. Default: the policy the Memory was
   * opened with (which is what the CLI, the MCP server and auto-dream all use).
   */
  policy?: Policy;
  /** For `auto` and `ifDue`: aborting it stops the apply between two actions, applying nothing (`INTERRUPTED`). */
  signal?: AbortSignal;
  /**
   * Ask the configured LLM to judge the review tier (`llm-judge.ts`). Default: the Memory's
   * `dreamLlm` (the config's `dream.llm`). `true` without an LLM fails with LLM_NOT_CONFIGURED.
   */
  llm?: boolean;
}

export interface DreamApi extends DreamRunsApi {
  /**
   * Analyses one scope and returns what a dream would change, as data. Changes nothing.
   *
   * @example
   * const plan = await memory.dream.plan({ userId: "alice" }, { now: "2026-11-30T00:00:00Z" });
   * console.log(renderReport(plan));
   */
  plan(scope: ScopeOptions, options?: DreamPlanOptions): Promise<DreamPlan>;
}

/**
 * @example
 * readonly dream = createDreamApi(() => this.ready());
 */
export function createDreamApi(getContext: () => Promise<MemoryContext>): DreamApi {
  const api: Pick<DreamApi, "plan"> = {
    async plan(scopeOptions, options = {}) {
      const startedAt = performance.now();
      const scope = requireScope(scopeFromOptions(scopeOptions ?? {}), "dream.plan");
      if (options.policy !== undefined && !isResolvedPolicy(options.policy)) {
        throw new LucidError(
          "INVALID_ARGUMENT",
          "dream.plan's policy must be a resolved policy: pass await resolvePolicy({ … }), or leave it out to use the Memory's.",
        );
      }
      const context = await getContext();
      const now = planClock(options.now, context);
      const policy = options.policy ?? context.policy;
      const { loadSnapshotData } = await import("./load-snapshot.js");
      const data = await loadSnapshotData(context.store, { scope, now });
      const judged = async (plan: DreamPlan) => {
        if (!(options.llm ?? context.dreamLlm ?? false)) return plan;
        const { judgeReview } = await import("./llm-judge.js");
        return judgeReview(context, plan, data.rows);
      };
      if (data.rows.length >= OFF_THREAD_FROM) {
        // Parsed like any plan from outside: the worker's answer is checked and frozen here.
        const { planOffThread } = await import("./plan-off-thread.js");
        const plan = await planOffThread(data, policy);
        // Timed here, loading included, as an in-thread plan is.
        return judged(
          parsePlan({
            ...plan,
            stats: { ...plan.stats, elapsedMs: Math.round(performance.now() - startedAt) },
          }),
        );
      }
      const [{ packedSnapshot }, { planDream }] = await Promise.all([
        import("./build-snapshot.js"),
        import("./plan-dream.js"),
      ]);
      return judged(planDream(packedSnapshot(data), policy, { startedAt }));
    },
  };
  return { ...api, ...createDreamRunsApi(getContext, api.plan) };
}

function planClock(now: string | Date | undefined, context: MemoryContext): string {
  if (now === undefined) return context.clock.now().toISOString();
  const instant = now instanceof Date ? now : new Date(now);
  if (Number.isNaN(instant.getTime())) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `now must be a date or an ISO-8601 string such as "2026-11-30T00:00:00Z", got ${JSON.stringify(String(now))}.`,
    );
  }
  return instant.toISOString();
}
