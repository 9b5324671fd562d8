/**
 * The auto-dream gate (Mem0's dream-gate): a scope is due for consolidation when enough time has
 * passed since the last run, enough interactive sessions happened since, and it holds enough
 * memories. Cheap gates first: the memory count is only read when time and sessions pass.
 *
 * @module
 */

import type { MemoryContext } from "../../core/context.js";
import { type Scope, scopeKey } from "../../core/scope.js";
import { policyVisibility } from "../../core/visibility.js";
import { LucidError } from "../../errors.js";
import { scopeFilter } from "../../filters/scope-of-filters.js";
import type { GateThresholds } from "../../policy/policy.js";

export type GateBlock = "disabled" | "time" | "sessions" | "memories";

export interface GateStatus {
  readonly eligible: boolean;
  /** The first gate that failed, or null when eligible. */
  readonly blocking: GateBlock | null;
  /** Mem0's wording: `time: 3.2h < 24h`, `sessions: 2 < 5`, `memories: 5 < 20`. */
  readonly reason: string | null;
  readonly hoursSince: number | null;
  readonly sessions: number;
  /** Null when a cheaper gate failed first and the memories were not counted. */
  readonly memories: number | null;
  readonly thresholds: GateThresholds;
}

export interface GateOptions {
  /** Over the policy's `gate` (which defaults to Mem0's: 24 hours, 5 sessions, 20 memories). */
  readonly thresholds?: Partial<GateThresholds>;
  /** False when automatic dreaming is switched off (`LUCID_DREAM=off`, read at the edge). */
  readonly enabled?: boolean;
  /** Count memories even when a cheaper gate fails (for `status`, which shows every gate). */
  readonly countAlways?: boolean;
}

export async function checkGate(
  context: MemoryContext,
  scope: Scope,
  options: GateOptions = {},
): Promise<GateStatus> {
  const thresholds = resolveThresholds(context.policy.gate, options.thresholds);
  const state = await context.store.dreamGateState(scopeKey(scope));
  const now = context.clock.now().getTime();
  const hoursSince =
    state.lastConsolidatedAt === null ? null : (now - Date.parse(state.lastConsolidatedAt)) / 3_600_000;
  const sessions = state.sessionsSince;
  const base = { hoursSince, sessions, thresholds };
  const memoriesNow = () => countMemories(context, scope);
  const blocked = async (blocking: GateBlock, reason: string): Promise<GateStatus> => ({
    ...base,
    eligible: false,
    blocking,
    reason,
    memories: options.countAlways === true ? await memoriesNow() : null,
  });

  if (options.enabled === false) return blocked("disabled", "auto-dream is disabled (LUCID_DREAM)");
  if (hoursSince !== null && hoursSince < thresholds.minHours) {
    return blocked("time", `time: ${hoursSince.toFixed(1)}h < ${thresholds.minHours}h`);
  }
  if (sessions < thresholds.minSessions)
    return blocked("sessions", `sessions: ${sessions} < ${thresholds.minSessions}`);
  const memories = await memoriesNow();
  if (memories < thresholds.minMemories) {
    return {
      ...base,
      eligible: false,
      blocking: "memories",
      reason: `memories: ${memories} < ${thresholds.minMemories}`,
      memories,
    };
  }
  return { ...base, eligible: true, blocking: null, reason: null, memories };
}

/** `auto-dream: eligible`, or `auto-dream: waiting — sessions 2/5, memories 3/20` (naming what blocks). */
export function renderGateLine(status: GateStatus): string {
  if (status.eligible) return "auto-dream: eligible";
  if (status.blocking === "disabled") return "auto-dream: disabled (LUCID_DREAM)";
  const { thresholds } = status;
  const parts = [`sessions ${status.sessions}/${thresholds.minSessions}`];
  if (status.memories !== null) parts.push(`memories ${status.memories}/${thresholds.minMemories}`);
  if (status.blocking === "time" && status.hoursSince !== null) {
    parts.unshift(`last dream ${status.hoursSince.toFixed(1)}h ago (needs ${thresholds.minHours}h)`);
  }
  return `auto-dream: waiting — ${parts.join(", ")}`;
}

function resolveThresholds(base: GateThresholds, partial: Partial<GateThresholds> = {}): GateThresholds {
  const thresholds = { ...base, ...partial };
  for (const [name, value] of Object.entries(thresholds)) {
    if (typeof value !== "number" || !(value >= 0)) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        `gate ${name} must be a non-negative number, got ${JSON.stringify(value)}.`,
      );
    }
  }
  return thresholds;
}

/** Live memories of the scope: what a dream would review. */
async function countMemories(context: MemoryContext, scope: Scope): Promise<number> {
  const { total } = await context.store.listMemories({
    filter: scopeFilter(scope),
    visibleAt: policyVisibility(context),
    limit: 1,
    offset: 0,
  });
  return total;
}
