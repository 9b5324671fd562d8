import { existsSync, readFileSync } from "node:fs";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { LucidError } from "../../errors.js";
import { translateSqliteError } from "./sqlite-errors.js";
import type { SqliteOpenOptions } from "./sqlite-options.js";
import { migrate, SCHEMA_VERSION } from "./sqlite-schema.js";

export type { SqliteOpenOptions } from "./sqlite-options.js";

export interface OpenedDatabase {
  readonly db: Database.Database;
  /**
   * Set when the store was asked to be writable but this process cannot write to it (a read-only
   * directory or file): it is open read-only instead, so reads work, and this says why writes fail.
   */
  readonly readOnlyBecause?: string;
  /** The connection reads a copy of the file in memory (no second connection can see it). */
  readonly inMemoryCopy: boolean;
}

/**
 * Opens (creating if needed) and migrates a Lucid SQLite file. A file this process may read but not
 * write — its directory is read-only, so SQLite cannot create the write-ahead log beside it — is
 * opened read-only instead: reads work, writes fail with `STORE_READ_ONLY` saying why.
 *
 * Every check that can refuse the file runs before anything is written to it: a corrupt file, a
 * non-Lucid database or a newer schema fail with a clear error and leave the bytes as they were.
 */
export function openSqliteDatabase(options: SqliteOpenOptions): OpenedDatabase {
  const { path } = options;
  try {
    return { db: openFile(options), inMemoryCopy: false };
  } catch (error) {
    if (options.readOnly === true || path === ":memory:" || !existsSync(path) || !cannotWrite(error))
      throw error;
  }
  const readOnlyBecause = `this process cannot write to ${path} or its directory`;
  try {
    return { db: openFile({ ...options, readOnly: true }), readOnlyBecause, inMemoryCopy: false };
  } catch (error) {
    if (!cannotWrite(error)) throw error;
  }
  // Reading a file in write-ahead-log mode needs its index (`-shm`) beside it, which cannot be
  // created here: read a copy of the file instead, marked as a rollback-journal file (its header's
  // bytes 18–19), which SQLite reads from memory. What was committed before the copy is seen.
  const copy = readFileSync(path);
  if (copy.length >= 20) copy.fill(1, 18, 20);
  return { db: openFile({ ...options, readOnly: true }, copy), readOnlyBecause, inMemoryCopy: true };
}

/** A failure to write (or create beside) the file: permissions, a read-only directory or file system. */
function cannotWrite(error: unknown): boolean {
  const cause = error instanceof LucidError && error.cause !== undefined ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return false;
  return (
    code.startsWith("SQLITE_READONLY") ||
    code === "SQLITE_CANTOPEN" ||
    code === "SQLITE_PERM" ||
    code === "EACCES" ||
    code === "EPERM" ||
    code === "EROFS"
  );
}

