/**
 * The transfer sub-port in SQLite. An export reads one snapshot as `sqlite-snapshots.ts` does: a
 * file store on a second, read-only connection inside one read transaction (with sqlite-vec loaded,
 * to read the vectors), a `:memory:` store in one synchronous pass on its own connection. An import
 * is one immediate write transaction per call.
 *
 * @module
 */

import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import type { TransferPort, TransferRecord } from "../ports/transfer.js";
import { pageSizeOf } from "../transfer-batch.js";
import { translateSqliteError } from "./sqlite-errors.js";
import { countSqliteRecords, readSqliteRecords } from "./sqlite-transfer-read.js";
import { type SqliteTransferWriter, writeSqliteRecords } from "./sqlite-transfer-write.js";
import { StatementCache } from "./statement-cache.js";

export interface SqliteTransferInput extends SqliteTransferWriter {
  /** Read on the store's own connection: a `:memory:` store, or a copy of a file read in memory. */
  readonly sameConnection: boolean;
  /** Runs `fn` on the store's own connection when it is free, retrying while another process locks it. */
  readonly exclusive: <T>(fn: () => T) => Promise<T>;
  /** One write transaction around `fn`. */
  readonly atomically: <T>(fn: () => T) => T;
  readonly busyTimeoutMs: number;
}

export function createSqliteTransfer(input: SqliteTransferInput): TransferPort {
  const { location, statements } = input;
  return {
    async *exportRecords(options) {
      const pageSize = pageSizeOf(options);
      if (input.sameConnection) {
        for (const page of await input.exclusive(() => [...readSqliteRecords(statements, pageSize)]))
          yield page;
        return;
      }
      const reader = openReader(location, input.busyTimeoutMs);
      const readerStatements = new StatementCache(reader);
      try {
        reader.exec("begin");
        const pages = readSqliteRecords(readerStatements, pageSize);
        for (;;) {
          let next: IteratorResult<TransferRecord[]>;
          try {
            next = pages.next();
          } catch (error) {
            throw translateSqliteError(error, location);
          }
          if (next.done === true) return;
          yield next.value;
        }
      } finally {
        if (reader.inTransaction) reader.exec("commit");
        readerStatements.clear();
        reader.close();
      }
    },

    importRecords: (records) =>
      input.exclusive(() => input.atomically(() => writeSqliteRecords(input, records))),

    // SQLite keeps its indexes (FTS5, vec0) in step with every row: nothing was put off.
    finishImport: () => Promise.resolve(),

    countRecords: () => input.exclusive(() => countSqliteRecords(statements)),
  };
}

/** A read-only second connection to the file, with sqlite-vec loaded (the vectors live in vec0 tables). */
function openReader(location: string, busyTimeoutMs: number): Database.Database {
  let reader: Database.Database | undefined;
  try {
    reader = new Database(location, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
    sqliteVec.load(reader);
    return reader;
  } catch (error) {
    reader?.close();
    throw translateSqliteError(error, location);
  }
}
