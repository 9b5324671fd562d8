import { statSync } from "node:fs";
import { SCOPE_KEYS, type ScopeKey } from "../../core/scope.js";
import type { StoreStats } from "../ports/maintenance.js";
import type { Visibility } from "../ports/memories.js";
import { compileVisibility } from "./sqlite-visibility.js";
import type { StatementCache } from "./statement-cache.js";

/** Counts for `status`: totals, expired, per scope value and per category, and the file's size. */
export function readStats(statements: StatementCache, location: string, visibility: Visibility): StoreStats {
  const count = (sql: string, ...params: unknown[]) =>
    (statements.get(sql).get(...params) as { n: number }).n;
  const total = count("select count(*) as n from memories");
  const visible = compileVisibility(visibility, "m");
  const live = count(`select count(*) as n from memories m where ${visible.sql}`, ...visible.params);
  const byScope = {} as Record<ScopeKey, Record<string, number>>;
  for (const key of SCOPE_KEYS) {
    const rows = statements
      .get(
        `select ${key} as value, count(*) as n from memories where ${key} is not null group by ${key} order by ${key}`,
      )
      .all() as { value: string; n: number }[];
    byScope[key] = Object.fromEntries(rows.map((row) => [row.value, row.n]));
  }
  const categories = statements
    .get("select coalesce(category, '') as value, count(*) as n from memories group by 1 order by 1")
    .all() as { value: string; n: number }[];
  return {
    total,
    expired: total - live,
    byScope,
    byCategory: Object.fromEntries(categories.map((row) => [row.value, row.n])),
    sizeBytes: fileSize(location),
  };
}

/** The database file plus its write-ahead log, which holds recent commits until a checkpoint. */
function fileSize(location: string): number | null {
  if (location === ":memory:") return null;
  const size = (path: string) => {
    try {
      return statSync(path).size;
    } catch {
      return 0;
    }
  };
  return size(location) + size(`${location}-wal`);
}
