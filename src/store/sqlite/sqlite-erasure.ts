/**
 * Erasure in SQLite (the erasure sub-port): values replaced in history, messages and run plans with
 * SQL `replace`, preimages found with `instr` and rewritten row by row, a memory's traces deleted.
 *
 * @module
 */

import type { ErasurePort } from "../ports/erasure.js";
import type { MemoryPreimage } from "../ports/runs.js";
import { bytes } from "../rows/bytes.js";
import { readPreimage } from "../rows/run-rows.js";
import type { StatementCache } from "./statement-cache.js";
import type { SyncPort } from "./sync-port.js";

interface PreimageRow {
  run_id: string;
  before_row: string;
  before_embedding: Buffer | null;
  before_entities: string | null;
}

/** `?, ?, ?` for `count` values. */
const placeholders = (count: number) => Array.from({ length: count }, () => "?").join(", ");

export function createSqliteErasure(statements: StatementCache): SyncPort<ErasurePort> {
  /** Replaces `value` in `columns` of the rows whose `keyColumn` is one of `keys`; rows changed. */
  const replaceIn = (table: string, keyColumn: string, columns: readonly string[]) => {
    const set = columns.map((column) => `${column} = replace(${column}, ?, ?)`).join(", ");
    const matches = columns.map((column) => `instr(${column}, ?) > 0`).join(" or ");
    return (value: string, replacement: string, keys: readonly string[]): number => {
      if (keys.length === 0 || value === "") return 0;
      return statements
        .get(
          `update ${table} set ${set} where ${keyColumn} in (${placeholders(keys.length)}) and (${matches})`,
        )
        .run(...columns.flatMap(() => [value, replacement]), ...keys, ...columns.map(() => value)).changes;
    };
  };
  const history = replaceIn("history", "memory_id", ["previous_value", "new_value"]);
  const messages = replaceIn("messages", "session_scope", ["content", "role", "name"]);
  const plans = replaceIn("runs", "id", ["plan"]);

  return {
    scrubValues(values, targets) {
      const counts = { history: 0, messages: 0 };
      for (const { value, replacement } of values) {
        counts.history += history(value, replacement, targets.memoryIds);
        counts.messages += messages(value, replacement, targets.sessionScopes);
      }
      return counts;
    },

    runsTouching({ scopeKeys, memoryIds }) {
      if (scopeKeys.length === 0 && memoryIds.length === 0) return [];
      const rows = statements
        .get(
          `select id from runs where scope_key in (${placeholders(scopeKeys.length)})
             or seq in (select run_seq from run_memories where memory_id in (${placeholders(memoryIds.length)}))
           order by seq`,
        )
        .all(...scopeKeys, ...memoryIds) as { id: string }[];
      return rows.map((row) => row.id);
    },

    scrubRunPlans(values, runIds) {
      // Plans are stored as JSON: the value appears there with JSON's escapes.
      let count = 0;
      for (const { value, replacement } of values) {
        count += plans(jsonEscaped(value), jsonEscaped(replacement), runIds);
      }
      return count;
    },

    listPreimages(query) {
      if (query.runIds.length === 0) return [];
      const containing = (query.containing ?? []).map(jsonEscaped);
      const conditions = [
        `runs.id in (${placeholders(query.runIds.length)})`,
        "before_row is not null",
        ...(query.memoryId === undefined ? [] : ["memory_id = ?"]),
        ...(containing.length === 0
          ? []
          : [`(${containing.map(() => "instr(before_row, ?) > 0").join(" or ")})`]),
      ];
      const rows = statements
        .get(
          `select runs.id as run_id, before_row, before_embedding, before_entities
           from run_memories join runs on runs.seq = run_memories.run_seq
           where ${conditions.join(" and ")} order by runs.seq, memory_id`,
        )
        .all(
          ...query.runIds,
          ...(query.memoryId === undefined ? [] : [query.memoryId]),
          ...containing,
        ) as PreimageRow[];
      return rows.map((row) => ({ runId: row.run_id, before: readPreimage(row) as MemoryPreimage }));
    },

    replacePreimage(runId, before) {
      statements
        .get(
          `update run_memories set before_row = ?, before_embedding = ?, before_entities = ?
           where memory_id = ? and run_seq = (select seq from runs where id = ?)`,
        )
        .run(
          JSON.stringify(before.row),
          before.embedding === null ? null : bytes(before.embedding),
          JSON.stringify(before.entities),
          before.row.id,
          runId,
        );
    },

    forgetTraces(memoryId) {
      const history = statements.get("delete from history where memory_id = ?").run(memoryId).changes;
      const runs = statements.get("delete from run_memories where memory_id = ?").run(memoryId).changes;
      return { history, runs };
    },
  };
}

/** `value` as it appears inside a JSON string. */
function jsonEscaped(value: string): string {
  return JSON.stringify(value).slice(1, -1);
}
