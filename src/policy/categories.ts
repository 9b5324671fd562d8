/**
 * Memory categories: how important a kind of fact is, how long it stays true, and whether it may
 * ever change. Defaults follow Mem0's OpenClaw plugin (`DEFAULT_CATEGORIES`) and its OpenCode dream
 * skill (session_state and compact_summary expire after 90 days); `task_learning` is where Mem0's
 * dream skill files its reminders.
 *
 * @module
 */

import { LucidError } from "../errors.js";

export interface CategoryPolicy {
  /** 0–1; how much a memory of this kind matters when ranking or pruning. */
  readonly importance: number;
  /** Days after creation when a memory of this kind expires; null = never. */
  readonly ttlDays: number | null;
  /** Immutable memories are never merged or rewritten by consolidation. */
  readonly immutable: boolean;
}

export type CategoryTable = Readonly<Record<string, CategoryPolicy>>;

const category = (importance: number, ttlDays: number | null = null, immutable = false): CategoryPolicy =>
  Object.freeze({ importance, ttlDays, immutable });

export const DEFAULT_CATEGORIES: CategoryTable = Object.freeze({
  identity: category(0.95, null, true),
  configuration: category(0.95),
  rule: category(0.9),
  preference: category(0.85),
  decision: category(0.8),
  technical: category(0.8),
  relationship: category(0.75),
  project: category(0.75, 90),
  operational: category(0.6, 7),
  session_state: category(0.5, 90),
  compact_summary: category(0.5, 90),
  task_learning: category(0.7),
});

/** Category TTLs as the store's read-time expiry rule wants them. */
export function ttlDaysByCategory(categories: CategoryTable): Record<string, number> {
  const ttls: Record<string, number> = {};
  for (const [name, policy] of Object.entries(categories)) {
    if (policy.ttlDays !== null) ttls[name] = policy.ttlDays;
  }
  return ttls;
}

/** Longest category label kept: a label, not a note. */
export const MAX_CATEGORY_LENGTH = 100;

/**
 * The category of a new memory: the explicit option, else `metadata.category`, else
 * `metadata.type` when it names a category (Mem0's dream skills file memories by `type`, which other
 * tools use freely). As in Mem0, a category is a label: one the table does not define is kept as
 * given, with the default policy (no TTL, never immutable). With `strict` (the policy's
 * `strictCategories`) it is refused instead, so a typo cannot escape its retention rule.
 *
 * @throws LucidError `INVALID_ARGUMENT` for a category that is not a string of 1–100 characters
 *   (blank, or only spaces); `UNKNOWN_CATEGORY` for an undefined one when `strict`.
 * @example
 * resolveCategory(undefined, { category: "movie_recommendations" }, DEFAULT_CATEGORIES); // => "movie_recommendations"
 */
export function resolveCategory(
  explicit: string | null | undefined,
  metadata: Readonly<Record<string, unknown>>,
  categories: CategoryTable,
  strict = false,
): string | null {
  const type = metadata.type;
  const typeCategory = typeof type === "string" && Object.hasOwn(categories, type) ? type : undefined;
  const candidate = explicit ?? metadata.category ?? typeCategory;
  if (candidate === undefined || candidate === null) return null;
  if (typeof candidate !== "string" || candidate.trim() === "" || candidate.length > MAX_CATEGORY_LENGTH) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `A category is a label of 1–${MAX_CATEGORY_LENGTH} characters, got ${JSON.stringify(candidate)}.`,
      { details: { category: candidate } },
    );
  }
  if (strict && !Object.hasOwn(categories, candidate)) {
    throw new LucidError(
      "UNKNOWN_CATEGORY",
      `Unknown category ${JSON.stringify(candidate)} (policy.strictCategories is on). Use one of: ${Object.keys(categories).join(", ")}; or declare it in policy.categories.`,
      { details: { category: candidate } },
    );
  }
  return candidate;
}
