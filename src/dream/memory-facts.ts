/**
 * Facts about a snapshot memory that several analysers and the planner need: its category under
 * the policy, its age, and whether consolidation may change its text.
 *
 * @module
 */

import type { Policy } from "../policy/policy.js";
import type { SnapshotMemory } from "./snapshot.js";

const DAY_MS = 86_400_000;

/**
 * The memory's category: its own, else `metadata.type` when that names a policy category (Mem0's
 * dream skills file memories by `type`).
 *
 * @example
 * categoryOf({ category: null, metadata: { type: "session_state" } } as SnapshotMemory, policy); // => "session_state"
 */
export function categoryOf(memory: SnapshotMemory, policy: Policy): string | null {
  if (memory.category !== null) return memory.category;
  const type = memory.metadata.type;
  return typeof type === "string" && Object.hasOwn(policy.categories, type) ? type : null;
}

/** `metadata.type` when it is a string: Mem0's grouping key, shown in the report. */
export function typeOf(memory: Pick<SnapshotMemory, "metadata">): string | null {
  const type = memory.metadata.type;
  return typeof type === "string" ? type : null;
}

/** Fractional days from `createdAt` to `now`. */
export function ageInDays(createdAt: string, now: string): number {
  return (Date.parse(now) - Date.parse(createdAt)) / DAY_MS;
}

/** Immutable categories (identity by default) are never merged or rewritten, except to redact a secret. */
export function isImmutable(memory: SnapshotMemory, policy: Policy): boolean {
  const category = categoryOf(memory, policy);
  return category !== null && policy.categories[category]?.immutable === true;
}

/** The `YYYY-MM-DD` (UTC) of an ISO instant. */
export function isoDate(instant: string): string {
  return new Date(instant).toISOString().slice(0, 10);
}
