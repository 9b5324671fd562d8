/**
 * Switching a store to another embedder: new vectors are filled into a pending vec0 table beside
 * the current one, batch by batch (so an interrupted run resumes where it stopped), then swapped in
 * with the new embedder's stamp in one transaction.
 *
 * @module
 */

import type Database from "better-sqlite3";
import { LucidError } from "../../errors.js";
import type { EmbedderStamp } from "../ports/maintenance.js";
import type { SqliteMeta } from "./sqlite-meta.js";
import { createVectorTable, PENDING_VECTOR_TABLE, VECTOR_TABLE } from "./sqlite-schema.js";

export const EMBEDDER_ID_KEY = "embedder.id";
export const EMBEDDER_DIMENSION_KEY = "embedder.dimension";
const PENDING_ID_KEY = "reembed.id";
const PENDING_DIMENSION_KEY = "reembed.dimension";

export function readStamp(
  meta: SqliteMeta,
  idKey = EMBEDDER_ID_KEY,
  dimensionKey = EMBEDDER_DIMENSION_KEY,
): EmbedderStamp | null {
  const id = meta.get(idKey);
  const dimension = meta.get(dimensionKey);
  return id === null || dimension === null ? null : { id, dimension: Number(dimension) };
}

export function readPending(meta: SqliteMeta): EmbedderStamp | null {
  return readStamp(meta, PENDING_ID_KEY, PENDING_DIMENSION_KEY);
}

export function beginReembed(db: Database.Database, meta: SqliteMeta, target: EmbedderStamp): void {
  const pending = readPending(meta);
  if (pending !== null && pending.id === target.id && pending.dimension === target.dimension) return;
  db.exec(`drop table if exists ${PENDING_VECTOR_TABLE}`);
  createVectorTable(db, target.dimension, PENDING_VECTOR_TABLE);
  meta.set(PENDING_ID_KEY, target.id);
  meta.set(PENDING_DIMENSION_KEY, String(target.dimension));
}

/** Call inside a transaction. */
export function finishReembed(db: Database.Database, meta: SqliteMeta, location: string): void {
  const target = readPending(meta);
  if (target === null) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `No re-embedding is under way in ${location}. Start one with reembed() (lucid reembed).`,
    );
  }
  const missing = countUnembedded(db);
  if (missing > 0) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `${missing} memories in ${location} have no vector from ${target.id} yet. Run reembed() (lucid reembed) to finish them.`,
      { details: { missing } },
    );
  }
  db.exec(`drop table if exists ${VECTOR_TABLE}`);
  createVectorTable(db, target.dimension, VECTOR_TABLE);
  db.exec(
    `insert into ${VECTOR_TABLE}(seq, user_key, agent_key, app_key, run_key, embedding)
     select seq, user_key, agent_key, app_key, run_key, embedding from ${PENDING_VECTOR_TABLE};
     drop table ${PENDING_VECTOR_TABLE};
     delete from meta where key in ('${PENDING_ID_KEY}', '${PENDING_DIMENSION_KEY}');`,
  );
  meta.set(EMBEDDER_ID_KEY, target.id);
  meta.set(EMBEDDER_DIMENSION_KEY, String(target.dimension));
}

/** Memories without a vector in the pending table (call only while one exists). */
export function countUnembedded(db: Database.Database): number {
  const row = db
    .prepare(
      `select count(*) as n from memories m where not exists (select 1 from ${PENDING_VECTOR_TABLE} n where n.seq = m.seq)`,
    )
    .get() as { n: number };
  return row.n;
}
