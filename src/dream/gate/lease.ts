/**
 * One dreamer per scope: the scope's lease (`core/lease.ts`), held while a dream plans and applies.
 *
 * @module
 */

import type { MemoryContext } from "../../core/context.js";
import { withLease } from "../../core/lease.js";
import { type Scope, scopeKey } from "../../core/scope.js";

export { LEASE_TTL_MS } from "../../core/lease.js";

export async function withDreamLease<T>(
  context: MemoryContext,
  scope: Scope,
  fn: () => Promise<T>,
): Promise<T> {
  return withLease(context, scopeKey(scope), { what: "dream" }, fn);
}
