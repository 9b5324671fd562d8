/**
 * PostgreSQL for tests: the server `LUCID_PG_URL` names (CI starts one, `.ci/postgres.sh`), and
 * stores in schemas of their own, so files running side by side never see each other's rows.
 *
 * Without `LUCID_PG_URL` the PostgreSQL tests skip; with `LUCID_REQUIRE_POSTGRES=1` (CI) its absence
 * is an error instead, so CI never passes by testing less.
 */

import pg from "pg";
import type { PostgresStoreOptions } from "../../src/store/postgres/pg-options.js";
import { openPostgresStore } from "../../src/store/postgres/pg-store.js";
import type { MemoryStore } from "../../src/store/store.js";

type Env = Readonly<Record<string, string | undefined>>;

/** The test server's URL, or undefined when none is configured (and none is required). */
export function postgresTestUrl(env: Env = process.env): string | undefined {
  const url = env.LUCID_PG_URL?.trim();
  if (url !== undefined && url !== "") return url;
  if (env.LUCID_REQUIRE_POSTGRES === "1") {
    throw new Error(
      "LUCID_REQUIRE_POSTGRES=1 but LUCID_PG_URL is not set: start a server (.ci/postgres.sh).",
    );
  }
  return undefined;
}

let schemas = 0;

/** A schema name no other test process uses. */
export function uniqueSchema(prefix = "lucid_test"): string {
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${++schemas}`;
}

/** Makes stores in fresh schemas; `dropAll` removes every schema it made. */
export function temporaryPostgresStores(options: Partial<PostgresStoreOptions> = {}): {
  make: (extra?: Partial<PostgresStoreOptions>) => Promise<MemoryStore>;
  /** Drops this schema with the others (one a test made by hand). */
  adopt: (schema: string) => void;
  dropAll: () => Promise<void>;
  readonly url: string;
  readonly schemas: readonly string[];
} {
  const url = postgresTestUrl() ?? "";
  const made: string[] = [];
  return {
    url,
    schemas: made,
    async make(extra = {}) {
      const schema = extra.schema ?? uniqueSchema();
      made.push(schema);
      return openPostgresStore({ url, pool: { max: 4 }, ...options, ...extra, schema });
    },
    adopt(schema) {
      made.push(schema);
    },
    async dropAll() {
      if (made.length === 0) return;
      await dropSchemas(url, made.splice(0));
    },
  };
}

export async function dropSchemas(url: string, names: readonly string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const name of names) await client.query(`drop schema if exists "${name}" cascade`);
  } finally {
    await client.end();
  }
}
