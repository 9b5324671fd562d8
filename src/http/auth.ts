/**
 * Who may call the REST API. Every request passes the edge's guard (`edge/guard.ts`: a loopback
 * Host on a loopback bind, no foreign web page). With keys in the home's `keys.json`, every request
 * needs `Authorization: Token <key>` (Mem0's scheme; `Bearer` is taken too) and acts in the key's
 * scope; without keys, only clients on this machine are served. Then the caller's rate limit.
 *
 * @module
 */

import type { MiddlewareHandler } from "hono";
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
  /** Per key (or per client address without keys); undefined: no limit. */
  readonly rateLimit?: RateLimit | undefined;
}

const CREATE_HINT = "create one with `lucid keys create --user <id>`";

export function authenticate(options: AuthOptions): MiddlewareHandler<RestEnv> {
  const limiter = options.rateLimit === undefined ? undefined : createRateLimiter(options.rateLimit);
  return async (c, next) => {
    const request = c.env.incoming;
    const verdict = guardRequest(request, { host: options.host });
    if (!verdict.ok)
      throw new HttpRefusal(verdict.status === 401 ? "UNAUTHORIZED" : "FORBIDDEN", verdict.message);
    const keys = await options.keys();
    const address = request.socket.remoteAddress ?? "";
    let caller: Caller = {};
    if (keys.length === 0) {
      // Without keys anyone who reaches the port is trusted: only this machine may.
      if (!isLoopbackHost(address.replace(/^::ffff:/, ""))) {
        throw new HttpRefusal(
          "FORBIDDEN",
          `Forbidden: without API keys only this machine is served; ${CREATE_HINT} and send it as Authorization: Token <key>.`,
        );
      }
    } else {
      const given = /^(?:Token|Bearer)\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "")?.[1];
      if (given === undefined) {
        throw new HttpRefusal(
          "UNAUTHORIZED",
          `Unauthorized: send Authorization: Token <key> (${CREATE_HINT}).`,
          { "WWW-Authenticate": 'Token realm="lucid"' },
        );
      }
      const record = matchKey(keys, given);
      if (record === undefined) {
        throw new HttpRefusal(
          "UNAUTHORIZED",
          `Unauthorized: this API key is not valid (revoked, or never created); ${CREATE_HINT}.`,
          { "WWW-Authenticate": 'Token realm="lucid"' },
        );
      }
      caller = { keyId: record.id, bound: scopeToOptions(record.scope) };
    }
    if (limiter !== undefined) {
      const take = limiter.take(caller.keyId ?? address);
      if (!take.ok) {
        throw new HttpRefusal(
          "RATE_LIMITED",
          `Too many requests: wait ${take.retryAfterSeconds} s (Retry-After) and try again.`,
          { "Retry-After": String(take.retryAfterSeconds) },
        );
      }
    }
    c.set("caller", caller);
    await next();
  };
}
