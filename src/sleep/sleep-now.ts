/**
 * The instant a sleep call works at — a sweep, a promotion, a status, a backfill: `now` as the
 * caller gives it (`--now`, for reproducible runs) or the context's clock, as a UTC ISO string.
 *
 * @module
 */

import type { Clock } from "../clock.js";
import { LucidError } from "../errors.js";

/**
 * @throws LucidError `INVALID_ARGUMENT` for a time that does not parse or has no offset (a local
 *   time would mean another instant on each machine).
 * @example
 * sleepNow(context.clock, "2026-11-29T04:00:00+01:00"); // => "2026-11-29T03:00:00.000Z"
 */
export function sleepNow(clock: Clock, now?: string): string {
  if (now === undefined) return clock.now().toISOString();
  const time = Date.parse(now);
  if (Number.isNaN(time) || !/(?:Z|[+-]\d{2}:?\d{2})$/iu.test(now)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `now must be an ISO timestamp with its offset (2026-11-29T03:00:00Z), got ${JSON.stringify(now)}.`,
    );
  }
  return new Date(time).toISOString();
}
