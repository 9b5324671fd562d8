/**
 * The `meta` table: the store's own key/value facts (its schema version and owner, its embedder,
 * a re-embedding under way).
 *
 * @module
 */

import type { EmbedderStamp } from "../ports/maintenance.js";
import type { Sql } from "./pg-sql.js";

export const EMBEDDER_ID_KEY = "embedder.id";
export const EMBEDDER_DIMENSION_KEY = "embedder.dimension";
export const PENDING_ID_KEY = "reembed.id";
export const PENDING_DIMENSION_KEY = "reembed.dimension";

export async function readMeta(sql: Sql, key: string): Promise<string | null> {
  return (await sql.one<{ value: string }>("select value from meta where key = $1", [key]))?.value ?? null;
}

export async function writeMeta(sql: Sql, key: string, value: string): Promise<void> {
  await sql.run(
    "insert into meta(key, value) values ($1, $2) on conflict (key) do update set value = excluded.value",
    [key, value],
  );
}

export async function readStamp(
  sql: Sql,
  idKey = EMBEDDER_ID_KEY,
  dimensionKey = EMBEDDER_DIMENSION_KEY,
  options: { readonly share?: boolean } = {},
): Promise<EmbedderStamp | null> {
  const rows = await sql.rows<{ key: string; value: string }>(
    `select key, value from meta where key = any($1::text[])${options.share === true ? " for share" : ""}`,
    [[idKey, dimensionKey]],
  );
  const values = new Map(rows.map((row) => [row.key, row.value]));
  const id = values.get(idKey);
  const dimension = values.get(dimensionKey);
  return id === undefined || dimension === undefined ? null : { id, dimension: Number(dimension) };
}

export function readPending(sql: Sql): Promise<EmbedderStamp | null> {
  return readStamp(sql, PENDING_ID_KEY, PENDING_DIMENSION_KEY);
}
