/**
 * The planner: runs the analysers over a snapshot, applies the protections (pinned, immutable),
 * keeps one action per memory by precedence, and returns the plan as frozen data. Pure apart from
 * timing: the same snapshot and policy give the same actions, in the same order.
 *
 * @module
 */

import { scopeOfRow } from "../core/scope.js";
import type { Policy } from "../policy/policy.js";
import { injectionCandidates } from "./analyse/injections.js";
import { reviewCandidates } from "./analyse/review.js";
import type { Analyser } from "./analyser.js";
import { DEFAULT_ANALYSERS } from "./analysers.js";
import { guardActions } from "./guard-actions.js";
import { categoryOf, typeOf } from "./memory-facts.js";
import { parsePlan } from "./parse-plan.js";
import { type DreamAction, type DreamPlan, PLAN_VERSION, type ReviewItem, type SeenMemory } from "./plan.js";
import { planStats } from "./plan-stats.js";
import { precedenceRank } from "./precedence.js";
import { resolveOverlaps } from "./resolve-overlaps.js";
import type { DreamSnapshot } from "./snapshot.js";

export interface PlanDreamOptions {
  /** Default: every analyser (`DEFAULT_ANALYSERS`). */
  readonly analysers?: readonly Analyser[];
  /** `performance.now()` when the work began (e.g. before loading the snapshot), for `stats.elapsedMs`. */
  readonly startedAt?: number;
  /** Whether to look for review items; default: when the default analysers run. */
  readonly review?: boolean;
}

/**
 * @example
 * const snapshot = await loadSnapshot(store, { scope: { user_id: "alice" }, now: "2026-11-30T00:00:00.000Z" });
 * const plan = planDream(snapshot, await resolvePolicy());
 * plan.actions; // frozen, one action per memory, strongest first
 */
export function planDream(
  snapshot: DreamSnapshot,
  policy: Policy,
  options: PlanDreamOptions = {},
): DreamPlan {
  const startedAt = options.startedAt ?? performance.now();
  const reviewing = options.review ?? options.analysers === undefined;
  const injections = reviewing ? injectionCandidates(snapshot) : [];
  // A possible injection is never merged into another memory nor reworded: it waits for a person.
  // Deleting it (noise, expiry, a credential) and redacting a credential in it still go ahead.
  const flagged = new Set(injections.map((item) => item.proposal.ids[0] as string));
  const proposals = (options.analysers ?? DEFAULT_ANALYSERS)
    .flatMap((analyse) => analyse(snapshot, policy))
    .filter((action) => !action.ids.some((id) => flagged.has(id)) || keepsFlagged(action));
  const guarded = guardActions(proposals, snapshot, policy);
  const actions = resolveOverlaps(guarded.actions).sort(
    (a, b) => precedenceRank(a) - precedenceRank(b) || compare(a.ids[0] ?? "", b.ids[0] ?? ""),
  );
  const review = reviewing ? reviewItems(snapshot, policy, actions, injections) : [];
  // Parsed like any plan: what apply will accept is checked where the plan is made.
  return parsePlan({
    version: PLAN_VERSION,
    scope: { ...snapshot.scope },
    now: snapshot.now,
    policy,
    reviewed: snapshot.memories.length,
    actions,
    review,
    seen: seenMemories([...actions, ...review.map((item) => item.proposal)], snapshot, policy),
    stats: planStats(actions, {
      reviewed: snapshot.memories.length,
      pinnedSkipped: guarded.pinnedSkipped.size,
      elapsedMs: Math.round(performance.now() - startedAt),
    }),
  });
}

/**
 * The review items for memories no action took, each guarded like an action (a pinned or
 * immutable memory is never merged; a pinned one is the suggestion of a conflict).
 */
function reviewItems(
  snapshot: DreamSnapshot,
  policy: Policy,
  actions: readonly DreamAction[],
  injections: readonly ReviewItem[],
): ReviewItem[] {
  const taken = new Set(actions.flatMap((action) => action.ids));
  const items: ReviewItem[] = [];
  // Possible injections first: the one review a person should not miss.
  for (const item of [...injections, ...reviewCandidates(snapshot, policy)]) {
    if (item.proposal.ids.some((id) => taken.has(id))) continue;
    const [proposal] = guardActions([item.proposal], snapshot, policy).actions;
    if (proposal === undefined || proposal.kind === "rewrite") continue;
    items.push({ ...item, proposal });
    for (const id of proposal.ids) taken.add(id);
  }
  return items;
}

/** What may still touch a possible injection: deleting it, or redacting a credential in it. */
function keepsFlagged(action: DreamAction): boolean {
  return (
    action.kind === "delete" ||
    (action.kind === "rewrite" && action.reasons.every((reason) => reason === "credential_redacted"))
  );
}

function seenMemories(
  actions: readonly DreamAction[],
  snapshot: DreamSnapshot,
  policy: Policy,
): Record<string, SeenMemory> {
  const ids = [...new Set(actions.flatMap((action) => action.ids))].sort(compare);
  const seen: Record<string, SeenMemory> = {};
  for (const id of ids) {
    const memory = snapshot.byId(id);
    if (memory === undefined) continue;
    seen[id] = {
      hash: memory.hash,
      updatedAt: memory.updatedAt,
      category: categoryOf(memory, policy),
      type: typeOf(memory),
      createdAt: memory.createdAt,
      pinned: memory.pinned,
      scope: scopeOfRow(memory),
    };
  }
  return seen;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
