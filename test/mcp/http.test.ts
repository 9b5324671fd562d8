/**
 * `lucid mcp --http` as a subprocess of the built binary, with the SDK's real Streamable HTTP
 * client: sessions, the loopback default, and the bearer token required off loopback.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, tempHomes } from "../cli/run-cli.js";
import {
  callTool,
  connectHttp,
  dataOf,
  type HttpServerProcess,
  startHttpProcess,
  textOf,
} from "./mcp-client.js";

const newHome = tempHomes();

function writeConfig(home: string, config: Record<string, unknown>): void {
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "lucid.config.json"), JSON.stringify(config));
}

/** A raw POST, to see what the server answers without a client in the way. */
function post(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; sessionId?: string }> {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
  });
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
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => {
          const session = res.headers["mcp-session-id"];
          resolve({
            status: res.statusCode ?? 0,
            body: text,
            ...(typeof session === "string" ? { sessionId: session } : {}),
          });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("lucid mcp --http on loopback", () => {
  let server: HttpServerProcess;

  beforeAll(async () => {
    server = await startHttpProcess({ home: newHome(), env: { LUCID_USER_ID: "alice", LUCID_DREAM: "off" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("binds 127.0.0.1 and serves tools per session", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const [first, second] = await Promise.all([connectHttp(server.url), connectHttp(server.url)]);
    try {
      const { tools } = await first.listTools();
      expect(tools).toHaveLength(14);
      const added = await callTool(first, "memory_add", {
        facts: ["Alice drinks oat milk", "Alice runs on Sundays"],
      });
      expect(textOf(added)).toMatch(/^Stored 2 facts \[uncategorized\] for user_id=alice:/);
      const found = await callTool(second, "memory_search", { query: "what milk does alice drink?" });
      expect(textOf(found)).toContain("Alice drinks oat milk");
      const other = await callTool(second, "memory_list", { user_id: "bob" });
      expect(dataOf(other)).toMatchObject({ total: 0, results: [] });
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("refuses a Host that is not this machine (DNS rebinding) and unknown sessions", async () => {
    const port = new URL(server.url).port;
    const rebinding = await post(server.url, { Host: `evil.example:${port}` });
    expect(rebinding.status).toBe(403);
    const stale = await post(server.url, { "Mcp-Session-Id": "no-such-session" });
    expect(stale.status).toBe(404);
    const wrongPath = await post(server.url.replace("/mcp", "/other"), {});
    expect(wrongPath.status).toBe(404);
  });
});

describe("lucid mcp --http off loopback", () => {
  it("refuses to bind another address without a token", async () => {
    const result = await runCli(["mcp", "--http", "--host", "0.0.0.0", "--port", "0"], { home: newHome() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("INVALID_CONFIG");
    expect(result.stderr).toContain("mcp");
  });

  it("requires the configured bearer token on every request", async () => {
    const home = newHome();
    writeConfig(home, { mcp: { token: { env: "LUCID_MCP_TOKEN" } } });
    const server = await startHttpProcess({
      home,
      args: ["--host", "0.0.0.0"],
      env: { LUCID_MCP_TOKEN: "correct-horse-battery", LUCID_USER_ID: "alice", LUCID_DREAM: "off" },
    });
    try {
      const url = server.url.replace("0.0.0.0", "127.0.0.1");
      expect((await post(url, {})).status).toBe(401);
      expect((await post(url, { Authorization: "Bearer wrong" })).status).toBe(401);
      await expect(connectHttp(url)).rejects.toThrow();
      await expect(connectHttp(url, "correct-horse-batter")).rejects.toThrow();
      const client = await connectHttp(url, "correct-horse-battery");
      try {
        expect((await callTool(client, "memory_list")).isError).toBeFalsy();
      } finally {
        await client.close();
      }
      expect(server.stderr()).not.toContain("correct-horse-battery");
    } finally {
      await server.stop();
    }
  });

  it("binds a session to the scope of the token that opened it (mcp.tokens)", async () => {
    const home = newHome();
    writeConfig(home, {
      mcp: {
        token: { env: "LUCID_MCP_TOKEN" },
        tokens: { alice: { token: { env: "ALICE_TOKEN" }, userId: "alice" } },
      },
    });
    const server = await startHttpProcess({
      home,
      args: ["--host", "0.0.0.0"],
      env: { LUCID_MCP_TOKEN: "operator-token-value", ALICE_TOKEN: "alice-token-value", LUCID_DREAM: "off" },
    });
    const url = server.url.replace("0.0.0.0", "127.0.0.1");
    const operator = await connectHttp(url, "operator-token-value");
    const alice = await connectHttp(url, "alice-token-value");
    try {
      expect(
        (await callTool(operator, "memory_add", { text: "Bob parks on level 2", user_id: "bob" })).isError,
      ).toBeFalsy();
      expect((await callTool(alice, "memory_add", { text: "Alice parks on level 4" })).isError).toBeFalsy();
      const own = await callTool(alice, "memory_list");
      expect(dataOf(own)).toMatchObject({ total: 1 });
      const other = await callTool(alice, "memory_list", { user_id: "bob" });
      expect(other.isError).toBe(true);
      expect(textOf(other)).toMatch(/^SCOPE_NOT_ALLOWED/);
      // The unbound token still reaches any user.
      expect(dataOf(await callTool(operator, "memory_list", { user_id: "alice" }))).toMatchObject({
        total: 1,
      });
      // A session answers only to the token that opened it.
      const opened = await post(url, { Authorization: "Bearer alice-token-value" });
      expect(opened.status).toBe(200);
      const borrowed = await post(url, {
        Authorization: "Bearer operator-token-value",
        "Mcp-Session-Id": opened.sessionId ?? "",
      });
      expect(borrowed.status).toBe(403);
      expect(borrowed.body).toContain("this session was opened with another token");
    } finally {
      await Promise.all([operator.close(), alice.close()]);
      await server.stop();
    }
  });

  it("refuses two tokens with one value", async () => {
    const home = newHome();
    writeConfig(home, {
      mcp: {
        token: { env: "LUCID_MCP_TOKEN" },
        tokens: { alice: { token: { env: "ALICE_TOKEN" }, userId: "alice" } },
      },
    });
    const result = await runCli(["mcp", "--http", "--port", "0"], {
      home,
      env: { LUCID_MCP_TOKEN: "same-value-twice", ALICE_TOKEN: "same-value-twice" },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Two MCP tokens have the same value");
    expect(result.stderr).not.toContain("same-value-twice");
  });

  it("serves only the --user it was started for, unless --any-scope", async () => {
    const bound = await startHttpProcess({
      home: newHome(),
      args: ["--user", "mia"],
      env: { LUCID_DREAM: "off" },
    });
    const client = await connectHttp(bound.url);
    try {
      expect(textOf(await callTool(client, "memory_list", { user_id: "noah" }))).toMatch(
        /^SCOPE_NOT_ALLOWED/,
      );
    } finally {
      await client.close();
      await bound.stop();
    }
    const open = await startHttpProcess({
      home: newHome(),
      args: ["--user", "mia", "--any-scope"],
      env: { LUCID_DREAM: "off" },
    });
    const anyone = await connectHttp(open.url);
    try {
      expect((await callTool(anyone, "memory_list", { user_id: "noah" })).isError).toBeFalsy();
    } finally {
      await anyone.close();
      await open.stop();
    }
  });
});
