/**
 * An empty or blank scope value is an error on every entry point: as a filter it would read as
 * "every memory without this key" (the vector index stores a missing key as ''), so `--agent ""`
 * once returned other users' memories.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Memory, openMemory } from "../../src/index.js";
import { createMcpServer } from "../../src/mcp/server.js";
import { runCli, tempHomes } from "../cli/run-cli.js";
import { startFakeEmbeddingServer, writeFakeEmbedderHome } from "../helpers/fake-openai-server.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";

const embedder = scriptedEmbedder(3, (text) => [1, text.length % 5, text.includes("tea") ? 1 : 0]);
let memory: Memory;

beforeAll(async () => {
  memory = await openMemory({ path: ":memory:", embedder });
  await memory.add("Alice drinks green tea", { userId: "alice" });
  await memory.add("Bob drinks green tea too", { userId: "bob" });
});
afterAll(async () => {
  await memory.close();
});

describe("an empty scope value", () => {
  it.each<[string, Record<string, unknown>]>([
    ["user_id", { user_id: "" }],
    ["agent_id", { agent_id: "" }],
    ["app_id, blank", { app_id: "   " }],
    ["run_id inside AND", { AND: [{ run_id: "" }] }],
    ["an in list", { user_id: { in: [""] } }],
  ])("is refused as a search filter (%s)", async (_, filters) => {
    await expect(memory.search("green tea", { filters })).rejects.toMatchObject({ code: "INVALID_FILTER" });
    await expect(memory.getAll({ filters })).rejects.toMatchObject({ code: "INVALID_FILTER" });
  });

  it("is refused as a camelCase option of a read, and of a write", async () => {
    await expect(memory.search("green tea", { agentId: "" })).rejects.toMatchObject({
      code: "INVALID_FILTER",
    });
    await expect(memory.getAll({ userId: " " })).rejects.toMatchObject({ code: "INVALID_FILTER" });
    await expect(memory.add("x", { userId: "" })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("deletes nothing in deleteAll", async () => {
    await expect(memory.deleteAll({ filters: { user_id: "" } })).rejects.toMatchObject({
      code: "INVALID_FILTER",
    });
    expect((await memory.getAll({ userId: "bob" })).total).toBe(1);
    expect((await memory.getAll({ userId: "alice" })).total).toBe(1);
  });

  it("is a usage error on the command line, and never lists another user's memories", async () => {
    const server = await startFakeEmbeddingServer({ dimension: 8 });
    try {
      const home = writeFakeEmbedderHome(tempHomes()(), server);
      await runCli(["add", "Bob drinks green tea", "--user", "bob"], { home });
      const result = await runCli(["search", "green tea", "--agent", ""], { home });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("--agent needs an id");
      expect(result.stdout).not.toContain("Bob");
      const list = await runCli(["list", "--user", "  "], { home });
      expect(list.code).toBe(2);
    } finally {
      await server.close();
    }
  });

  it("is a tool error over MCP, as a parameter or inside filters", async () => {
    const server = createMcpServer({ memory, autoDream: { enabled: false } });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "test", version: "0" });
    await client.connect(clientSide);
    const call = async (args: Record<string, unknown>) =>
      (await client.callTool({
        name: "memory_search",
        arguments: { query: "green tea", ...args },
      })) as CallToolResult;
    const blank = await call({ user_id: "  " });
    expect(blank.isError).toBe(true);
    const nested = await call({ user_id: "alice", filters: { agent_id: "" } });
    expect(nested.isError).toBe(true);
    expect(nested.structuredContent).toMatchObject({ error: { code: "INVALID_FILTER" } });
    await client.close();
  });
});
