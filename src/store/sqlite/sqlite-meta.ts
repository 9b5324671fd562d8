/**
 * The `meta` table: the store's own key/value facts (its embedder, a re-embedding under way).
 *
 * @module
 */

import type { StatementCache } from "./statement-cache.js";

export interface SqliteMeta {
  get(key: string): string | null;
  set(key: string, value: string): void;
}

export function createSqliteMeta(statements: StatementCache): SqliteMeta {
  return {
    get(key) {
      const row = statements.get("select value from meta where key = ?").get(key) as
        | { value: string }
        | undefined;
      return row?.value ?? null;
    },
    set(key, value) {
      statements
        .get(
          "insert into meta(key, value) values (?, ?) on conflict(key) do update set value = excluded.value",
        )
        .run(key, value);
    },
  };
}
