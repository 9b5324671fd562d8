/**
 * The `dream_leases` table's rows, which both backends' tables share column for column: one
 * mapping, so a lease's holder reads back identically from SQLite and PostgreSQL.
 *
 * @module
 */

import type { Lease } from "../ports/leases.js";

export interface LeaseRow {
  holder: string;
  host: string;
  pid: number;
  acquired_at: string;
  expires_at: string;
}

export function toLease(row: LeaseRow): Lease {
  return {
    holder: row.holder,
    host: row.host,
    pid: row.pid,
    acquiredAt: row.acquired_at,
    expiresAt: row.expires_at,
  };
}
