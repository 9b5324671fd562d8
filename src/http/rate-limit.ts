/**
 * A token bucket per caller (an API key, or a client address when no keys are set): `burst`
 * requests at once, refilled at `perSecond`. A caller with an empty bucket is told how many
 * seconds to wait (`Retry-After`).
 *
 * @module
 */

export interface RateLimit {
  /** Sustained requests per second per caller. */
  readonly perSecond: number;
  /** Requests a caller may make at once. Default: one second's worth, at least 1. */
  readonly burst?: number;
}

/** Generous for an agent or a person, not for a runaway loop. */
export const DEFAULT_RATE_LIMIT: RateLimit = { perSecond: 50, burst: 100 };

/** Buckets untouched this long are full again, so they are dropped. */
const FORGET_AFTER_MS = 10 * 60_000;

export type Take = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

/**
 * @example
 * const limiter = createRateLimiter({ perSecond: 10 });
 * const take = limiter.take("key_1a2b3c4d");
 * if (!take.ok) reply(429, { "Retry-After": String(take.retryAfterSeconds) });
 */
export function createRateLimiter(
  limit: RateLimit,
  now: () => number = Date.now,
): { take(caller: string): Take } {
  const burst = Math.max(1, limit.burst ?? Math.ceil(limit.perSecond));
  const buckets = new Map<string, { tokens: number; at: number }>();
  let lastSweep = now();
  return {
    take(caller) {
      const at = now();
      if (at - lastSweep > FORGET_AFTER_MS) {
        for (const [name, bucket] of buckets) if (at - bucket.at > FORGET_AFTER_MS) buckets.delete(name);
        lastSweep = at;
      }
      const bucket = buckets.get(caller) ?? { tokens: burst, at };
      bucket.tokens = Math.min(burst, bucket.tokens + ((at - bucket.at) / 1000) * limit.perSecond);
      bucket.at = at;
      buckets.set(caller, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { ok: true };
      }
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / limit.perSecond)) };
    },
  };
}
