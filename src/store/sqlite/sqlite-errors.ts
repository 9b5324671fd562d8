import { LucidError } from "../../errors.js";

/** better-sqlite3 errors carry SQLite's extended result code, e.g. `SQLITE_BUSY_SNAPSHOT`. */
function sqliteCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === "string" && code.startsWith("SQLITE_") ? code : undefined;
}

/**
 * Turns a SQLite failure into the LucidError a user can act on; other errors pass through.
 * `location` names the file in the message.
 */
export function translateSqliteError(error: unknown, location: string): unknown {
  if (error instanceof LucidError) return error;
  const code = sqliteCode(error);
  if (code === undefined) return error;
  const options = { cause: error, details: { sqliteCode: code, location } };
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
    return new LucidError(
      "STORE_BUSY",
      `The store at ${location} is locked by another writer. Retry shortly, or raise busyTimeoutMs.`,
      options,
    );
  }
  if (code.startsWith("SQLITE_READONLY")) {
    return new LucidError(
      "STORE_READ_ONLY",
      `The store at ${location} is read-only. Open it without readOnly, or check the file's permissions.`,
      options,
    );
  }
  if (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB") {
    return new LucidError(
      "STORE_CORRUPT",
      `${location} is not a readable Lucid store (${code}). Restore it from a backup or point Lucid at another file.`,
      options,
    );
  }
  return new LucidError("STORE_FAILED", `SQLite failed on ${location}: ${(error as Error).message}`, options);
}
