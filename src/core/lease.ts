/**
 * Leases: one worker at a time on a key (a scope for dreams, a workspace for sleep), across
 * processes. A lease is a row in the store, taken atomically, with the holder's host and pid; it
 * expires after an hour (a crashed holder on another machine never blocks a key for longer), and a
 * holder on this host whose process is gone is taken over at once.
 *
 * @module
 */

import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { LucidError } from "../errors.js";
import type { Lease, LeaseHolder } from "../store/ports/leases.js";
import type { MemoryContext } from "./context.js";
import { processIsGone } from "./process-gone.js";

/** Mem0's `LOCK_STALE_MS`. */
export const LEASE_TTL_MS = 60 * 60 * 1000;

export interface LeaseOptions {
  /** Names what the lease is for in the refusal: `Another dream is running on …`. */
  readonly what: string;
  readonly ttlMs?: number;
}

/**
 * Runs `fn` holding the lease on `key`, released when it ends (however it ends); `DREAM_LEASE_HELD`
 * (the one lease code) when a live holder has it.
 *
 * @example
 * await withLease(context, "user_id=alice", { what: "dream" }, () => applyPlan(…));
 */
export async function withLease<T>(
  context: Pick<MemoryContext, "store" | "clock">,
  key: string,
  options: LeaseOptions,
  fn: () => Promise<T>,
): Promise<T> {
  const host = hostname();
  const holder: LeaseHolder = {
    holder: `${host}:${process.pid}:${randomBytes(4).toString("hex")}`,
    host,
    pid: process.pid,
  };
  const ttlMs = options.ttlMs ?? LEASE_TTL_MS;
  const acquire = (replacing?: string) =>
    context.store.acquireLease(key, holder, context.clock.now().toISOString(), ttlMs, replacing);
  let result = await acquire();
  if (!result.acquired && holderIsGone(result.heldBy, host)) result = await acquire(result.heldBy.holder);
  if (!result.acquired) {
    const held = result.heldBy;
    throw new LucidError(
      "DREAM_LEASE_HELD",
      `Another ${options.what} is running on ${key}: pid ${held.pid} on ${held.host}, since ${held.acquiredAt} (the lease expires at ${held.expiresAt}). Try again later.`,
      { details: { key, scope: key, heldBy: held } },
    );
  }
  try {
    return await fn();
  } finally {
    await context.store.releaseLease(key, holder.holder);
  }
}

/** A holder on this host whose process no longer exists (killed, crashed): its lease is ours to take. */
function holderIsGone(lease: Lease, host: string): boolean {
  if (lease.host !== host || lease.pid === process.pid) return false;
  return processIsGone(lease.pid);
}
