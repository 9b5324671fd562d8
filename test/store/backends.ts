/**
 * The store backends the contract runs on, as Kysely reads its dialect list from the environment:
 * `LUCID_TEST_STORES=sqlite-file,sqlite-memory,postgres` (default: every backend this machine can run).
 *
 * PostgreSQL runs when `LUCID_PG_URL` names a server (with pgvector); each store gets a schema of its
 * own, dropped after the file. Without the variable it is skipped — unless `LUCID_REQUIRE_POSTGRES=1`
 * (CI sets it), when its absence fails the run instead of quietly testing less.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { postgresTestUrl, temporaryPostgresStores } from "../helpers/postgres.js";
import type { BackendUnderTest } from "./contract/harness.js";

function sqliteFile(): BackendUnderTest {
  const dir = mkdtempSync(join(tmpdir(), "lucid-contract-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let files = 0;
  return {
    name: "sqlite-file",
    make: async () => createSqliteStore({ path: join(dir, `store-${++files}.db`) }),
    skip: [],
  };
}

const sqliteMemory: BackendUnderTest = {
  name: "sqlite-memory",
  make: async () => createSqliteStore({ path: ":memory:" }),
  skip: [],
};

function postgres(): BackendUnderTest {
  const stores = temporaryPostgresStores();
  afterAll(() => stores.dropAll());
  return { name: "postgres", make: () => stores.make(), skip: [] };
}

const BACKENDS: Record<string, () => BackendUnderTest> = {
  "sqlite-file": sqliteFile,
  "sqlite-memory": () => sqliteMemory,
  postgres,
};

/** Every backend, PostgreSQL only where a server is configured. */
function defaultBackends(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.keys(BACKENDS).filter((name) => name !== "postgres" || postgresTestUrl(env) !== undefined);
}

/** The backends named by `LUCID_TEST_STORES`; an unknown name fails loudly rather than testing less. */
export function storeBackends(
  env: Readonly<Record<string, string | undefined>> = process.env,
): BackendUnderTest[] {
  const names = (env.LUCID_TEST_STORES ?? defaultBackends(env).join(","))
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  return names.map((name) => {
    const make = BACKENDS[name];
    if (make === undefined) {
      throw new Error(
        `LUCID_TEST_STORES names ${JSON.stringify(name)}; known: ${Object.keys(BACKENDS).join(", ")}`,
      );
    }
    return make();
  });
}
