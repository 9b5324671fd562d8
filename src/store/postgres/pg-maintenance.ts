/**
 * The store as a whole, in PostgreSQL: its embedder (which types the vector column and builds the
 * HNSW index), re-embedding into a second vector column, counts for `status`, `reset` and
 * `compact` (the maintenance sub-port).
 *
 * @module
 */

import { LucidError } from "../../errors.js";
import type { EmbedderStamp, MaintenancePort } from "../ports/maintenance.js";
import { type MemoryRecordRow, toMemoryRow } from "../rows/memory-rows.js";
import { embedderMismatch } from "../store-errors.js";
import { MEMORY_COLUMNS } from "./pg-memories.js";
import {
  EMBEDDER_DIMENSION_KEY,
  EMBEDDER_ID_KEY,
  PENDING_DIMENSION_KEY,
  PENDING_ID_KEY,
  readPending,
  readStamp,
  writeMeta,
} from "./pg-meta.js";
import { type Sql, toNumber, vectorLiteral } from "./pg-sql.js";
import { readPgStats } from "./pg-stats.js";

/** pgvector's HNSW indexes vectors of at most 2,000 dimensions; above that, search is exact. */
const HNSW_MAX_DIMENSION = 2000;

const HNSW_INDEX = "memories_embedding_hnsw";

export interface PgMaintenanceInput {
  readonly location: string;
  readonly schema: string;
  /** Runs `fn` in one transaction on a pooled connection. */
  readonly single: <T>(fn: (sql: Sql) => Promise<T>) => Promise<T>;
  /** Runs `fn` on a pooled connection outside any transaction (VACUUM cannot run inside one). */
  readonly outside: <T>(fn: (sql: Sql) => Promise<T>) => Promise<T>;
}

function dimensionOf(stamp: EmbedderStamp): number {
  if (!Number.isInteger(stamp.dimension) || stamp.dimension <= 0) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `An embedder's dimension must be a positive integer, got ${stamp.dimension}.`,
    );
  }
  return stamp.dimension;
}

/**
 * Types a vector column with the dimension (validated: the one number written into DDL). Its storage
 * is `main`: kept in the row unless the row would not fit a page. pgvector's default is out of line
 * (TOAST) past 2 KB, so a 512-d vector (2,056 bytes) would cost every comparison of an exact search
 * a second lookup, in the TOAST table.
 */
async function typeColumn(
  sql: Sql,
  column: "embedding" | "embedding_next",
  dimension: number,
): Promise<void> {
  await sql.run(`alter table memories alter column ${column} type vector(${dimension})`);
  await sql.run(`alter table memories alter column ${column} set storage main`);
}

async function typeVectors(sql: Sql, dimension: number): Promise<void> {
  await dropVectorIndex(sql);
  await typeColumn(sql, "embedding", dimension);
  await ensureVectorIndex(sql, dimension);
}

/** Drops the HNSW index: a bulk copy builds it once at the end instead of row by row. */
export async function dropVectorIndex(sql: Sql): Promise<void> {
  await sql.run(`drop index if exists ${HNSW_INDEX}`);
}

/**
 * Builds the HNSW index when it is missing: after a copy, or on the first open after a copy that
 * stopped half way (search is exact meanwhile, only slower). Under a lock, so two processes opening
 * at once build it once.
 */
export async function ensureVectorIndex(sql: Sql, dimension: number): Promise<void> {
  if (dimension > HNSW_MAX_DIMENSION) return;
  const present = async () =>
    (await sql.one<{ name: string | null }>(`select to_regclass('${HNSW_INDEX}')::text as name`))?.name !=
    null;
  if (await present()) return;
  await sql.run("select pg_advisory_xact_lock(hashtext('lucid-memory:vector-index:' || current_schema()))");
  if (await present()) return;
  await sql.run(`create index ${HNSW_INDEX} on memories using hnsw (embedding vector_cosine_ops)`);
}

async function countUnembedded(sql: Sql): Promise<number> {
  const row = await sql.one<{ n: string }>("select count(*) as n from memories where embedding_next is null");
  return toNumber(row?.n ?? 0);
}

