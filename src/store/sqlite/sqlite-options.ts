/**
 * How a SQLite store is opened. A file of its own, so the published types of the store (which the
 * package's entry point exports) never import `better-sqlite3`'s, a development dependency.
 *
 * @module
 */

export interface SqliteOpenOptions {
  /** A file path, or ":memory:" for a throw-away store. */
  readonly path: string;
  readonly readOnly?: boolean;
  /** How long a write waits for another process's lock before failing with STORE_BUSY. */
  readonly busyTimeoutMs?: number;
}
