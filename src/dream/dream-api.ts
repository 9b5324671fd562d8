/**
 * `memory.dream`: the SDK's entry to consolidation. `plan` loads a scope's snapshot, resolves the
 * policy and returns the frozen plan; it never writes.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import type { MemoryContext } from "../memory/context.js";
import { scopeFromOptions } from "../memory/scope.js";
import type { ScopeOptions } from "../memory/types.js";
import type { DreamPolicy } from "../policy/dream-policy.js";
import { isDreamPolicy, type PolicyInput, resolvePolicy } from "../policy/resolve-policy.js";
import { createDreamRunsApi, type DreamRunsApi } from "./dream-runs-api.js";
import { loadSnapshot } from "./load-snapshot.js";
import type { DreamPlan } from "./plan.js";
import { planDream } from "./plan-dream.js";

export interface DreamPlanOptions {
  /** The plan's clock: ages and TTLs are measured from it. Default: the memory's clock. */
  now?: string | Date;
  /**
   * A resolved policy (`resolvePolicy(...)`), or where to read one from. Default: the categories
   * the memory was opened with and the default thresholds; project files are read only when
   * `projectDir` is given.
   */
  policy?: DreamPolicy | PolicyInput;
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
      const scope = scopeFromOptions(scopeOptions ?? {});
      if (Object.keys(scope).length === 0) {
        throw new LucidError(
          "SCOPE_REQUIRED",
          'dream.plan needs a scope: pass at least one of userId, agentId, appId or runId, e.g. memory.dream.plan({ userId: "alice" }).',
        );
      }
      const context = await getContext();
      const now = planClock(options.now, context);
      const policy = isDreamPolicy(options.policy)
        ? options.policy
        : await resolvePolicy(options.policy ?? {}, [
            { source: { kind: "sdk" }, layer: { categories: { ...context.categories } }, warnings: [] },
          ]);
      const snapshot = await loadSnapshot(context.store, { scope, now });
      return planDream(snapshot, policy, { startedAt });
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
