/**
 * The plans `lucid serve` keeps between plan and apply: by owner (another key's id reads as
 * unknown), an hour each, taken out while one applies, and at most MAX_PLANS per key — one key making plans never pushes out
 * another key's.
 */
import { describe, expect, it } from "vitest";
import type { DreamPlan } from "../../src/dream/plan.js";
import { isLucidError } from "../../src/errors.js";
import { createPlanStore, MAX_PLANS, PLAN_TTL_MS, type PlanStore } from "../../src/http/plan-store.js";

/** The store never looks inside a plan: any distinct object stands for one. */
const planNumbered = (n: number) => ({ reviewed: n }) as unknown as DreamPlan;

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    if (isLucidError(error)) return error.code;
    throw error;
  }
  return undefined;
}

/** The plan kept under `planId` for `owner`, left where it is: taken out and put back. */
function peek(plans: PlanStore, planId: string, owner: string): DreamPlan {
  const taken = plans.take(planId, owner);
  taken.restore();
  return taken.plan;
}

describe("the plan store", () => {
  it("gives a plan back to the key that made it, until it expires", () => {
    let clock = 1_000_000;
    const plans = createPlanStore(() => clock);
    const { planId, expiresAt } = plans.keep(planNumbered(1), "alice");
    expect(expiresAt).toBe(new Date(1_000_000 + PLAN_TTL_MS).toISOString());
    expect(peek(plans, planId, "alice")).toEqual(planNumbered(1));
    expect(codeOf(() => peek(plans, planId, "bob"))).toBe("PLAN_NOT_FOUND");
    clock += PLAN_TTL_MS;
    expect(codeOf(() => peek(plans, planId, "alice"))).toBe("PLAN_NOT_FOUND");
  });

  it("takes a plan out while it applies, and puts it back when asked", () => {
    const plans = createPlanStore();
    const { planId } = plans.keep(planNumbered(1), "");
    const taken = plans.take(planId, "");
    expect(taken.plan).toEqual(planNumbered(1));
    // A second apply meanwhile finds none.
    expect(codeOf(() => plans.take(planId, ""))).toBe("PLAN_NOT_FOUND");
    taken.restore();
    expect(peek(plans, planId, "")).toEqual(planNumbered(1));
    expect(codeOf(() => plans.take(planId, "someone else"))).toBe("PLAN_NOT_FOUND");
  });

  it("keeps at most MAX_PLANS per key, dropping that key's oldest, never another key's", () => {
    const plans = createPlanStore();
    const alices = plans.keep(planNumbered(0), "alice").planId;
    const bobs = Array.from({ length: MAX_PLANS }, (_, n) => plans.keep(planNumbered(n), "bob").planId);
    expect(peek(plans, alices, "alice")).toEqual(planNumbered(0));
    expect(peek(plans, bobs[0] as string, "bob")).toEqual(planNumbered(0));

    const newest = plans.keep(planNumbered(MAX_PLANS), "bob").planId;
    expect(codeOf(() => peek(plans, bobs[0] as string, "bob"))).toBe("PLAN_NOT_FOUND");
    expect(peek(plans, bobs[1] as string, "bob")).toEqual(planNumbered(1));
    expect(peek(plans, newest, "bob")).toEqual(planNumbered(MAX_PLANS));
    expect(peek(plans, alices, "alice")).toEqual(planNumbered(0));
  });
});
