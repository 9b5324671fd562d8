/**
 * The append-only side of the PostgreSQL store: history rows and session messages (the history
 * sub-port). `seq` is an identity column, so "oldest first" is the order rows were written.
 *
 * @module
 */

import type { HistoryPort, StoredMessage } from "../ports/history.js";
import {
  type HistoryRecordRow,
  historyValues,
  type MessageRecordRow,
  toHistoryRow,
  toStoredMessage,
} from "../rows/history-rows.js";
import type { Sql } from "./pg-sql.js";

export function createPgHistory(sql: Sql): HistoryPort {
  return {
    async addHistory(row) {
      await sql.run(
        `insert into history(memory_id, action, previous_value, new_value, actor, created_at, changes)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        historyValues(row),
      );
    },

    async listHistory(memoryId) {
      const rows = await sql.rows<HistoryRecordRow>(
        `select seq, memory_id, action, previous_value, new_value, actor, created_at, changes
         from history where memory_id = $1 order by seq`,
        [memoryId],
      );
      return rows.map(toHistoryRow);
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
      const rows = await sql.rows<MessageRecordRow>(
        "select role, content, name, created_at from messages where session_scope = $1 order by seq",
        [sessionScope],
      );
      return rows.map(toStoredMessage);
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
