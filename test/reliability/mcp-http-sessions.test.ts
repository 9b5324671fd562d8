/**
 * Issue 11, minor: 2,000 MCP HTTP `initialize` requests added 128 MB and sessions never expired; a
 * foreign `Origin` with a loopback `Host` got 200. Idle sessions now expire and their number is
 * capped (least recently used first); a web page's `Origin` is served only when it is this machine's.
 */
import { request } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type Memory, openMemory } from "../../src/index.js";
import { type RunningHttpServer, startHttpServer } from "../../src/mcp/http.js";
import { createMcpServer } from "../../src/mcp/server.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";
import { tempFiles } from "../helpers/temp-dir.js";
import { callTool, connectHttp } from "../mcp/mcp-client.js";

const files = tempFiles("mcp-sessions");
let memory: Memory;
let http: RunningHttpServer | undefined;

beforeAll(async () => {
  memory = await openMemory({
    path: files.path(),
    embedder: scriptedEmbedder(2, (text) => [1, text.length]),
  });
});
afterEach(async () => {
  await http?.close();
  http = undefined;
});
afterAll(async () => {
  await memory.close();
});

async function serve(
  options: { idleSessionMs?: number; maxSessions?: number } = {},
): Promise<RunningHttpServer> {
  http = await startHttpServer({
    createServer: () =>
      createMcpServer({ memory, defaults: { userId: "alice" }, autoDream: { enabled: false } }),
    port: 0,
    ...options,
  });
  return http;
}

/** Waits until `condition` holds, checking every 20 ms, for at most `ms`. */
async function eventually(condition: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
};

/** A raw initialize POST with these headers (a client that never opens a stream, nor says goodbye): its status. */
async function initialize(url: string, headers: Record<string, string>): Promise<number> {
  return (await post(url, INITIALIZE, headers)).status;
}

/** A raw JSON-RPC POST: status and the session id the server gave, if any. */
function post(
  url: string,
  message: object,
  headers: Record<string, string>,
): Promise<{ status: number; sessionId: string | undefined }> {
  const body = JSON.stringify(message);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        res.resume();
        const sessionId = res.headers["mcp-session-id"];
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            sessionId: typeof sessionId === "string" ? sessionId : undefined,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("MCP HTTP sessions", () => {
  it("expire when idle; the client's next call is told to initialize again", async () => {
    const server = await serve({ idleSessionMs: 150 });
    const { status, sessionId } = await post(server.url, INITIALIZE, {});
    expect(status).toBe(200);
    expect(server.sessionCount()).toBe(1);
    await eventually(() => server.sessionCount() === 0);
    const later = await post(
      server.url,
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { "Mcp-Session-Id": sessionId as string, "Mcp-Protocol-Version": "2025-06-18" },
    );
    expect(later.status).toBe(404);
  });

  it("stay while the client keeps its stream open", async () => {
    // Idle for a second: long enough that connecting on a busy machine (initialize, then the
    // initialized notification) never outlasts it; the wait is three times that.
    const server = await serve({ idleSessionMs: 1_000 });
    const client = await connectHttp(server.url); // the SDK's client opens a GET stream for server messages
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(server.sessionCount()).toBe(1);
    expect((await callTool(client, "memory_list")).isError).not.toBe(true);
    await client.close();
  });

  it("are capped: a new one closes the least recently used", async () => {
    const server = await serve({ maxSessions: 3 });
    const clients = [];
    for (let i = 0; i < 3; i++) clients.push(await connectHttp(server.url));
    await callTool(clients[0] as never, "memory_list"); // now the second is the least recently used
    for (let i = 0; i < 3; i++) clients.push(await connectHttp(server.url));
    expect(server.sessionCount()).toBe(3);
    // Of the first three, the one used most recently survived the first eviction but not the later ones.
    await expect(callTool(clients[1] as never, "memory_list")).rejects.toThrow(/Session not found/);
    expect((await callTool(clients[5] as never, "memory_list")).isError).not.toBe(true);
    for (const client of clients) await client.close().catch(() => undefined);
  });

  it("bounded under 500 initializations that never come back", async () => {
    const server = await serve({ maxSessions: 20 });
    for (let i = 0; i < 500; i++) expect(await initialize(server.url, {})).toBe(200);
    expect(server.sessionCount()).toBe(20);
  });
});

describe("Origin", () => {
  it.each([
    ["a foreign page", "http://evil.example", 403],
    ["a foreign page on https", "https://attacker.test:8443", 403],
    ["an opaque origin", "null", 403],
    ["a page on this machine", "http://localhost:3000", 200],
    ["a page on 127.0.0.1", "http://127.0.0.1:5173", 200],
  ])("from %s (Origin %s): %d", async (_case, origin, status) => {
    const server = await serve();
    expect(await initialize(server.url, { Origin: origin })).toBe(status);
  });

  it("absent (a client that is not a browser): served", async () => {
    const server = await serve();
    expect(await initialize(server.url, {})).toBe(200);
  });
});
