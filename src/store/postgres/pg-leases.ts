/**
 * The auto-dream gate's per-scope state and sessions, and the leases that keep two workers off one
 * scope, in PostgreSQL. Workers may be processes on different hosts, so each decision is one
 * statement the server makes atomic: a session is counted by an insert that conflicts when it was
 * counted already, and a lease is taken by an upsert whose condition is the lease being free, never
 * by reading the holder and then writing.
 *
 * @module
 */

import type { Lease, LeasesPort } from "../ports/leases.js";
import { type LeaseRow, toLease } from "../rows/lease-rows.js";
import { type Sql, toNumber } from "./pg-sql.js";

interface GateRow {
  last_consolidated_at: string | null;
  last_session_id: string | null;
  sessions: string;
}

export function createPgLeases(sql: Sql): LeasesPort {
  return {
    async dreamGateState(scopeKey) {
      const row = await sql.one<GateRow>(
        `select
           (select last_consolidated_at from dream_state where scope_key = $1) as last_consolidated_at,
           (select last_session_id from dream_state where scope_key = $1) as last_session_id,
           (select count(*) from dream_sessions where scope_key = $1) as sessions`,
        [scopeKey],
      );
      return {
        lastConsolidatedAt: row?.last_consolidated_at ?? null,
        sessionsSince: row === undefined ? 0 : toNumber(row.sessions),
        lastSessionId: row?.last_session_id ?? null,
      };
    },

    async recordSession(scopeKey, sessionId, trigger, at) {
      const inserted = await sql.run(
        `insert into dream_sessions(scope_key, session_id, trigger, recorded_at) values ($1, $2, $3, $4)
         on conflict (scope_key, session_id) do nothing`,
        [scopeKey, sessionId, trigger, at],
      );
      if (inserted === 0) return false;
      await sql.run(
        `insert into dream_state(scope_key, last_session_id) values ($1, $2)
         on conflict (scope_key) do update set last_session_id = excluded.last_session_id`,
        [scopeKey, sessionId],
      );
      return true;
    },

    async recordDreamCompletion(scopeKey, at) {
      await sql.run("delete from dream_sessions where scope_key = $1", [scopeKey]);
      await sql.run(
        `insert into dream_state(scope_key, last_consolidated_at, last_session_id) values ($1, $2, null)
         on conflict (scope_key) do update set last_consolidated_at = excluded.last_consolidated_at,
           last_session_id = null`,
        [scopeKey, at],
      );
    },

    async acquireLease(key, holder, now, ttlMs, replacing) {
      const lease: Lease = {
        ...holder,
        acquiredAt: now,
        expiresAt: new Date(Date.parse(now) + ttlMs).toISOString(),
      };
      // An upsert that does not update still locks the row it met, so the read finds that holder;
      // should the row be gone all the same, the key is free again: try again.
      for (;;) {
        if (await takeLease(sql, { key, lease, replacing })) return { acquired: true, lease };
        const heldBy = await currentLease(sql, key);
        if (heldBy !== undefined) return { acquired: false, heldBy };
      }
    },

    async releaseLease(key, holder) {
      await sql.run("delete from dream_leases where scope_key = $1 and holder = $2", [key, holder]);
    },
  };
}

/**
 * Writes `lease` when the key has none, or its lease expired (at or before the new one's start), is
 * `lease`'s holder's own, or is held by `replacing`. The expiry compares ISO instants as text, which
 * the column's "C" collation orders byte by byte, as SQLite does.
 */
async function takeLease(
  sql: Sql,
  { key, lease, replacing }: { key: string; lease: Lease; replacing: string | undefined },
): Promise<boolean> {
  const taken = await sql.run(
    `insert into dream_leases(scope_key, holder, host, pid, acquired_at, expires_at) values ($1, $2, $3, $4, $5, $6)
     on conflict (scope_key) do update set holder = excluded.holder, host = excluded.host, pid = excluded.pid,
       acquired_at = excluded.acquired_at, expires_at = excluded.expires_at
     where dream_leases.expires_at <= excluded.acquired_at
       or dream_leases.holder = excluded.holder
       or dream_leases.holder = $7`,
    [key, lease.holder, lease.host, lease.pid, lease.acquiredAt, lease.expiresAt, replacing ?? null],
  );
  return taken > 0;
}

async function currentLease(sql: Sql, key: string): Promise<Lease | undefined> {
  const row = await sql.one<LeaseRow>(
    "select holder, host, pid, acquired_at, expires_at from dream_leases where scope_key = $1",
    [key],
  );
  return row === undefined ? undefined : toLease(row);
}
