/**
 * The append-only side of the PostgreSQL store: history rows and session messages (the history
 * sub-port). `seq` is an identity column, so "oldest first" is the order rows were written.
 *
 * @module
 */

import type { HistoryAction, HistoryPort, StoredMessage } from "../ports/history.js";
import { type Sql, toNumber } from "./pg-sql.js";

interface HistoryRecord {
  seq: string;
  memory_id: string;
  action: HistoryAction;
  previous_value: string | null;
  new_value: string | null;
  actor: string;
  created_at: string;
  changes: string | null;
}

interface MessageRecord {
  role: string;
  content: string;
  name: string | null;
  created_at: string;
}

export function createPgHistory(sql: Sql): HistoryPort {
  return {
    async addHistory(row) {
      await sql.run(
        `insert into history(memory_id, action, previous_value, new_value, actor, created_at, changes)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        [
          row.memoryId,
          row.action,
          row.previousValue,
          row.newValue,
          row.actor,
          row.createdAt,
          row.changed === undefined ? null : JSON.stringify(row.changed),
        ],
      );
    },

    async listHistory(memoryId) {
      const rows = await sql.rows<HistoryRecord>(
        `select seq, memory_id, action, previous_value, new_value, actor, created_at, changes
         from history where memory_id = $1 order by seq`,
        [memoryId],
      );
      return rows.map((row) => ({
        seq: toNumber(row.seq),
        memoryId: row.memory_id,
        action: row.action,
        previousValue: row.previous_value,
        newValue: row.new_value,
        actor: row.actor,
        createdAt: row.created_at,
        ...(row.changes === null ? {} : { changed: JSON.parse(row.changes) as string[] }),
      }));
    },

    async addMessages(sessionScope, messages, keepLast) {
      if (messages.length > 0) await insertMessages(sql, sessionScope, messages);
      // As SQLite's `limit -1`, a negative count keeps everything.
      if (keepLast < 0) return;
      // The (keepLast + 1)th newest and everything older go: a range of the (session_scope, seq) index.
      await sql.run(
        `delete from messages where session_scope = $1 and seq <= (
           select seq from messages where session_scope = $1 order by seq desc offset $2 limit 1)`,
        [sessionScope, keepLast],
      );
    },

    async listMessages(sessionScope) {
      const rows = await sql.rows<MessageRecord>(
        "select role, content, name, created_at from messages where session_scope = $1 order by seq",
        [sessionScope],
      );
      return rows.map((row) => ({
        role: row.role,
        content: row.content,
        name: row.name,
        createdAt: row.created_at,
      }));
    },
  };
}

/**
 * One statement for the whole batch. Identity values are drawn as the rows are inserted, in the
 * select's order, so `seq` follows the order of `messages`.
 */
async function insertMessages(sql: Sql, sessionScope: string, messages: readonly StoredMessage[]) {
  await sql.run(
    `insert into messages(session_scope, role, content, name, created_at)
     select $1, m.role, m.content, m.name, m.created_at
     from unnest($2::text[], $3::text[], $4::text[], $5::text[]) with ordinality
       as m(role, content, name, created_at, position)
     order by m.position`,
    [
      sessionScope,
      messages.map((message) => message.role),
      messages.map((message) => message.content),
      messages.map((message) => message.name),
      messages.map((message) => message.createdAt),
    ],
  );
}
