/**
 * Opening the store `MemoryOptions` name — the composition root's choice of backend, shared by
 * `openMemory` and `lucid migrate` (which opens two): an instance as given, PostgreSQL from a URL or
 * its settings, or the SQLite file (by default `~/.lucid/lucid.db`). Each backend is loaded when a
 * store names it — a SQLite user never loads `pg` — so the CLI may import this module at start.
 *
 * @module
 */

import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { DATABASE_FILE_NAME, defaultHome } from "../config/home.js";
import { LucidError } from "../errors.js";
import { isPostgresUrl } from "../store/postgres/pg-options.js";
import type { MemoryStore } from "../store/store.js";
import type { MemoryOptions } from "./create-context.js";

export { isPostgresUrl, POSTGRES_DEFAULTS, redactUrl } from "../store/postgres/pg-options.js";

type StoreOptions = Pick<MemoryOptions, "store" | "path" | "readOnly" | "busyTimeoutMs">;

export function isStoreInstance(store: MemoryOptions["store"]): store is MemoryStore {
  return typeof store === "object" && store !== null && "transaction" in store;
}

/**
 * The store the options name, opened (and for SQLite created, with its directory).
 *
 * @example
 * const store = await openStore({ store: "postgres://lucid@db.internal/lucid" });
 * const file = await openStore({ path: "./agent.db" });
 */
export async function openStore(options: StoreOptions): Promise<MemoryStore> {
  const given = options.store;
  if (given === undefined) return openSqlite(options);
  if (isStoreInstance(given)) return given;
  if (typeof given === "string" && !isPostgresUrl(given)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `store must be a PostgreSQL URL (postgres://user@host/database), a store's settings or a store; for a SQLite file, pass path. Got ${JSON.stringify(given.slice(0, 40))}.`,
    );
  }
  if (typeof given === "object" && (given as { provider?: unknown }).provider !== "postgres") {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `store settings need provider "postgres", got ${JSON.stringify((given as { provider?: unknown }).provider)}.`,
    );
  }
  const { openPostgresStore } = await import("../store/postgres/pg-store.js");
  if (typeof given === "string") return openPostgresStore({ url: given });
  const { provider: _provider, ...settings } = given;
  return openPostgresStore(settings);
}

async function openSqlite(options: StoreOptions): Promise<MemoryStore> {
  const path = options.path ?? join(defaultHome(), DATABASE_FILE_NAME);
  if (path !== ":memory:" && options.readOnly !== true) mkdirSync(dirname(path), { recursive: true });
  const { createSqliteStore } = await import("../store/sqlite/sqlite-store.js");
  return createSqliteStore({ path, readOnly: options.readOnly, busyTimeoutMs: options.busyTimeoutMs });
}
