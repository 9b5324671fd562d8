/**
 * Consistent snapshots in PostgreSQL (the snapshots sub-port): the pages are read on one connection
 * inside one `repeatable read, read only` transaction, which sees the database as it was at its
 * first statement whatever other connections commit meanwhile, and holds no lock a writer waits on.
 *
 * @module
 */

import type pg from "pg";
import type { SnapshotQuery, SnapshotsPort } from "../ports/snapshots.js";
import { createPgMemories } from "./pg-memories.js";
import { sqlOn } from "./pg-sql.js";

const DEFAULT_PAGE = 500;

export function createPgSnapshots(options: {
  readonly connect: () => Promise<pg.PoolClient>;
  readonly translate: (error: unknown) => unknown;
}): SnapshotsPort {
  return {
    async *streamMemories(query: SnapshotQuery) {
      const pageSize = query.pageSize ?? DEFAULT_PAGE;
      const client = await options.connect();
      let broken: Error | undefined;
      try {
        await client.query("begin transaction isolation level repeatable read, read only");
        const memories = createPgMemories(sqlOn(client));
        for (let offset = 0; ; offset += pageSize) {
          // Offsets are stable inside the transaction: its snapshot does not change.
          const { rows } = await memories
            .listMemories({ ...query, order: query.order ?? "oldest", limit: pageSize, offset })
            .catch((error: unknown) => {
              broken = error as Error;
              throw options.translate(error);
            });
          if (rows.length > 0) yield rows;
          if (rows.length < pageSize) return;
        }
      } finally {
        if (broken === undefined) await client.query("commit").catch((error: Error) => (broken = error));
        client.release(broken);
      }
    },
  };
}