function openFile(options: SqliteOpenOptions, copy?: Buffer): Database.Database {
  const { path } = options;
  const readOnly = options.readOnly ?? false;
  if (readOnly && path !== ":memory:" && !existsSync(path)) {
    throw new LucidError("INVALID_ARGUMENT", `No store at ${path} to open read-only. Check the path.`);
  }
  let db: Database.Database;
  try {
    db = new Database(copy ?? path, { readonly: readOnly, timeout: options.busyTimeoutMs ?? 5000 });
  } catch (error) {
    throw translateSqliteError(error, path);
  }
  try {
    sqliteVec.load(db);
    const { version, marked } = readIdentity(db, path);
    if (version > SCHEMA_VERSION) {
      throw new LucidError(
        "SCHEMA_TOO_NEW",
        `${path} has schema version ${version}, newer than this Lucid understands (${SCHEMA_VERSION}). Upgrade lucid-memory to open it.`,
        { details: { fileVersion: version, supportedVersion: SCHEMA_VERSION } },
      );
    }
    if (version < SCHEMA_VERSION && readOnly) {
      throw new LucidError(
        "STORE_READ_ONLY",
        `${path} needs a schema upgrade (${version} → ${SCHEMA_VERSION}) that a read-only open cannot write. Open it once without readOnly.`,
      );
    }
    if (!readOnly) {
      if (path !== ":memory:") switchToWal(db, options.busyTimeoutMs ?? 5000);
      // NORMAL is durable in WAL mode except for the last commits on power loss, and much faster.
      db.pragma("synchronous = NORMAL");
    }
    if (path !== ":memory:") {
      // 32 MiB of page cache (the default is 2 MiB): a 100k-memory store's indexes stay warm.
      db.pragma("cache_size = -32768");
    }
    db.pragma("foreign_keys = ON");
    if (!readOnly) {
      migrate(db, version);
      // The file is Lucid's from now on, by its own header: another program's database never is.
      // Written while opening may still wait as long as the busy timeout, like the migration.
      if (!marked) db.pragma(`application_id = ${LUCID_APPLICATION_ID}`);
      // Opening may wait (a migration racing another process) with SQLite's own busy handler; after
      // that, waits for a lock are short and the store retries them asynchronously (sqlite-store.ts),
      // so a busy file never blocks this process's event loop for long.
      db.pragma(`busy_timeout = ${SYNC_BUSY_WAIT_MS}`);
    }
    return db;
  } catch (error) {
    db.close();
    throw translateSqliteError(error, path);
  }
}

/**
 * Puts the file in write-ahead-log mode. Switching needs the file to itself for a moment, and SQLite
 * answers SQLITE_BUSY at once — without its busy handler — while another process holds it (several
 * processes creating the same store together): wait a little and try again, up to the busy timeout.
 * Once any process has switched, the mode is stored in the file and the pragma changes nothing.
 */
export function switchToWal(db: Database.Database, timeoutMs: number): void {
  const deadline = Date.now() + timeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      db.pragma("journal_mode = WAL");
      return;
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      const busy = typeof code === "string" && code.startsWith("SQLITE_BUSY");
      if (!busy || Date.now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, 10);
    }
  }
}

/** How long one attempt waits for a lock, synchronously, before the store retries it asynchronously. */
export const SYNC_BUSY_WAIT_MS = 20;

/** `PRAGMA application_id` of a Lucid store: "Lucd". Set in the header of every file Lucid creates. */
export const LUCID_APPLICATION_ID = 0x4c756364;

/** The tables every Lucid store has had since schema 1: how a file from before the marker is recognised. */
const LEGACY_TABLES = [
  "meta",
  "memories",
  "memories_fts",
  "entities",
  "memory_entities",
  "history",
  "messages",
];

/**
 * Reads the header (which forces SQLite to parse it: a garbage file fails here) and decides whose
 * file this is, before anything is written to it: an empty file becomes a Lucid store; a file is
 * Lucid's when its `application_id` says so, or — for stores made before the marker existed — when it
 * has every table a Lucid store has. Any other database (whatever its `user_version`: many programs
 * set one) is `STORE_CORRUPT`, left byte for byte as it was.
 */
function readIdentity(db: Database.Database, path: string): { version: number; marked: boolean } {
  // One read transaction, so all of it comes from one snapshot even while another process migrates.
  const { version, applicationId, tables } = db.transaction(() => ({
    version: db.pragma("user_version", { simple: true }) as number,
    applicationId: db.pragma("application_id", { simple: true }) as number,
    tables: (
      db.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[]
    ).map((row) => row.name),
  }))();
  const marked = applicationId === LUCID_APPLICATION_ID;
  const empty = tables.length === 0 && version === 0;
  const legacy = applicationId === 0 && version > 0 && LEGACY_TABLES.every((name) => tables.includes(name));
  if (!(marked || legacy || (empty && applicationId === 0))) {
    throw new LucidError(
      "STORE_CORRUPT",
      `${path} is a SQLite database, but not a Lucid store. Point Lucid at a new file or an existing Lucid store.`,
      { details: { applicationId, userVersion: version } },
    );
  }
  return { version, marked };
}
