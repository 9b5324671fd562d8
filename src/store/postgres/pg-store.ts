/**
 * The scale-out store: PostgreSQL with pgvector, reached through a bounded pool of connections, so
 * many processes on many machines share one memory. Each sub-port is one role file (`pg-memories.ts`,
 * `pg-search.ts`…) written against `Sql`; this file composes them and owns connections and
 * transactions.
 *
 * - A call outside a transaction takes a pooled connection and runs as one transaction of its own,
 *   so an operation of several statements (a memory with its entity links) is atomic.
 * - `transaction(fn)` holds one connection for the callback; nested ones are savepoints. As in the
 *   SQLite store, a call through the store itself from inside a callback is refused: it would run on
 *   another connection, outside the transaction.
 * - A connection refused, lost, or timed out is STORE_UNAVAILABLE. A single operation is retried
 *   (with backoff, for `retryForMs`) when it failed before its commit was sent, since the server
 *   rolled it back; a transaction's callback is never re-run, since it may have done work outside
 *   the database.
 *
 * @module
 */

import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import { LucidError } from "../../errors.js";
import type { MemoryStore, MemoryStoreOps, StoreCapabilities } from "../store.js";
import { calledInsideOwnTransaction, storeClosed } from "../store-errors.js";
import { isConnectionError, translatePostgresError } from "./pg-errors.js";
import { createPgMaintenance } from "./pg-maintenance.js";
import { createPgOperations, type PgOperations, type PgSettings } from "./pg-operations.js";
import { isPostgresUrl, POSTGRES_DEFAULTS, type PostgresStoreOptions, redactUrl } from "./pg-options.js";
import { assertSchemaName, migratePostgres, SCHEMA_VERSION } from "./pg-schema.js";
import { createPgSnapshots } from "./pg-snapshots.js";
import { type Sql, sqlOn } from "./pg-sql.js";
import { createPgTransfer } from "./pg-transfer.js";

const CAPABILITIES: StoreCapabilities = Object.freeze({
  backend: "postgres",
  ann: true,
  concurrentWriters: true,
});

/** A failure that happened before anything was sent: retrying it cannot do anything twice. */
class NotStarted extends Error {
  constructor(readonly failure: unknown) {
    super("not started: no connection");
  }
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) {
    throw new LucidError("INVALID_ARGUMENT", `${name} must be a positive integer, got ${value}.`);
  }
  return value;
}

