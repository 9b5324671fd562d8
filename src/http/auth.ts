/**
 * Who may call the REST API. A server that started with keys in the home's `keys.json`, or on an
 * address other than loopback, needs `Authorization: Token <key>` (Mem0's scheme; `Bearer` is
 * taken too) on every request, and the request acts in the key's scope. That is decided once: a
 * server that requires keys keeps requiring them when the last key is revoked (it then refuses
 * everyone), and a keyless one requires them as soon as a key appears. Without keys only this
 * machine is served: a loopback client, a loopback Host and no foreign web page (`edge/guard.ts`).
 * Then the caller's rate limit. Failed authentications are limited per client address, but a valid
 * key is always let through: every local agent shares 127.0.0.1 (as do the clients behind a proxy),
 * so a few bad keys from one of them must not lock the others out — and a key is 256 random bits,
 * which no number of guesses finds.
 *
 * @module
 */

import type { Context, MiddlewareHandler } from "hono";
import { scopeToOptions } from "../core/scope.js";
import { guardRequest, isLoopbackHost } from "../edge/guard.js";
import { type ApiKeyRecord, matchKey } from "./key-store.js";
import { createRateLimiter, type RateLimit } from "./rate-limit.js";
import { HttpRefusal } from "./refusal.js";
import type { Caller, RestEnv } from "./rest-env.js";

export interface AuthOptions {
  /** The address the server is bound to. */
  readonly host: string;
  /** The keys now (re-read when the file changes). */
  readonly keys: () => Promise<readonly ApiKeyRecord[]>;
  /** Whether every request needs a key: the server started with keys, or off loopback. */
  readonly requireKeys: boolean;
  /** Per key (or per client address without keys); undefined: no limit. */
  readonly rateLimit?: RateLimit | undefined;
  /** 401s per client address; past it the address gets 429 until its bucket refills. */
  readonly failureLimit?: RateLimit | undefined;
  /** Where the real reason goes when `keys.json` cannot be read (the response gives none). */
  readonly log?: ((line: string) => void) | undefined;
}

/**
 * Ten wrong keys at once, then one every five seconds: past that, the failures are answered 429, a
 * client's signal to stop retrying a bad key (and the log's to stop filling). It is not what stops
 * a guesser — a valid key always passes, and a key's 256 random bits are beyond any guessing.
 */
export const DEFAULT_FAILURE_LIMIT: RateLimit = { perSecond: 0.2, burst: 10 };

const CREATE_HINT = "create one with `lucid keys create --user <id>`";
const CHALLENGE = { "WWW-Authenticate": 'Token realm="lucid"' };

export function authenticate(options: AuthOptions): MiddlewareHandler<RestEnv> {
  const limiter = options.rateLimit === undefined ? undefined : createRateLimiter(options.rateLimit);
  const failures = createFailureLimit(options.failureLimit);
  let requireKeys = options.requireKeys;
  let reported: string | undefined;
  return async (c, next) => {
    const request = c.env.incoming;
    const address = (request.socket.remoteAddress ?? "").replace(/^::ffff:/, "");
    let keys: readonly ApiKeyRecord[];
    try {
      keys = await options.keys();
      reported = undefined;
    } catch (error) {
      return keysUnavailable(c, error);
    }
    if (keys.length > 0) requireKeys = true;
    const given = /^(?:Token|Bearer)\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "")?.[1];
    // A request without a key is served only as this machine's, whatever the bind.
    const verdict = guardRequest(request, { host: options.host, loopbackOnly: !requireKeys });
    if (!verdict.ok)
      throw new HttpRefusal(verdict.status === 401 ? "UNAUTHORIZED" : "FORBIDDEN", verdict.message);
    let caller: Caller = {};
    if (!requireKeys) {
      if (!isLoopbackHost(address)) {
        throw new HttpRefusal(
          "FORBIDDEN",
          `Forbidden: without API keys only this machine is served; ${CREATE_HINT} and send it as Authorization: Token <key>.`,
        );
      }
    } else if (keys.length === 0) {
      failures.fail(address);
      throw new HttpRefusal(
        "UNAUTHORIZED",
        `Unauthorized: this server needs an API key and none exists (all were revoked); ${CREATE_HINT}.`,
        CHALLENGE,
      );
    } else if (given === undefined) {
      failures.fail(address);
      throw new HttpRefusal(
        "UNAUTHORIZED",
        `Unauthorized: send Authorization: Token <key> (${CREATE_HINT}).`,
        CHALLENGE,
      );
    } else {
      const record = matchKey(keys, given);
      if (record === undefined) {
        failures.fail(address);
        throw new HttpRefusal(
          "UNAUTHORIZED",
          `Unauthorized: this API key is not valid (revoked, or never created); ${CREATE_HINT}.`,
          CHALLENGE,
        );
      }
      caller = { keyId: record.id, bound: scopeToOptions(record.scope) };
    }
    if (limiter !== undefined) {
      const take = limiter.take(caller.keyId ?? address);
      if (!take.ok) throw tooMany(take.retryAfterSeconds);
    }
    c.set("caller", caller);
    await next();
  };

  /** 503 with nothing about the file (its path, its contents); the reason goes to the log, once. */
  function keysUnavailable(c: Context<RestEnv>, error: unknown): Response {
    const reason = error instanceof Error ? error.message : String(error);
    if (reported !== reason) {
      reported = reason;
      (options.log ?? ((line) => process.stderr.write(line)))(
        `lucid serve: cannot read the API keys, refusing every request until they are fixed: ${reason}\n`,
      );
    }
    return c.json(
      {
        detail: "Service unavailable: the server's API keys cannot be read; its operator must fix them.",
        code: "INVALID_CONFIG",
      },
      503,
    );
  }
}

function tooMany(retryAfterSeconds: number): HttpRefusal {
  return new HttpRefusal(
    "RATE_LIMITED",
    `Too many requests: wait ${retryAfterSeconds} s (Retry-After) and try again.`,
    { "Retry-After": String(retryAfterSeconds) },
  );
}

/**
 * Each 401 takes a token of its address's bucket; an address whose bucket runs dry gets 429 for its
 * failed attempts until the wait is over (a valid key is never looked at here: it passed before).
 */
function createFailureLimit(limit: RateLimit | undefined): { fail(address: string): void } {
  if (limit === undefined) return { fail() {} };
  const buckets = createRateLimiter(limit);
  const blocked = new Map<string, number>();
  return {
    fail(address) {
      const now = Date.now();
      const until = blocked.get(address);
      if (until !== undefined) {
        const wait = Math.ceil((until - now) / 1000);
        if (wait > 0) throw tooMany(wait);
        blocked.delete(address);
      }
      const take = buckets.take(address);
      if (take.ok) return;
      // Addresses that never come back would stay forever: past a few, the expired ones go.
      if (blocked.size > 1024) for (const [name, end] of blocked) if (end <= now) blocked.delete(name);
      blocked.set(address, now + take.retryAfterSeconds * 1000);
      throw tooMany(take.retryAfterSeconds);
    },
  };
}
