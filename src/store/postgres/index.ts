/**
 * lucid-memory/postgres: the PostgreSQL + pgvector store, for opening one yourself (a pool of your
 * own size, a schema of your choice) and handing it to `openMemory`. `openMemory({ store:
 * "postgres://…" })` opens one for you; this subpath is for the rest.
 *
 * @example
 * import { openMemory } from "lucid-memory";
 * import { openPostgresStore } from "lucid-memory/postgres";
 *
 * const store = await openPostgresStore({ url: process.env.LUCID_PG_URL ?? "", pool: { max: 20 } });
 * const memory = await openMemory({ store });
 *
 * @module
 */

export type { PostgresPoolOptions, PostgresStoreOptions } from "./pg-options.js";
export { POSTGRES_DEFAULTS, redactUrl } from "./pg-options.js";
export { openPostgresStore, POSTGRES_SCHEMA_VERSION } from "./pg-store.js";
