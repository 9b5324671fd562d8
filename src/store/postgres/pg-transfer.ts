/**
 * The transfer sub-port in PostgreSQL. An export reads on one pooled connection inside one
 * `repeatable read, read only` transaction, as `pg-snapshots.ts` does: every page comes from the
 * snapshot of its first statement. An import is one transaction per call; a batch that starts a
 * copy first binds the store to the source's embedder (which types the vector columns and builds
 * the HNSW index) and starts its re-embedding, each in a transaction of its own, as
 * `bindEmbedder` and `beginReembed` do — after checking that the store is empty — and drops the
 * HNSW index, which `finishImport` builds once over every copied vector.
 *
 * @module
 */

import type pg from "pg";
import type { MaintenancePort } from "../ports/maintenance.js";
import type { TransferPort, TransferRecord } from "../ports/transfer.js";
import { assertEmptyTarget, pageSizeOf, splitBatch } from "../transfer-batch.js";
import { dropVectorIndex, ensureVectorIndex } from "./pg-maintenance.js";
import { readStamp } from "./pg-meta.js";
import { type Sql, sqlOn } from "./pg-sql.js";
import { countPgRecords, readPgRecords } from "./pg-transfer-read.js";
import { writePgRecords } from "./pg-transfer-write.js";

export interface PgTransferInput {
  readonly location: string;
  /** A pooled connection, outside any transaction (refused when the store is closed). */
  readonly connect: () => Promise<pg.PoolClient>;
  readonly translate: (error: unknown) => unknown;
  /** Runs `fn` in one transaction on a pooled connection. */
  readonly transaction: <T>(fn: (sql: Sql) => Promise<T>) => Promise<T>;
  readonly maintenance: Pick<MaintenancePort, "bindEmbedder" | "beginReembed">;
}

export function createPgTransfer(input: PgTransferInput): TransferPort {
  const { location, transaction, maintenance } = input;
  return {
    async *exportRecords(options) {
      const pageSize = pageSizeOf(options);
      const client = await input.connect();
      let broken: Error | undefined;
      try {
        await client.query("begin transaction isolation level repeatable read, read only");
        const pages = readPgRecords(sqlOn(client), pageSize);
        for (;;) {
          let next: IteratorResult<TransferRecord[]>;
          try {
            next = await pages.next();
          } catch (error) {
            broken = error as Error;
            throw input.translate(error);
          }
          if (next.done === true) return;
          yield next.value;
        }
      } finally {
        if (broken === undefined) await client.query("commit").catch((error: Error) => (broken = error));
        client.release(broken);
      }
    },

    async importRecords(records) {
      const { facts, data } = splitBatch(records);
      if (facts !== undefined) {
        assertEmptyTarget(await transaction(countPgRecords), location);
        if (facts.embedder !== null) await maintenance.bindEmbedder(facts.embedder);
        if (facts.reembedTarget !== null) await maintenance.beginReembed(facts.reembedTarget);
        // Inserting into HNSW row by row costs ~7 ms a memory; `finishImport` builds it once instead.
        await transaction(dropVectorIndex);
      }
      await transaction(async (sql) => {
        // Again inside: another writer may have written between the check and here.
        if (facts !== undefined) assertEmptyTarget(await countPgRecords(sql), location);
        await writePgRecords(sql, data);
      });
    },

    finishImport: () =>
      transaction(async (sql) => {
        const stamp = await readStamp(sql);
        if (stamp !== null) await ensureVectorIndex(sql, stamp.dimension);
      }),

    countRecords: () => transaction(countPgRecords),
  };
}
