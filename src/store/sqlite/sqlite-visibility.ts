import type { Visibility } from "../ports/memories.js";
import type { SqliteParam } from "./sqlite-filter.js";

const DAY_MS = 86_400_000;

/**
 * SQL for "not expired at `visibility.now`": no explicit expiry in the past, and no category whose
 * TTL has elapsed since creation. TTLs are applied here, at read time, so changing a policy
 * changes what is visible without rewriting rows.
 */
export function compileVisibility(
  visibility: Visibility | undefined,
  alias = "m",
): { sql: string; params: SqliteParam[] } {
  if (visibility === undefined) return { sql: "1", params: [] };
  const now = Date.parse(visibility.now);
  const params: SqliteParam[] = [visibility.now];
  const parts = [`(${alias}.expires_at is null or ${alias}.expires_at > ?)`];
  for (const [category, days] of Object.entries(visibility.ttlDaysByCategory)) {
    // `is not` rather than `not (… = …)`: a NULL category must count as "not this category".
    parts.push(`(${alias}.category is not ? or ${alias}.created_at >= ?)`);
    params.push(category, new Date(now - days * DAY_MS).toISOString());
  }
  return { sql: `(${parts.join(" and ")})`, params };
}
