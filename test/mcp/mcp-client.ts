/**
 * Test helpers: the SDK's real `Client` connected to the built `lucid` binary, over stdio (the
 * client spawns `node bin/lucid.js mcp`) or over HTTP (a `lucid mcp --http --port 0` subprocess,
 * whose address is read from its stderr).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { BIN } from "../cli/run-cli.js";

/** The parent's environment without LUCID_* variables, so tests see only what they set. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key, value]) => !key.startsWith("LUCID_") && value !== undefined),
  ) as Record<string, string>;
  return { ...env, ...extra };
}

export interface StdioSession {
  client: Client;
  stderr: () => string;
  close: () => Promise<void>;
}

/** A client connected to `lucid mcp` over stdio: one process, one session. */
export async function connectStdio(options: {
  home: string;
  env?: Record<string, string>;
  args?: string[];
  /** Where the server runs: the project whose Mem0 retention files it reads. */
  cwd?: string;
}): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp", "--home", options.home, ...(options.args ?? [])],
    env: cleanEnv(options.env),
    stderr: "pipe",
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client({ name: "lucid-test", version: "0" });
  try {
    await client.connect(transport);
  } catch (error) {
    // What the server said is the useful part of a failed start.
    throw new Error(`lucid mcp did not start: ${(error as Error).message}\nstderr:\n${stderr}`);
  }
  return { client, stderr: () => stderr, close: () => client.close() };
}

export interface HttpServerProcess {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  stop: () => Promise<number | null>;
}

/** `lucid mcp --http --port 0 …` in a subprocess; resolves when it says where it listens. */
export async function startHttpProcess(options: {
  home: string;
  env?: Record<string, string>;
  args?: string[];
}): Promise<HttpServerProcess> {
  const child = spawn(
    process.execPath,
    [BIN, "mcp", "--http", "--port", "0", "--home", options.home, ...(options.args ?? [])],
    {
      env: cleanEnv(options.env),
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match !== null) resolve(match[1] as string);
    });
    void exited.then((code) => reject(new Error(`lucid mcp --http exited with ${code}:\n${stderr}`)));
  });
  return {
    url,
    child,
    stderr: () => stderr,
    stop: async () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/** A client connected over Streamable HTTP, optionally with a bearer token. */
export async function connectHttp(url: string, token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "lucid-test", version: "0" });
  await client.connect(transport);
  return client;
}

export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** The structured content, typed by the caller. */
export function dataOf<T>(result: CallToolResult): T {
  return result.structuredContent as T;
}
