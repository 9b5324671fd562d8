/**
 * Serving one MCP session over stdio: the client starts `lucid mcp` and talks over its stdin and
 * stdout. The session ends when the client closes stdin or the process is asked to stop.
 *
 * @module
 */

import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

export interface StdioOptions {
  readonly stdin?: NodeJS.ReadableStream;
  readonly stdout?: NodeJS.WritableStream;
  /** Aborting ends the session (SIGINT / SIGTERM in `lucid mcp`). */
  readonly signal?: AbortSignal;
}

/**
 * Connects `server` to stdio and resolves when the session ends.
 *
 * @example
 * await serveStdio(createMcpServer({ memory, defaults: { userId: "alice" } }));
 */
export async function serveStdio(server: McpServer, options: StdioOptions = {}): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(
    stdin as ConstructorParameters<typeof StdioServerTransport>[0],
    (options.stdout ?? process.stdout) as ConstructorParameters<typeof StdioServerTransport>[1],
  );
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  await server.connect(transport);
  // The SDK's transport does not notice the end of stdin: a client that closes it is gone.
  const stop = () => void server.close();
  stdin.once("end", stop);
  options.signal?.addEventListener("abort", stop, { once: true });
  if (options.signal?.aborted === true) stop();
  await closed;
  stdin.off("end", stop);
  options.signal?.removeEventListener("abort", stop);
}
