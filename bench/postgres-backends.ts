/**
 * The two stores the PostgreSQL benchmark compares, each built from the same synthetic corpus: the
 * PostgreSQL one bulk-loaded (`postgres-load.ts`), the SQLite one through the store port in
 * transactions of 1,000 (SQLite writes fast enough that no bulk path is needed), neither with entity
 * links. Both are then used only through the port and the SDK.
 *
 * @module
 */

import { statSync } from "node:fs";
import pg from "pg";
import { openPostgresStore } from "../src/store/postgres/pg-store.js";
import { createSqliteStore } from "../src/store/sqlite/sqlite-store.js";
import type { MemoryStore } from "../src/store/store.js";
import { createTempDir } from "./paths.js";
import { bulkLoad, type LoadTimings } from "./postgres-load.js";
import { newMemoryRow } from "./postgres-rows.js";
import { SYNTHETIC_DIMENSION, type SyntheticCorpus } from "./synthetic.js";

export const BACKENDS = ["postgres", "sqlite"] as const;
export type BackendName = (typeof BACKENDS)[number];

export interface BuiltStore {
  readonly store: MemoryStore;
  readonly load: LoadTimings;
  /** Tables and indexes, or the file and its log. */
  size(): Promise<number>;
  /** Closes nothing (the caller closes the store): drops the schema or removes the file. */
  dispose(): Promise<void>;
  /** Lets go of what `dispose` would use, keeping the store (`--keep`). */
  release(): Promise<void>;
}

export async function buildStore(
  backend: BackendName,
  corpus: SyntheticCorpus,
  count: number,
  embedderId: string,
  progress: (message: string) => void,
): Promise<BuiltStore> {
  return backend === "postgres"
    ? buildPostgres(corpus, count, embedderId, progress)
    : buildSqlite(corpus, count, embedderId, progress);
}

async function buildPostgres(
  corpus: SyntheticCorpus,
  count: number,
  embedderId: string,
  progress: (message: string) => void,
): Promise<BuiltStore> {
  const url = process.env.LUCID_PG_URL as string;
  const schema = `lucid_bench_${count}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop schema if exists ${schema} cascade`);
  const store = await openPostgresStore({ url, schema });
  await store.bindEmbedder({ id: embedderId, dimension: SYNTHETIC_DIMENSION });
  const load = await bulkLoad(admin, schema, corpus, count, progress);
  return {
    store,
    load,
    async size() {
      const sized = await admin.query<{ bytes: string }>(
        `select sum(pg_total_relation_size(c.oid)) as bytes from pg_class c
         join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relkind = 'r'`,
        [schema],
      );
      return Number(sized.rows[0]?.bytes ?? 0);
    },
    async dispose() {
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    },
    release: () => admin.end(),
  };
}

async function buildSqlite(
  corpus: SyntheticCorpus,
  count: number,
  embedderId: string,
  progress: (message: string) => void,
): Promise<BuiltStore> {
  const temp = createTempDir("store-bench");
  const path = temp.path(`bench-${count}.db`);
  const store = createSqliteStore({ path });
  await store.bindEmbedder({ id: embedderId, dimension: SYNTHETIC_DIMENSION });
  const started = performance.now();
  for (let from = 0; from < count; from += 1000) {
    await store.transaction(async (tx) => {
      for (let index = from; index < Math.min(count, from + 1000); index++) {
        await tx.insertMemory({ ...newMemoryRow(corpus, index), entities: [] });
      }
    });
    if ((from + 1000) % 100_000 === 0) progress(`${from + 1000} rows`);
  }
  const rowsSeconds = (performance.now() - started) / 1000;
  const fileSize = (file: string) => {
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  };
  return {
    store,
    // SQLite keeps its FTS5 and vec0 indexes in step with each insert: nothing to build after.
    load: { rowsSeconds, statsSeconds: 0, indexSeconds: 0 },
    size: async () => fileSize(path) + fileSize(`${path}-wal`),
    dispose: async () => temp.remove(),
    release: async () => undefined,
  };
}
