/**
 * Consistent snapshots in SQLite (the snapshots sub-port). A file store reads on a second,
 * read-only connection inside one read transaction: in WAL mode it sees the database as it was when
 * the transaction began, whatever this process or another commits meanwhile, and it never holds up
 * this process's own connection. A `:memory:` store has no second connection; it is read in one
 * synchronous pass, which nothing can interleave with.
 *
 * @module
 */

import Database from "better-sqlite3";
import type { MemoryRow } from "../ports/memories.js";
import type { SnapshotQuery, SnapshotsPort } from "../ports/snapshots.js";
import { translateSqliteError } from "./sqlite-errors.js";
import { createSqliteMemories } from "./sqlite-memories.js";
import { createSqliteMeta } from "./sqlite-meta.js";
import { StatementCache } from "./statement-cache.js";

const DEFAULT_PAGE = 500;

export function createSqliteSnapshots(options: {
  readonly location: string;
  /** Read on the store's own connection: a `:memory:` store, or a copy of a file read in memory. */
  readonly sameConnection: boolean;
  /** The store's own connection's statements, for `:memory:`. */
  readonly statements: StatementCache;
  /** Runs a read on the store's own connection when it is free (not inside another's transaction). */
  readonly exclusive: <T>(fn: () => T) => Promise<T>;
  readonly busyTimeoutMs: number;
}): SnapshotsPort {
  const { location } = options;
  return {
    async *streamMemories(query: SnapshotQuery) {
      const pageSize = query.pageSize ?? DEFAULT_PAGE;
      if (options.sameConnection) {
        for (const page of await options.exclusive(() => readAll(options.statements, query, pageSize)))
          yield page;
        return;
      }
      let reader: Database.Database;
      try {
        reader = new Database(location, {
          readonly: true,
          fileMustExist: true,
          timeout: options.busyTimeoutMs,
        });
      } catch (error) {
        throw translateSqliteError(error, location);
      }
      const statements = new StatementCache(reader);
      const memories = createSqliteMemories(statements, createSqliteMeta(statements));
      try {
        reader.exec("begin");
        for (let offset = 0; ; offset += pageSize) {
          // Offsets are stable inside the read transaction: its snapshot does not change.
          const { rows } = guard(() =>
            memories.listMemories({ ...query, order: query.order ?? "oldest", limit: pageSize, offset }),
          );
          if (rows.length > 0) yield rows;
          if (rows.length < pageSize) return;
        }
      } finally {
        if (reader.inTransaction) reader.exec("commit");
        statements.clear();
        reader.close();
      }
    },
  };

  function guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      throw translateSqliteError(error, location);
    }
  }

  function readAll(statements: StatementCache, query: SnapshotQuery, pageSize: number): MemoryRow[][] {
    const memories = createSqliteMemories(statements, createSqliteMeta(statements));
    const pages: MemoryRow[][] = [];
    for (let offset = 0; ; offset += pageSize) {
      const { rows } = guard(() =>
        memories.listMemories({ ...query, order: query.order ?? "oldest", limit: pageSize, offset }),
      );
      if (rows.length > 0) pages.push(rows);
      if (rows.length < pageSize) return pages;
    }
  }
}