/**
 * Opens (creating and migrating as needed) a memory store in a PostgreSQL database with pgvector.
 *
 * @example
 * const store = await openPostgresStore({ url: "postgres://lucid@db.internal/lucid" });
 * const memory = await openMemory({ store });
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<MemoryStore> {
  const schema = options.schema ?? POSTGRES_DEFAULTS.schema;
  assertSchemaName(schema);
  if (typeof options.url !== "string" || !isPostgresUrl(options.url.trim())) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      "A PostgreSQL store needs a url of the form postgres://user@host:port/database.",
    );
  }
  const location = `${redactUrl(options.url)} (schema ${schema})`;
  const settings: PgSettings = {
    exactSearchBelow: positiveInteger(
      "exactSearchBelow",
      options.exactSearchBelow,
      POSTGRES_DEFAULTS.exactSearchBelow,
    ),
  };
  const efSearch = positiveInteger("efSearch", options.efSearch, POSTGRES_DEFAULTS.efSearch);
  const retryForMs = options.retryForMs ?? POSTGRES_DEFAULTS.retryForMs;
  if (!Number.isFinite(retryForMs) || retryForMs < 0) {
    throw new LucidError("INVALID_ARGUMENT", `retryForMs must be 0 or more milliseconds, got ${retryForMs}.`);
  }
  const { url, startupOptions } = splitStartupOptions(options.url);
  const poolOptions = {
    connectionString: url,
    // A silent network cut (no reset) is noticed in seconds, not after TCP's ~15 minutes of retries.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    max: positiveInteger("pool.max", options.pool?.max, POSTGRES_DEFAULTS.max),
    idleTimeoutMillis: positiveInteger(
      "pool.idleTimeoutMs",
      options.pool?.idleTimeoutMs,
      POSTGRES_DEFAULTS.idleTimeoutMs,
    ),
    connectionTimeoutMillis: positiveInteger(
      "pool.connectionTimeoutMs",
      options.pool?.connectionTimeoutMs,
      POSTGRES_DEFAULTS.connectionTimeoutMs,
    ),
    // The URL's own `application_name` (how an operator tells processes apart in pg_stat_activity) wins.
    ...(hasApplicationName(options.url) ? {} : { application_name: "lucid-memory" }),
  };

  const translate = (error: unknown) => translatePostgresError(error, location);
  let closed = false;
  const retrying = async <T>(attempt: () => Promise<T>): Promise<T> => {
    const deadline = Date.now() + retryForMs;
    for (let pause = 25; ; pause = Math.min(pause * 2, 500)) {
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof NotStarted)) throw error;
        if (closed || Date.now() + pause > deadline) throw translate(error.failure);
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  };
  const vectorSchema = await retrying(() =>
    withBootstrap({ ...poolOptions, options: startupOptions }, (client) => ensureVector(client, location)),
  ).catch((error: unknown) => Promise.reject(translate(error)));
  const pool = new pg.Pool({
    ...poolOptions,
    // Every connection resolves the store's tables first, then pgvector's type and operators. The
    // HNSW scan keeps going past rows a filter removes (pgvector ≥ 0.8), so a filtered ANN search is
    // never the post-filter trap of returning too few rows; results are re-sorted exactly.
    // Appended to the URL's own `options`, which pg would otherwise put in their place.
    options: [
      startupOptions,
      `-c search_path=${schema},${vectorSchema} -c hnsw.iterative_scan=relaxed_order -c hnsw.ef_search=${efSearch}`,
    ]
      .filter((part) => part !== "")
      .join(" "),
  });
  // An idle connection the server drops emits here; the pool discards it, and the next call gets a new one.
  pool.on("error", () => undefined);

  /** A pooled connection, retried while the server cannot be reached, up to `retryForMs`. */
  const listening = new WeakSet<pg.PoolClient>();
  const connect = async (): Promise<pg.PoolClient> =>
    retrying(async () => {
      try {
        const client = await pool.connect();
        // A checked-out connection the server ends emits `error` besides failing its query; with no
        // listener that event would end the process. The failed query already reports it.
        if (!listening.has(client)) {
          client.on("error", () => undefined);
          listening.add(client);
        }
        return client;
      } catch (error) {
        throw isConnectionError(error) ? new NotStarted(error) : error;
      }
    });

  let schemaVersion: number;
  try {
    const client = await connect();
    try {
      schemaVersion = await migratePostgres(client, schema, location, vectorSchema);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw translate(error);
  }

  const inside = new AsyncLocalStorage<true>();
  const open = () => {
    if (inside.getStore() !== undefined) throw calledInsideOwnTransaction();
    if (closed) throw storeClosed(location);
  };

  /**
   * Runs `fn` in a transaction on one pooled connection (or, `autocommit`, as the one statement it
   * is). With `retry`, a call the server rolled back whole — its connection lost before the commit
   * was sent, or chosen as a deadlock's victim — is tried again on a new connection.
   */
  const inTransaction = async <T>(
    fn: (sql: Sql, client: pg.PoolClient) => Promise<T>,
    retry: boolean,
    autocommit = false,
  ) => {
    open();
    return retrying(async () => {
      const client = await connect();
      let committing = false;
      let broken: unknown;
      try {
        if (!autocommit) await client.query("begin");
        const result = await fn(sqlOn(client), client);
        committing = true;
        // A transaction in which a statement failed (and the callback caught it) commits as a
        // rollback, silently: that is a failure, not a success with half the writes gone.
        if (!autocommit && (await client.query("commit")).command === "ROLLBACK") {
          throw new LucidError(
            "STORE_FAILED",
            `A statement of this transaction failed in ${location}, so PostgreSQL rolled all of it back. Nothing was written; use tx.transaction(…) around a step that may fail.`,
          );
        }
        return result;
      } catch (error) {
        if (isConnectionError(error)) broken = error;
        else if (!autocommit && !committing)
          await client.query("rollback").catch((rollbackError: unknown) => (broken = rollbackError));
        if (retry && !committing && (broken !== undefined ? isConnectionError(error) : isRetryable(error)))
          throw new NotStarted(error);
        if (committing && broken !== undefined) throw commitUnknown(error, location);
        throw translate(error);
      } finally {
        // A connection that failed is closed, not returned to the pool.
        client.release(broken instanceof Error ? broken : undefined);
      }
    });
  };

  const single = <T>(name: string, fn: (ops: PgOperations) => Promise<T>): Promise<T> =>
    inTransaction((sql) => fn(createPgOperations(sql, settings)), true, SINGLE_STATEMENT_READS.has(name));

  const handle = (sql: Sql, depth: number): MemoryStoreOps => {
    const ops = createPgOperations(sql, settings, true);
    return {
      ...wrapErrors(ops, translate),
      transaction: async (fn) => {
        const name = `lucid_${depth + 1}`;
        await sql.run(`savepoint ${name}`).catch((error: unknown) => Promise.reject(translate(error)));
        try {
          const result = await fn(handle(sql, depth + 1));
          await sql.run(`release savepoint ${name}`);
          return result;
        } catch (error) {
          await sql.run(`rollback to savepoint ${name}`).catch(() => undefined);
          await sql.run(`release savepoint ${name}`).catch(() => undefined);
          throw error;
        }
      },
    };
  };

  const operations = routeThrough<PgOperations>(createPgOperations(NO_SQL, settings), single);
  const maintenance = createPgMaintenance({
    location,
    schema,
    single: (fn) => inTransaction((sql) => fn(sql), true),
    outside: async (fn) => {
      open();
      const client = await connect();
      try {
        return await fn(sqlOn(client));
      } catch (error) {
        throw translate(error);
      } finally {
        client.release();
      }
    },
  });
  const snapshots = createPgSnapshots({
    connect: async () => {
      open();
      return connect();
    },
    translate,
  });
  const transfer = createPgTransfer({
    location,
    connect: async () => {
      open();
      return connect();
    },
    translate,
    transaction: (fn) => inTransaction((sql) => fn(sql), true),
    maintenance,
  });

  return {
    ...operations,
    ...maintenance,
    ...transfer,
    streamMemories: (query) => {
      open();
      return snapshots.streamMemories(query);
    },
    capabilities: CAPABILITIES,
    location,
    schemaVersion,
    transaction: (fn) => inTransaction((sql) => inside.run(true, () => fn(handle(sql, 0))), false),
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

export { SCHEMA_VERSION as POSTGRES_SCHEMA_VERSION };

/** Role files are built per connection; this one only lends its method names. */
const NO_SQL: Sql = {
  rows: () => Promise.reject(new Error("no connection")),
  one: () => Promise.reject(new Error("no connection")),
  run: () => Promise.reject(new Error("no connection")),
};

/**
 * Operations that are one read statement (keyword search: two, the first only choosing the plan):
 * outside a transaction they run as it alone (PostgreSQL makes a single statement atomic), saving
 * the `begin` and `commit` round trips — a hybrid search makes several such calls. Every other call
 * runs in a transaction of its own.
 */
const SINGLE_STATEMENT_READS: ReadonlySet<string> = new Set([
  "getMemory",
  "getMemories",
  "idsWithPrefix",
  "findByHash",
  "getEmbeddings",
  "embedderStamp",
  "nextThreadPosition",
  "getEntityLinks",
  "searchKeyword",
  "candidateRows",
  "speakersNamed",
  "searchEntities",
  "listHistory",
  "listMessages",
  "listRuns",
  "runsTouching",
  "listPreimages",
  "getRecalls",
  "listRecalls",
  "getSleepState",
  "listSleepState",
  "listSleepEvents",
  "listNoteFiles",
  "searchNotesDense",
  "searchNotesKeyword",
]);

/** Each method of `template`, run by `run` (told its name) on the operations of a connection it provides. */
function routeThrough<P extends object>(
  template: P,
  run: <R>(name: string, fn: (ops: P) => Promise<R>) => Promise<R>,
): P {
  const port: Record<string, unknown> = {};
  for (const name of Object.keys(template)) {
    port[name] = (...args: unknown[]) =>
      run(
        name,
        (ops) =>
          (ops as Record<string, (...a: unknown[]) => Promise<unknown>>)[name]?.(...args) as Promise<never>,
      );
  }
  return port as P;
}

/** Deadlock victims and serialization failures: the server rolled the whole call back. */
function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "40P01" || code === "40001";
}

/** The connection went while COMMIT was on its way: whether it committed is not known. */
function commitUnknown(error: unknown, location: string): LucidError {
  return new LucidError(
    "STORE_UNAVAILABLE",
    `The connection to ${location} was lost while committing, so whether this call's writes were saved is not known. Check (a get, a list) before writing again.`,
    { cause: error, details: { location, outcome: "unknown" } },
  );
}

/**
 * The URL without its `options` parameter, and that parameter: pg would let the URL's replace
 * the store's own startup options (its search path), so the two are joined instead.
 */
function splitStartupOptions(url: string): { url: string; startupOptions: string } {
  try {
    const parsed = new URL(url);
    const given = parsed.searchParams.get("options");
    if (given === null) return { url, startupOptions: "" };
    parsed.searchParams.delete("options");
    return { url: parsed.toString(), startupOptions: given };
  } catch {
    return { url, startupOptions: "" };
  }
}

function hasApplicationName(url: string): boolean {
  try {
    return new URL(url).searchParams.has("application_name");
  } catch {
    return false;
  }
}

/** Each method of `ops` with its failures translated. */
function wrapErrors<P extends object>(ops: P, translate: (error: unknown) => unknown): P {
  const port: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(ops)) {
    const call = method as (...args: unknown[]) => Promise<unknown>;
    port[name] = (...args: unknown[]) =>
      call(...args).catch((error: unknown) => Promise.reject(translate(error)));
  }
  return port as P;
}

/** A connection outside the pool, for what must happen before the pool's settings are known. */
async function withBootstrap<T>(config: pg.ClientConfig, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(config);
  client.on("error", () => undefined);
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    // Nothing ran: retried while the server cannot be reached.
    throw isConnectionError(error) ? new NotStarted(error) : error;
  }
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The schema pgvector lives in, installing it when this role may. */
async function ensureVector(client: pg.Client, location: string): Promise<string> {
  const find = async () =>
    (
      await client.query<{ schema: string }>(
        `select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
         where e.extname = 'vector'`,
      )
    ).rows[0]?.schema;
  const found = await find();
  if (found !== undefined) return quoteIdentifier(found);
  try {
    // Into public, not the first schema of the search path (which may be a store's own).
    await client.query("create extension if not exists vector schema public");
  } catch (error) {
    const installed = await find().catch(() => undefined);
    if (installed !== undefined) return quoteIdentifier(installed);
    throw new LucidError(
      "STORE_FAILED",
      `The PostgreSQL database at ${location} has no pgvector extension, and this role could not create it (${(error as Error).message}). Install pgvector on the server, then run "create extension vector" as a superuser.`,
      { cause: error, details: { location } },
    );
  }
  return "public";
}

function quoteIdentifier(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`;
}
