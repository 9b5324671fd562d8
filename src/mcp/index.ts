/**
 * lucid-memory/mcp: Lucid's memory as MCP tools, for embedding the server in your own process.
 * `lucid mcp` (stdio) and `lucid mcp --http` are built from these parts.
 *
 * @example
 * import { openMemory } from "lucid-memory";
 * import { createMcpServer, serveStdio } from "lucid-memory/mcp";
 *
 * const memory = await openMemory({ path: "./agent.db" });
 * await serveStdio(createMcpServer({ memory, defaults: { userId: "alice" } }));
 *
 * @module
 */

export type { EventInput, EventStatus, EventType, LucidEvent } from "../edge/events.js";
export { EVENT_STATUSES, EVENT_TYPES, EventRegistry } from "../edge/events.js";
export type { AutoDreamOptions } from "./auto-dream.js";
export type { HttpServerOptions, RunningHttpServer } from "./http.js";
export { MCP_PATH, startHttpServer } from "./http.js";
export type { McpServerOptions } from "./server.js";
export { createMcpServer } from "./server.js";
export type { StdioOptions } from "./stdio.js";
export { serveStdio } from "./stdio.js";
