/**
 * The append-only side of the SQLite store: history rows and session messages (the history
 * sub-port).
 *
 * @module
 */

import type { HistoryPort } from "../ports/history.js";
import {
  type HistoryRecordRow,
  historyValues,
  type MessageRecordRow,
  toHistoryRow,
  toStoredMessage,
} from "../rows/history-rows.js";
import type { StatementCache } from "./statement-cache.js";
import type { SyncPort } from "./sync-port.js";

export function createSqliteHistory(statements: StatementCache): SyncPort<HistoryPort> {
  return {
    addHistory(row) {
      statements
        .get(
          "insert into history(memory_id, action, previous_value, new_value, actor, created_at, changes) values (?, ?, ?, ?, ?, ?, ?)",
        )
        .run(...historyValues(row));
    },

    listHistory(memoryId) {
      const rows = statements
        .get("select * from history where memory_id = ? order by seq")
        .all(memoryId) as HistoryRecordRow[];
      return rows.map(toHistoryRow);
    },

    addMessages(sessionScope, messages, keepLast) {
      const insert = statements.get(
        "insert into messages(session_scope, role, content, name, created_at) values (?, ?, ?, ?, ?)",
      );
      for (const message of messages) {
        insert.run(sessionScope, message.role, message.content, message.name, message.createdAt);
      }
      statements
        .get(
          `delete from messages where session_scope = ? and seq not in
             (select seq from messages where session_scope = ? order by seq desc limit ?)`,
        )
        .run(sessionScope, sessionScope, keepLast);
    },

    listMessages(sessionScope) {
      const rows = statements
        .get("select role, content, name, created_at from messages where session_scope = ? order by seq")
        .all(sessionScope) as MessageRecordRow[];
      return rows.map(toStoredMessage);
    },
  };
}
