/**
 * Serving MCP over Streamable HTTP at `/mcp`: each client session (the `Mcp-Session-Id` the server
 * hands out at initialize) gets its own transport and `McpServer`, and so counts as its own session
 * for the dream gate. Requests pass `edge/guard.ts` first. A session idle for `idleSessionMs` is
 * closed, and at most `maxSessions` are kept (the least recently used goes first): a client that
 * never says goodbye cannot grow the server without bound. A closed session's client gets 404 and,
 * as the MCP spec has it, initializes a new one.
 *
 * @module
 */

import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { ScopeOptions } from "../core/scope.js";
import { readJsonBody } from "../edge/body.js";
import { checkBinding, guardRequest } from "../edge/guard.js";
import { LucidError } from "../errors.js";

export const MCP_PATH = "/mcp";

/** A bearer token that opens sessions bound to one scope (`mcp.tokens` in lucid.config.json). */
export interface ScopedToken {
  readonly token: string;
  readonly scope: ScopeOptions;
}

export interface HttpServerOptions {
  /**
   * A new server for each client session; `bound` is the scope of the token that opened it, when
   * that token is one of `tokens`.
   */
  readonly createServer: (session: { readonly bound?: ScopeOptions }) => McpServer;
  /** Default 127.0.0.1. Any other address requires `token`. */
  readonly host?: string;
  /** Default 8787; 0 picks a free port. */
  readonly port?: number;
  /** When set, every request needs `Authorization: Bearer <token>` (or one of `tokens`). */
  readonly token?: string | undefined;
  /** Tokens bound to a scope: a session opened with one can act only within its scope. */
  readonly tokens?: readonly ScopedToken[];
  /** A session with no request for this long is closed. Default 30 minutes. */
  readonly idleSessionMs?: number;
  /** Sessions kept at once; a new one closes the least recently used. Default 100. */
  readonly maxSessions?: number;
}

export const DEFAULT_IDLE_SESSION_MS = 30 * 60_000;
export const DEFAULT_MAX_SESSIONS = 100;

export interface RunningHttpServer {
  /** `http://127.0.0.1:8787/mcp`. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** Sessions open now. */
  sessionCount(): number;
  /** Stops listening and ends every session. */
  close(): Promise<void>;
}

/**
 * Starts listening; resolves once the port is bound.
 *
 * @example
 * const http = await startHttpServer({ createServer: () => createMcpServer({ memory, events }), port: 0 });
 * console.error(`listening on ${http.url}`);
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const host = options.host ?? "127.0.0.1";
  const scoped = options.tokens ?? [];
  checkBinding(host, options.token ?? scoped[0]?.token);
  const values = [
    ...(options.token === undefined ? [] : [options.token]),
    ...scoped.map((entry) => entry.token),
  ];
  // A token is who the caller is: two with one value would open sessions of the wrong scope.
  if (new Set(values).size < values.length) {
    throw new LucidError(
      "INVALID_CONFIG",
      "Two MCP tokens have the same value (mcp.token and mcp.tokens.*.token): give each its own.",
    );
  }
  const accepted = { host, token: options.token, tokens: scoped.map((entry) => entry.token) };
  /** The scope of the token at `index` of the guard's list (the unscoped `token` comes first). */
  const boundBy = (index: number | undefined): ScopeOptions | undefined =>
    index === undefined ? undefined : scoped[index - (options.token === undefined ? 0 : 1)]?.scope;
  const idleMs = options.idleSessionMs ?? DEFAULT_IDLE_SESSION_MS;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  /** In order of last use, least recent first (a Map keeps insertion order; a use re-inserts). */
  const sessions = new Map<string, Session>();
  const touch = (id: string, session: Session) => {
    sessions.delete(id);
    session.lastUsed = Date.now();
    sessions.set(id, session);
  };
  const closeSession = async (id: string, session: Session) => {
    sessions.delete(id);
    await session.server.close().catch(() => undefined);
  };
  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - idleMs;
      for (const [id, session] of sessions) {
        if (session.lastUsed > cutoff) break; // the rest were used later
        // An open stream (the client's GET for server messages) is a client still there.
        if (session.open === 0) void closeSession(id, session);
      }
    },
    Math.max(10, Math.min(idleMs / 4, 60_000)),
  );
  sweep.unref();

  const startSession = async (token: number | undefined): Promise<StreamableHTTPServerTransport> => {
    for (const [id, session] of sessions) {
      if (sessions.size < maxSessions) break;
      await closeSession(id, session);
    }
    const bound = boundBy(token);
    const server = options.createServer(bound === undefined ? {} : { bound });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, lastUsed: Date.now(), open: 0, token });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const verdict = guardRequest(request, accepted);
    if (!verdict.ok) {
      const headers: Record<string, string> =
        verdict.status === 401 ? { "WWW-Authenticate": 'Bearer realm="lucid"' } : {};
      return sendError(response, verdict.status, verdict.message, headers);
    }
    if (new URL(request.url ?? "/", "http://localhost").pathname !== MCP_PATH) {
      return sendError(response, 404, `Not found: the MCP endpoint is ${MCP_PATH}.`);
    }
    const read = request.method === "POST" ? await readJsonBody(request) : undefined;
    if (read !== undefined && !read.ok) {
      return sendError(response, read.reason === "too_large" ? 413 : 400, read.message, {}, -32700);
    }
    const body = read?.value;
    const sessionId = request.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const session = sessions.get(sessionId);
      if (session === undefined) {
        return sendError(
          response,
          404,
          "Session not found (it ended, or expired idle): initialize a new one.",
        );
      }
      // A session bound to one token's scope answers to that token only.
      if (session.token !== verdict.token) {
        return sendError(response, 403, "Forbidden: this session was opened with another token.");
      }
      touch(sessionId, session);
      session.open++;
      response.once("close", () => {
        session.open--;
        session.lastUsed = Date.now();
      });
      return session.transport.handleRequest(request, response, body);
    }
    if (request.method === "POST" && isInitializeRequest(body)) {
      const transport = await startSession(verdict.token);
      return transport.handleRequest(request, response, body);
    }
    return sendError(
      response,
      400,
      "Bad request: no valid Mcp-Session-Id; start with an initialize request.",
    );
  };

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, 500, `Internal error: ${(error as Error).message}`);
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 8787, host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const { port } = http.address() as AddressInfo;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}${MCP_PATH}`,
    host,
    port,
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweep);
      await Promise.allSettled([...sessions.values()].map(({ server }) => server.close()));
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpServer;
  lastUsed: number;
  /** Requests (or streams) still open. */
  open: number;
  /** The guard's index of the token that opened it, when tokens are set. */
  readonly token: number | undefined;
}

/** A JSON-RPC error body, as the SDK's transport writes its own. */
function sendError(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = -32000,
): void {
  response.writeHead(status, { "Content-Type": "application/json", ...headers });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}
