/**
 * "Not expired at `visibility.now`", in PostgreSQL: no explicit expiry in the past, and no category
 * whose time-to-live has run out since creation. The categories and their cut-offs are bound as two
 * arrays, so the statement's text is the same whatever the policy (one prepared plan).
 *
 * @module
 */

import type { Visibility } from "../ports/memories.js";
import type { Params } from "./pg-params.js";

const DAY_MS = 86_400_000;

export function compilePgVisibility(visibility: Visibility | undefined, params: Params, alias = "m"): string {
  if (visibility === undefined) return "true";
  const now = Date.parse(visibility.now);
  const categories = Object.keys(visibility.ttlDaysByCategory);
  const cutoffs = Object.values(visibility.ttlDaysByCategory).map((days) =>
    new Date(now - days * DAY_MS).toISOString(),
  );
  const live = `(${alias}.expires_at is null or ${alias}.expires_at > ${params.add(visibility.now)})`;
  if (categories.length === 0) return live;
  return `(${live} and not exists (select 1 from unnest(${params.add(categories)}::text[], ${params.add(cutoffs)}::text[]) ttl(category, cutoff)
    where ${alias}.category = ttl.category and ${alias}.created_at < ttl.cutoff collate "C"))`;
}
