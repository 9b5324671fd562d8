/**
 * The append-only side of the SQLite store: history rows and session messages (the history
 * sub-port).
 *
 * @module
 */

import type { HistoryAction, HistoryPort } from "../ports/history.js";
import type { StatementCache } from "./statement-cache.js";
import type { SyncPort } from "./sync-port.js";

interface HistoryRecord {
  seq: number;
  memory_id: string;
  action: HistoryAction;
  previous_value: string | null;
  new_value: string | null;
  actor: string;
  created_at: string;
  changes: string | null;
}

export function createSqliteHistory(statements: StatementCache): SyncPort<HistoryPort> {
  return {
    addHistory(row) {
      statements
        .get(
          "insert into history(memory_id, action, previous_value, new_value, actor, created_at, changes) values (?, ?, ?, ?, ?, ?, ?)",
        )
        .run(
          row.memoryId,
          row.action,
          row.previousValue,
          row.newValue,
          row.actor,
          row.createdAt,
          row.changed === undefined ? null : JSON.stringify(row.changed),
        );
    },

    listHistory(memoryId) {
      const rows = statements
        .get("select * from history where memory_id = ? order by seq")
        .all(memoryId) as HistoryRecord[];
      return rows.map((row) => ({
        seq: row.seq,
        memoryId: row.memory_id,
        action: row.action,
        previousValue: row.previous_value,
        newValue: row.new_value,
        actor: row.actor,
        createdAt: row.created_at,
        ...(row.changes === null ? {} : { changed: JSON.parse(row.changes) as string[] }),
      }));
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
        .all(sessionScope) as { role: string; content: string; name: string | null; created_at: string }[];
      return rows.map((row) => ({
        role: row.role,
        content: row.content,
        name: row.name,
        createdAt: row.created_at,
      }));
    },
  };
}
