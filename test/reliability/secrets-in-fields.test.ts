/**
 * Credentials in metadata values and in a message's role or name are screened by the same policy as
 * the text (redacted by default, refused under "reject"), through every writer — SDK add, update and
 * import, the CLI, MCP — and `scan` finds the ones stored before.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, describe, expect, it } from "vitest";
import { type Memory, openMemory } from "../../src/index.js";
import { createMcpServer } from "../../src/mcp/server.js";
import { runCli, runJson, tempHomes } from "../cli/run-cli.js";
import { createFakeSecrets } from "../fixtures/secrets/fake-secrets.js";
import { startFakeEmbeddingServer, writeFakeEmbedderHome } from "../helpers/fake-openai-server.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";
import { everythingStored } from "../helpers/stored-text.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("secret-fields");
const token = createFakeSecrets(5)["github-pat"]?.() ?? "";
const embedder = scriptedEmbedder(2, (text) => [1, text.length]);
let memory: Memory | undefined;
let path: string;

async function open(onAdd?: "allow" | "reject"): Promise<Memory> {
  path = files.path();
  memory = await openMemory({
    path,
    embedder,
    ...(onAdd === undefined ? {} : { policy: { secrets: { onAdd } } }),
  });
  return memory;
}
afterEach(async () => {
  await memory?.close();
  memory = undefined;
});

describe("credentials outside the text", () => {
  it("are redacted from metadata on add, update and import, nested values included", async () => {
    const m = await open();
    const added = await m.add("Deploy notes", {
      userId: "alice",
      metadata: { note: `use ${token}`, nested: { list: ["fine", token] } },
    });
    expect(added.results[0]?.redactions).toEqual([
      expect.objectContaining({ kind: "github-pat", field: "metadata.note" }),
      expect.objectContaining({ kind: "github-pat", field: "metadata.nested.list[1]" }),
    ]);
    const id = added.results[0]?.id ?? "";
    expect((await m.get(id))?.metadata).toEqual({
      note: "use [REDACTED:github-pat]",
      nested: { list: ["fine", "[REDACTED:github-pat]"] },
    });
    const updated = await m.update(id, { metadata: { later: token } });
    expect(updated.redactions).toEqual([expect.objectContaining({ field: "metadata.later" })]);
    await m.importMemories([{ text: "Imported", user_id: "alice", metadata: { key: token } }]);
    expect(everythingStored(path)).not.toContain(token);
  });

  it("are redacted from a message's role and name", async () => {
    const m = await open();
    await m.add([{ role: `user ${token}`, content: "I like tea", name: token }], {
      userId: "alice",
    });
    expect(everythingStored(path)).not.toContain(token);
  });

  it("refuse the write under onAdd reject, naming the field", async () => {
    const m = await open("reject");
    await expect(m.add("Deploy notes", { userId: "alice", metadata: { note: token } })).rejects.toMatchObject(
      {
        code: "SECRET_REJECTED",
      },
    );
    expect((await m.getAll({ userId: "alice" })).total).toBe(0);
  });

  it("are found by scan when they were stored before (onAdd allow)", async () => {
    const m = await open("allow");
    await m.add("Deploy notes", { userId: "alice", metadata: { note: `use ${token}` } });
    const { findings } = await m.scan();
    expect(findings).toEqual([expect.objectContaining({ kind: "github-pat", field: "metadata.note" })]);
  });

  it("are redacted through the CLI and MCP too", async () => {
    const server = await startFakeEmbeddingServer({ dimension: 8 });
    try {
      const home = writeFakeEmbedderHome(tempHomes()(), server);
      const added = await runJson(
        ["add", "CLI memory", "--user", "alice", "--metadata", JSON.stringify({ k: token })],
        {
          home,
        },
      );
      expect(added.stdout).not.toContain(token);
      const exported = await runCli(["export"], { home });
      expect(exported.stdout).not.toContain(token);
    } finally {
      await server.close();
    }
    const m = await open();
    const mcp = createMcpServer({ memory: m, defaults: { userId: "alice" }, autoDream: { enabled: false } });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverSide);
    const client = new Client({ name: "test", version: "0" });
    await client.connect(clientSide);
    await client.callTool({ name: "memory_add", arguments: { text: "MCP memory", metadata: { k: token } } });
    await client.close();
    expect(everythingStored(path)).not.toContain(token);
  });

  it("limit metadata's depth and size with a clear error", async () => {
    const m = await open();
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let level = 0; level < 1500; level++) deep = { next: deep };
    await expect(m.add("Deep", { userId: "alice", metadata: deep })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      details: { maxDepth: 16 },
    });
    await expect(
      m.add("Large", { userId: "alice", metadata: { blob: "x".repeat(70_000) } }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT", details: { maxBytes: 65_536 } });
    // Nothing was stored, and metadata-filtered reads of the scope still work.
    expect((await m.getAll({ userId: "alice", filters: { leaf: 1 } })).total).toBe(0);
  });
});
