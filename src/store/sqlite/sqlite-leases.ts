/**
 * The auto-dream gate's per-scope state and sessions, and the leases that keep two workers off one
 * scope, in SQLite.
 *
 * @module
 */

import type { Lease, LeasesPort } from "../ports/leases.js";
import { type LeaseRow, toLease } from "../rows/lease-rows.js";
import type { StatementCache } from "./statement-cache.js";
import type { SyncPort } from "./sync-port.js";

/**
 * `atomically` runs its function as one write transaction unless already inside one, so a read and
 * the write that depends on it (take a lease that is free, count a new session) are one step.
 */
export function createSqliteLeases(
  statements: StatementCache,
  atomically: <T>(fn: () => T) => T,
): SyncPort<LeasesPort> {
  return {
    dreamGateState(scopeKey) {
      const state = statements
        .get("select last_consolidated_at, last_session_id from dream_state where scope_key = ?")
        .get(scopeKey) as { last_consolidated_at: string | null; last_session_id: string | null } | undefined;
      const { n } = statements
        .get("select count(*) as n from dream_sessions where scope_key = ?")
        .get(scopeKey) as {
        n: number;
      };
      return {
        lastConsolidatedAt: state?.last_consolidated_at ?? null,
        sessionsSince: n,
        lastSessionId: state?.last_session_id ?? null,
      };
    },

    recordSession(scopeKey, sessionId, trigger, at) {
      return atomically(() => {
        const inserted = statements
          .get(
            "insert or ignore into dream_sessions(scope_key, session_id, trigger, recorded_at) values (?, ?, ?, ?)",
          )
          .run(scopeKey, sessionId, trigger, at);
        if (inserted.changes === 0) return false;
        statements
          .get(
            `insert into dream_state(scope_key, last_session_id) values (?, ?)
             on conflict(scope_key) do update set last_session_id = excluded.last_session_id`,
          )
          .run(scopeKey, sessionId);
        return true;
      });
    },

    recordDreamCompletion(scopeKey, at) {
      atomically(() => {
        statements.get("delete from dream_sessions where scope_key = ?").run(scopeKey);
        statements
          .get(
            `insert into dream_state(scope_key, last_consolidated_at, last_session_id) values (?, ?, null)
             on conflict(scope_key) do update set last_consolidated_at = excluded.last_consolidated_at, last_session_id = null`,
          )
          .run(scopeKey, at);
      });
    },

    acquireLease(key, holder, now, ttlMs, replacing) {
      return atomically(() => {
        const current = statements.get("select * from dream_leases where scope_key = ?").get(key) as
          | LeaseRow
          | undefined;
        const free =
          current === undefined ||
          current.expires_at <= now ||
          current.holder === holder.holder ||
          (replacing !== undefined && current.holder === replacing);
        if (!free) {
          return { acquired: false, heldBy: toLease(current as LeaseRow) } as const;
        }
        const lease: Lease = {
          ...holder,
          acquiredAt: now,
          expiresAt: new Date(Date.parse(now) + ttlMs).toISOString(),
        };
        statements
          .get(
            `insert into dream_leases(scope_key, holder, host, pid, acquired_at, expires_at) values (?, ?, ?, ?, ?, ?)
             on conflict(scope_key) do update set holder = excluded.holder, host = excluded.host, pid = excluded.pid,
               acquired_at = excluded.acquired_at, expires_at = excluded.expires_at`,
          )
          .run(key, lease.holder, lease.host, lease.pid, lease.acquiredAt, lease.expiresAt);
        return { acquired: true, lease } as const;
      });
    },

    releaseLease(key, holder) {
      statements.get("delete from dream_leases where scope_key = ? and holder = ?").run(key, holder);
    },
  };
}
