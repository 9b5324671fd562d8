/**
 * Serving one MCP session over stdio: the client starts `lucid mcp` and talks over its stdin and
 * stdout. The session ends when the client closes stdin or the process is asked to stop.
 *
 * @module
 */

import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { LineLimit, MAX_STDIO_MESSAGE_BYTES } from "./line-limit.js";

export interface StdioOptions {
  readonly stdin?: NodeJS.ReadableStream;
  readonly stdout?: NodeJS.WritableStream;
  /** Aborting ends the session (SIGINT / SIGTERM in `lucid mcp`). */
  readonly signal?: AbortSignal;
  /** What the operator is told (a message too large to read); default: stderr. */
  readonly log?: (line: string) => void;
  /** Largest message read; default `MAX_STDIO_MESSAGE_BYTES`. */
  readonly maxMessageBytes?: number;
}

/**
 * Connects `server` to stdio and resolves when the session ends.
 *
 * @example
 * await serveStdio(createMcpServer({ memory, defaults: { userId: "alice" } }));
 */
export async function serveStdio(server: McpServer, options: StdioOptions = {}): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const maxBytes = options.maxMessageBytes ?? MAX_STDIO_MESSAGE_BYTES;
  const lines = new LineLimit(maxBytes, ({ bytes, id }) => {
    const limit = `${Math.round(maxBytes / 1024 / 1024)} MiB`;
    log(
      `lucid mcp: dropped a message of ${bytes} bytes${id === undefined ? "" : ` (request ${JSON.stringify(id)})`}, over the ${limit} limit; the session goes on. Send smaller messages: a memory's text is at most 32 KiB.`,
    );
    if (id === undefined) return;
    void transport
      .send({ jsonrpc: "2.0", id, error: { code: -32600, message: `Request too large: over ${limit}.` } })
      .catch(() => undefined);
  });
  (stdin as NodeJS.ReadableStream).pipe(lines);
  const transport = new StdioServerTransport(
    lines as unknown as ConstructorParameters<typeof StdioServerTransport>[0],
    (options.stdout ?? process.stdout) as ConstructorParameters<typeof StdioServerTransport>[1],
  );
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  await server.connect(transport);
  // The SDK's transport does not notice the end of stdin: a client that closes it is gone.
  const stop = () => void server.close();
  lines.once("end", stop);
  options.signal?.addEventListener("abort", stop, { once: true });
  if (options.signal?.aborted === true) stop();
  await closed;
  lines.off("end", stop);
  stdin.unpipe(lines);
  options.signal?.removeEventListener("abort", stop);
}
