/**
 * The dream plans `lucid serve` made and not yet applied. A plan goes to the client masked (a
 * credential stored under `secrets.onAdd: "allow"` is never sent), so the client cannot send it
 * back to be applied — its merged texts would carry the masks. It applies the plan by id instead:
 * the one this server made, unmasked, for the same key, once. Plans live an hour and each key keeps
 * at most {@link MAX_PLANS} at a time (its oldest goes first: one key's plans never push out
 * another's); a restart forgets them all.
 *
 * @module
 */

import { randomUUID } from "node:crypto";
import type { DreamPlan } from "../dream/plan.js";
import { LucidError } from "../errors.js";

export const PLAN_TTL_MS = 60 * 60 * 1000;
/** Per key (or, without keys, for the server's one caller). */
export const MAX_PLANS = 100;

interface KeptPlan {
  readonly plan: DreamPlan;
  /** The key that made it (`""` without keys): another key's id reads as an unknown one. */
  readonly owner: string;
  readonly expiresAt: number;
  /** The order plans were made in: the oldest are dropped first. */
  readonly made: number;
}

export interface PlanStore {
  /** Keeps a plan; its id and when it expires. */
  keep(plan: DreamPlan, owner: string): { planId: string; expiresAt: string };
  /**
   * Takes the plan out while it is applied, so a second apply of the same id meanwhile finds none
   * (PLAN_NOT_FOUND, as for an id unknown, expired or another owner's); `restore` puts it back as
   * it was, for an apply that changed nothing or failed.
   */
  take(planId: string, owner: string): { plan: DreamPlan; restore(): void };
}

export function createPlanStore(now: () => number = Date.now): PlanStore {
  const plans = new Map<string, KeptPlan>();
  let made = 0;
  const sweep = (owner: string) => {
    const at = now();
    const owned: [string, KeptPlan][] = [];
    for (const [id, kept] of plans) {
      if (kept.expiresAt <= at) plans.delete(id);
      else if (kept.owner === owner) owned.push([id, kept]);
    }
    // Oldest first by when it was made, not by where it sits in the map: a plan put back after a
    // failed apply keeps its age.
    owned.sort((a, b) => a[1].made - b[1].made);
    for (const [id] of owned.slice(0, Math.max(0, owned.length - MAX_PLANS + 1))) plans.delete(id);
  };
  const get = (planId: string, owner: string): KeptPlan => {
    const kept = plans.get(planId);
    if (kept === undefined || kept.owner !== owner || kept.expiresAt <= now()) {
      throw new LucidError(
        "PLAN_NOT_FOUND",
        `No dream plan ${JSON.stringify(planId)} is kept for you: a plan applies once, lives an hour, and is forgotten when the server restarts. Make a new one with POST /lucid/v1/dream/plan.`,
        { details: { planId } },
      );
    }
    return kept;
  };
  return {
    keep(plan, owner) {
      sweep(owner);
      const planId = `plan-${randomUUID()}`;
      const expiresAt = now() + PLAN_TTL_MS;
      plans.set(planId, { plan, owner, expiresAt, made: made++ });
      return { planId, expiresAt: new Date(expiresAt).toISOString() };
    },
    take(planId, owner) {
      const kept = get(planId, owner);
      plans.delete(planId);
      return {
        plan: kept.plan,
        restore: () => {
          if (kept.expiresAt > now()) plans.set(planId, kept);
        },
      };
    },
  };
}
