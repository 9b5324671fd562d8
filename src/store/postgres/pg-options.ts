/**
 * How a PostgreSQL store is reached and tuned.
 *
 * @module
 */

export interface PostgresPoolOptions {
  /** Connections this process keeps at most. Default 10. */
  readonly max?: number;
  /** How long an idle connection stays open, in ms. Default 30,000. */
  readonly idleTimeoutMs?: number;
  /** How long to wait for a connection (the server's or the pool's), in ms. Default 10,000. */
  readonly connectionTimeoutMs?: number;
}

export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database`; libpq's variables (PGHOST…) fill what it leaves out. */
  readonly url: string;
  /**
   * The PostgreSQL schema the store's tables live in. Default `lucid`. One database can hold several
   * stores, one per schema. A plain lower-case identifier.
   */
  readonly schema?: string;
  readonly pool?: PostgresPoolOptions;
  /**
   * Dense search is exact (every vector of the matching memories compared) while at most this many
   * memories match the query's filter, and goes through the HNSW index above it. Default 10,000.
   */
  readonly exactSearchBelow?: number;
  /** HNSW's candidate list when the index is used (`hnsw.ef_search`). Default 100. */
  readonly efSearch?: number;
  /**
   * How long a call waits, in all, to reach the server when a connection cannot be had or was lost
   * before anything ran, retrying with backoff. Default 5,000 ms.
   */
  readonly retryForMs?: number;
}

export const POSTGRES_DEFAULTS = {
  schema: "lucid",
  max: 10,
  idleTimeoutMs: 30_000,
  connectionTimeoutMs: 10_000,
  exactSearchBelow: 10_000,
  efSearch: 100,
  retryForMs: 5_000,
} as const;

/** Query parameters of a connection URL that hold secrets (libpq's and pg's names). */
const SECRET_PARAMETERS = ["password", "sslpassword", "sslkey"];

/**
 * `postgres://user:secret@host/db` → `postgres://user:***@host/db`, for messages and `status`; a
 * password given as a query parameter (`?password=…`) is masked too.
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    for (const name of SECRET_PARAMETERS) {
      if (parsed.searchParams.has(name)) parsed.searchParams.set(name, "***");
    }
    return parsed.toString();
  } catch {
    return "postgres://(unparsable url)";
  }
}

/** Whether a string names a PostgreSQL server rather than a SQLite file. */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}
