import type { Policy } from "../policy/policy.js";
import type { DreamAction } from "./plan.js";
import type { DreamSnapshot } from "./snapshot.js";

/**
 * An analyser proposes actions for a snapshot. It is pure: same snapshot and policy, same actions.
 * Proposals may overlap; the planner keeps at most one action per memory by precedence.
 */
export type Analyser = (snapshot: DreamSnapshot, policy: Policy) => readonly DreamAction[];
