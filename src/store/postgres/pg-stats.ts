/**
 * Counts for `status` in PostgreSQL: totals, expired, per scope value and per category, and the
 * bytes the store's tables and indexes take.
 *
 * @module
 */

import { SCOPE_KEYS, type ScopeKey } from "../../core/scope.js";
import type { StoreStats } from "../ports/maintenance.js";
import type { Visibility } from "../ports/memories.js";
import { Params } from "./pg-params.js";
import { type Sql, toNumber } from "./pg-sql.js";
import { compilePgVisibility } from "./pg-visibility.js";

export async function readPgStats(sql: Sql, visibility: Visibility): Promise<StoreStats> {
  const params = new Params();
  const visible = compilePgVisibility(visibility, params);
  const counts = await sql.one<{ total: string; live: string }>(
    `select count(*) as total, count(*) filter (where ${visible}) as live from memories m`,
    params.values,
  );
  const total = toNumber(counts?.total ?? 0);
  const byScope = {} as Record<ScopeKey, Record<string, number>>;
  for (const key of SCOPE_KEYS) {
    // `key` is one of the four scope column names, not input.
    const rows = await sql.rows<{ value: string; n: string }>(
      `select ${key} as value, count(*) as n from memories where ${key} is not null group by ${key} order by ${key}`,
    );
    byScope[key] = Object.fromEntries(rows.map((row) => [row.value, toNumber(row.n)]));
  }
  const categories = await sql.rows<{ value: string; n: string }>(
    `select coalesce(category, '') as value, count(*) as n from memories group by 1 order by 1`,
  );
  const size = await sql.one<{ bytes: string | null }>(
    `select sum(pg_total_relation_size(c.oid)) as bytes from pg_class c
     join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind = 'r'`,
  );
  return {
    total,
    expired: total - toNumber(counts?.live ?? 0),
    byScope,
    byCategory: Object.fromEntries(categories.map((row) => [row.value, toNumber(row.n)])),
    sizeBytes: size?.bytes === null || size?.bytes === undefined ? null : toNumber(size.bytes),
  };
}