export function createPgMaintenance(input: PgMaintenanceInput): MaintenancePort {
  const { location, single, outside } = input;
  return {
    stats: (visibility) => single((sql) => readPgStats(sql, visibility)),

    bindEmbedder: (stamp) =>
      single(async (sql) => {
        const dimension = dimensionOf(stamp);
        let recorded = await readStamp(sql);
        if (recorded === null) {
          // Two processes binding a new store at once: the second waits here, then finds the stamp.
          await sql.run(
            "select pg_advisory_xact_lock(hashtext('lucid-memory:embedder:' || current_schema()))",
          );
          recorded = await readStamp(sql);
        }
        if (recorded === null) {
          await writeMeta(sql, EMBEDDER_ID_KEY, stamp.id);
          await writeMeta(sql, EMBEDDER_DIMENSION_KEY, String(dimension));
          await typeVectors(sql, dimension);
          return;
        }
        if (recorded.id !== stamp.id || recorded.dimension !== stamp.dimension) {
          throw embedderMismatch(location, recorded, stamp);
        }
        await ensureVectorIndex(sql, recorded.dimension);
      }),

    beginReembed: (target) =>
      single(async (sql) => {
        const dimension = dimensionOf(target);
        const pending = await readPending(sql);
        if (pending !== null && pending.id === target.id && pending.dimension === target.dimension) return;
        await sql.run("update memories set embedding_next = null where embedding_next is not null");
        await typeColumn(sql, "embedding_next", dimension);
        await writeMeta(sql, PENDING_ID_KEY, target.id);
        await writeMeta(sql, PENDING_DIMENSION_KEY, String(dimension));
      }),

    pendingReembed: () =>
      single(async (sql) => {
        const target = await readPending(sql);
        return target === null ? null : { target, remaining: await countUnembedded(sql) };
      }),

    listUnembedded: (limit) =>
      single(async (sql) => {
        if ((await readPending(sql)) === null) return [];
        const rows = await sql.rows<MemoryRecordRow>(
          `select ${MEMORY_COLUMNS} from memories m where m.embedding_next is null order by m.seq limit $1`,
          [limit],
        );
        return rows.map(toMemoryRow);
      }),

    writeReembedded: (vectors) =>
      single(async (sql) => {
        if (vectors.length === 0) return;
        // A memory whose text changed since it was listed has another hash: it stays unembedded.
        await sql.run(
          `update memories m set embedding_next = v.embedding::vector
           from unnest($1::text[], $2::text[], $3::text[]) v(id, hash, embedding)
           where m.id = v.id and m.hash = v.hash`,
          [
            vectors.map((v) => v.id),
            vectors.map((v) => v.hash),
            vectors.map((v) => vectorLiteral(v.embedding)),
          ],
        );
      }),

    finishReembed: () =>
      single(async (sql) => {
        const target = await readPending(sql);
        if (target === null) {
          throw new LucidError(
            "INVALID_ARGUMENT",
            `No re-embedding is under way in ${location}. Start one with reembed() (lucid reembed).`,
          );
        }
        const missing = await countUnembedded(sql);
        if (missing > 0) {
          throw new LucidError(
            "INVALID_ARGUMENT",
            `${missing} memories in ${location} have no vector from ${target.id} yet. Run reembed() (lucid reembed) to finish them.`,
            { details: { missing } },
          );
        }
        // The stamp first: its row locks wait for writers that read the old one (`for share`), and
        // hold off those that would, until this commits and they find the new one.
        await writeMeta(sql, EMBEDDER_ID_KEY, target.id);
        await writeMeta(sql, EMBEDDER_DIMENSION_KEY, String(target.dimension));
        await dropVectorIndex(sql);
        await sql.run("alter table memories drop column embedding");
        await sql.run("alter table memories rename column embedding_next to embedding");
        await sql.run("alter table memories add column embedding_next vector");
        await ensureVectorIndex(sql, target.dimension);
        await sql.run("delete from meta where key = any($1::text[])", [
          [PENDING_ID_KEY, PENDING_DIMENSION_KEY],
        ]);
      }),

    reset: () =>
      single(async (sql) => {
        // Not `restart identity`: a sleep event's sequence number is never reused, as in SQLite.
        await sql.run(
          `truncate memory_entities, entities, memories, history, messages, run_files, run_memories, runs,
             dream_state, dream_sessions, dream_leases, recalls, sleep_state, sleep_events, note_files,
             note_chunks, keyword_totals, keyword_terms`,
        );
        await dropVectorIndex(sql);
        await sql.run("alter table memories alter column embedding type vector");
        await sql.run("alter table memories alter column embedding_next type vector");
        await sql.run("delete from meta where key like 'embedder.%' or key like 'reembed.%'");
      }),

    compact: () =>
      outside(async (sql) => {
        // A deleted memory's words stay in the keyword statistics as terms counted zero times: they go,
        // under a lock so a writer's count cannot land between the sum and the delete.
        await sql.run("begin");
        try {
          await sql.run("lock table keyword_terms in exclusive mode");
          await sql.run(
            "delete from keyword_terms where term in (select term from keyword_terms group by term having sum(documents) = 0)",
          );
          await sql.run("commit");
        } catch (error) {
          await sql.run("rollback").catch(() => undefined);
          throw error;
        }
        // VACUUM FULL rewrites each table and index without its dead rows. The write-ahead log still
        // holds the old pages until a checkpoint recycles it; only a privileged role may force one.
        const tables = await sql.rows<{ name: string }>(
          "select quote_ident(tablename) as name from pg_tables where schemaname = current_schema() order by 1",
        );
        for (const table of tables) await sql.run(`vacuum (full, analyze) ${table.name}`);
        const checkpointed = await sql.run("checkpoint").then(
          () => true,
          () => false,
        );
        return { complete: checkpointed };
      }),
  };
}
