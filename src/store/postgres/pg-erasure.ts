/**
 * Erasure in PostgreSQL (the erasure sub-port): values replaced in history, messages and run plans
 * with `replace`, preimages found with `strpos` and rewritten row by row, a memory's traces deleted.
 * Values are matched as plain text: `strpos`, never `like`, whose `%` and `_` a secret may hold.
 *
 * @module
 */

import type { ErasurePort } from "../ports/erasure.js";
import type { MemoryPreimage } from "../ports/runs.js";
import { bytes } from "../rows/bytes.js";
import { readPreimage } from "../rows/run-rows.js";
import type { Sql } from "./pg-sql.js";

interface PreimageRow {
  run_id: string;
  before_row: string;
  before_embedding: Buffer | null;
  before_entities: string | null;
}

export function createPgErasure(sql: Sql): ErasurePort {
  /**
   * Replaces `value` in `columns` of the rows whose `keyColumn` is one of `keys`; rows changed. Only
   * rows that hold the value are written, so the count is of rows that changed.
   */
  const replaceIn = (table: string, keyColumn: string, columns: readonly string[]) => {
    const set = columns.map((column) => `${column} = replace(${column}, $1, $2)`).join(", ");
    const matches = columns.map((column) => `strpos(${column}, $1) > 0`).join(" or ");
    const text = `update ${table} set ${set} where ${keyColumn} = any($3::text[]) and (${matches})`;
    return (value: string, replacement: string, keys: readonly string[]): Promise<number> => {
      if (keys.length === 0 || value === "") return Promise.resolve(0);
      return sql.run(text, [value, replacement, keys]);
    };
  };
  const history = replaceIn("history", "memory_id", ["previous_value", "new_value"]);
  const messages = replaceIn("messages", "session_scope", ["content", "role", "name"]);
  const plans = replaceIn("runs", "id", ["plan"]);

  return {
    async scrubValues(values, targets) {
      const counts = { history: 0, messages: 0 };
      // In the order given: one value may hold another, and the longer must go first.
      for (const { value, replacement } of values) {
        counts.history += await history(value, replacement, targets.memoryIds);
        counts.messages += await messages(value, replacement, targets.sessionScopes);
      }
      return counts;
    },

    async runsTouching({ scopeKeys, memoryIds }) {
      if (scopeKeys.length === 0 && memoryIds.length === 0) return [];
      const rows = await sql.rows<{ id: string }>(
        `select id from runs where scope_key = any($1::text[])
           or seq in (select run_seq from run_memories where memory_id = any($2::text[]))
         order by seq`,
        [scopeKeys, memoryIds],
      );
      return rows.map((row) => row.id);
    },

    async scrubRunPlans(values, runIds) {
      // Plans are stored as JSON: the value appears there with JSON's escapes.
      let count = 0;
      for (const { value, replacement } of values) {
        count += await plans(jsonEscaped(value), jsonEscaped(replacement), runIds);
      }
      return count;
    },

    async listPreimages(query) {
      if (query.runIds.length === 0) return [];
      const params: unknown[] = [query.runIds];
      const conditions = ["runs.id = any($1::text[])", "before_row is not null"];
      if (query.memoryId !== undefined) {
        params.push(query.memoryId);
        conditions.push(`memory_id = $${params.length}`);
      }
      const containing = (query.containing ?? []).map(jsonEscaped);
      if (containing.length > 0) {
        params.push(containing);
        conditions.push(
          `exists (select 1 from unnest($${params.length}::text[]) as value where strpos(before_row, value) > 0)`,
        );
      }
      const rows = await sql.rows<PreimageRow>(
        `select runs.id as run_id, before_row, before_embedding, before_entities
         from run_memories join runs on runs.seq = run_memories.run_seq
         where ${conditions.join(" and ")} order by runs.seq, memory_id`,
        params,
      );
      return rows.map((row) => ({ runId: row.run_id, before: readPreimage(row) as MemoryPreimage }));
    },

    async replacePreimage(runId, before) {
      await sql.run(
        `update run_memories set before_row = $1, before_embedding = $2, before_entities = $3
         where memory_id = $4 and run_seq = (select seq from runs where id = $5)`,
        [
          JSON.stringify(before.row),
          before.embedding === null ? null : bytes(before.embedding),
          JSON.stringify(before.entities),
          before.row.id,
          runId,
        ],
      );
    },

    async forgetTraces(memoryId) {
      const history = await sql.run("delete from history where memory_id = $1", [memoryId]);
      const runs = await sql.run("delete from run_memories where memory_id = $1", [memoryId]);
      return { history, runs };
    },
  };
}

/** `value` as it appears inside a JSON string. */
function jsonEscaped(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}
