/**
 * One dreamer per scope: a lease in the store, taken atomically, stale after an hour (a crashed
 * holder never blocks a scope for longer), released when the run ends.
 *
 * @module
 */

import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { MemoryContext } from "../../core/context.js";
import { scopeKey as keyOf, type Scope } from "../../core/scope.js";
import { LucidError } from "../../errors.js";
import type { LeaseHolder } from "../../store/ports/leases.js";

/** Mem0's `LOCK_STALE_MS`. */
export const LEASE_TTL_MS = 60 * 60 * 1000;

export async function withDreamLease<T>(
  context: MemoryContext,
  scope: Scope,
  fn: () => Promise<T>,
): Promise<T> {
  const scopeKey = keyOf(scope);
  const holder: LeaseHolder = {
    holder: `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`,
    host: hostname(),
    pid: process.pid,
  };
  const result = await context.store.acquireLease(
    scopeKey,
    holder,
    context.clock.now().toISOString(),
    LEASE_TTL_MS,
  );
  if (!result.acquired) {
    const held = result.heldBy;
    throw new LucidError(
      "DREAM_LEASE_HELD",
      `Another dream is running on ${scopeKey}: pid ${held.pid} on ${held.host}, since ${held.acquiredAt} (the lease expires at ${held.expiresAt}). Try again later.`,
      { details: { scope: scopeKey, heldBy: held } },
    );
  }
  try {
    return await fn();
  } finally {
    await context.store.releaseLease(scopeKey, holder.holder);
  }
}
