/**
 * Who may talk to an HTTP edge (the MCP server's Streamable HTTP, later the REST API). Bound to
 * loopback (the default) it serves only this machine and refuses requests whose Host is not a
 * loopback name (a web page cannot reach it by DNS rebinding). Bound to any other address it needs
 * a bearer token, and every request must carry it. Either way a request from a web page (one with an
 * `Origin`) is served only when the page is this machine's or the server's own, as the MCP spec asks;
 * a request that carries no credential at all (`loopbackOnly`) only from the server's own pages.
 *
 * @module
 */

import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import { LucidError } from "../errors.js";

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

/** `127.0.0.1`, any `127.x.y.z`, `::1` or `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase();
  if (LOOPBACK_NAMES.has(name)) return true;
  return isIP(name) === 4 && name.startsWith("127.");
}

/** What a server is called in messages, and the config section whose `token` guards it. */
export interface ServedAs {
  readonly name: string;
  readonly section: string;
}

/** Refuses to expose the store on a network address without a token, before anything listens. */
export function checkBinding(
  host: string,
  token: string | undefined,
  served: ServedAs = { name: "MCP", section: "mcp" },
): void {
  if (isLoopbackHost(host) || token !== undefined) return;
  const variable = `LUCID_${served.section.toUpperCase()}_TOKEN`;
  throw new LucidError(
    "INVALID_CONFIG",
    `Refusing to serve ${served.name} on ${host} without a token: anyone who can reach it could read and change every memory. ` +
      `Set "${served.section}": { "token": { "env": "${variable}" } } in lucid.config.json (and export ${variable}), ` +
      "or bind to 127.0.0.1.",
    { details: { host } },
  );
}

export type GuardVerdict =
  | { ok: true /** Which of the accepted tokens the request carried, when tokens are set. */; token?: number }
  | { ok: false; status: 401 | 403; message: string };

/**
 * Whether this request may go on: the token when one is set, a loopback Host on a loopback bind, and
 * an `Origin`, when a browser sent one, that is a loopback page (on a loopback bind with a token) or
 * the server's own address. Clients that are not browsers send no `Origin`.
 */
export function guardRequest(
  request: IncomingMessage,
  options: {
    host: string;
    token?: string | undefined;
    tokens?: readonly string[];
    /**
     * Serve only this machine whatever the bind: a loopback Host, and no page but the server's own.
     * For a request that carries no credential (the REST API without keys): a page on another port
     * of this machine is any web site's script a local dev server happens to serve, and a browser
     * sends its "simple" POSTs (`text/plain`, no preflight) there without asking.
     */
    loopbackOnly?: boolean;
  },
): GuardVerdict {
  const accepted = [...(options.token === undefined ? [] : [options.token]), ...(options.tokens ?? [])];
  const local = options.loopbackOnly === true || isLoopbackHost(options.host);
  const origin = request.headers.origin;
  const pagesOfThisMachine = local && options.loopbackOnly !== true;
  if (origin !== undefined && !originAllowed(origin, request.headers.host, pagesOfThisMachine)) {
    return {
      ok: false,
      status: 403,
      message: pagesOfThisMachine
        ? `Forbidden: requests from the web page ${JSON.stringify(origin)} are not served; only pages of this machine or of the server itself.`
        : `Forbidden: requests from the web page ${JSON.stringify(origin)} are not served; only the server's own pages.`,
    };
  }
  // Every token is compared, so timing does not say which one a guess was close to.
  const matches = accepted.map((token) => bearerMatches(request.headers.authorization, token));
  const token = matches.indexOf(true);
  if (accepted.length > 0 && token < 0) {
    return { ok: false, status: 401, message: "Unauthorized: send Authorization: Bearer <token>." };
  }
  if (options.loopbackOnly === true || (accepted.length === 0 && local)) {
    const hostname = hostnameOf(request.headers.host);
    if (hostname === undefined || !isLoopbackHost(hostname)) {
      return {
        ok: false,
        status: 403,
        message: `Forbidden: Host ${JSON.stringify(request.headers.host ?? "")} is not this machine.`,
      };
    }
  }
  return token < 0 ? { ok: true } : { ok: true, token };
}

/** A page of this machine (when `local` pages are allowed), or of the very address the request was sent to. */
function originAllowed(origin: string, hostHeader: string | undefined, local: boolean): boolean {
  let url: URL;
  try {
    url = new URL(origin); // "null" (a sandboxed frame, a file) does not parse: refused
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  if (local && isLoopbackHost(url.hostname)) return true;
  return hostHeader !== undefined && url.host.toLowerCase() === hostHeader.toLowerCase();
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  if (match === null) return false;
  const given = Buffer.from(match[1] as string);
  const expected = Buffer.from(token);
  // Compared in constant time, so response timing does not reveal how much of a guess was right.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** `localhost` of `localhost:8787`, `::1` of `[::1]:8787`. */
function hostnameOf(header: string | undefined): string | undefined {
  if (header === undefined || header === "") return undefined;
  if (header.startsWith("[")) return header.slice(0, header.indexOf("]") + 1);
  return header.split(":")[0];
}
