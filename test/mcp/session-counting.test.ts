/**
 * Which sessions an MCP server counts toward the auto-dream gate: each connection once, unless the
 * host names its sessions (`memory_session` / `memory_capture` with `session_id`), and then only
 * those; background triggers never. With `--sessions explicit` only named sessions count.
 */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventRegistry } from "../../src/edge/events.js";
import { type Memory, openMemory } from "../../src/index.js";
import { createMcpServer, type McpServerOptions } from "../../src/mcp/server.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("mcp-sessions");
const embedder = scriptedEmbedder(4, () => [1, 0, 0, 0]);

let memory: Memory;
const events = new EventRegistry();

beforeAll(async () => {
  memory = await openMemory({ path: files.path(), embedder });
});
afterAll(async () => {
  await memory.close();
});

async function connect(userId: string, options: Partial<McpServerOptions> = {}): Promise<Client> {
  const server = createMcpServer({
    memory,
    events,
    autoDream: { enabled: false },
    defaults: { userId },
    ...options,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "0" });
  await client.connect(clientSide);
  return client;
}

const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args });
const sessions = async (userId: string) =>
  (await memory.dream.gate({ userId }, { countAlways: true })).sessions;

describe("MCP session counting", () => {
  it("counts a connection once, however many calls it makes", async () => {
    const client = await connect("ada");
    await call(client, "memory_search", { query: "anything" });
    await call(client, "memory_list");
    expect(await sessions("ada")).toBe(1);
  });

  it("counts the host's named session instead of the connection, and a background trigger not at all", async () => {
    const client = await connect("ben");
    await call(client, "memory_session", { session_id: "host-1" });
    await call(client, "memory_search", { query: "anything" });
    expect(await sessions("ben")).toBe(1);

    const cron = await connect("cy");
    await call(cron, "memory_session", { session_id: "nightly", trigger: "cron" });
    await call(cron, "memory_list");
    expect(await sessions("cy")).toBe(0);
  });

  it("with explicit sessions, counts only the ids the host passes", async () => {
    const client = await connect("dee", { sessions: "explicit" });
    await call(client, "memory_search", { query: "anything" });
    expect(await sessions("dee")).toBe(0);
    await call(client, "memory_capture", {
      messages: [{ role: "user", content: "I prefer tea." }],
      session_id: "turn-host-1",
    });
    await call(client, "memory_session", { session_id: "turn-host-1" });
    expect(await sessions("dee")).toBe(1);
  });
});
