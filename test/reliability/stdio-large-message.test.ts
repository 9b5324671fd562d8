/**
 * Issue 11, minor: a 10 MB message on `lucid mcp`'s stdin ended the session without a word (the
 * SDK's buffer overflowed and closed the transport). Now the message is dropped, its request gets
 * an error, stderr says why, and the session goes on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempHomes } from "../cli/run-cli.js";
import { useFakeEmbeddingServer, writeFakeEmbedderHome } from "../helpers/fake-openai-server.js";
import { callTool, connectStdio, type StdioSession, textOf } from "../mcp/mcp-client.js";

const homes = tempHomes();
const server = useFakeEmbeddingServer();
let session: StdioSession;

beforeAll(async () => {
  session = await connectStdio({
    home: writeFakeEmbedderHome(homes(), server),
    env: { LUCID_USER_ID: "alice", LUCID_DREAM: "off" },
  });
});
afterAll(async () => {
  await session?.close();
});

describe("a message too large for stdio", () => {
  it("is answered with an error, explained on stderr, and the session goes on", async () => {
    const huge = "x".repeat(10 * 1024 * 1024);
    await expect(callTool(session.client, "memory_add", { text: huge })).rejects.toThrow(/Request too large/);
    expect(session.stderr()).toMatch(
      /dropped a message of \d+ bytes \(request \d+\), over the 8 MiB limit; the session goes on/,
    );

    const added = await callTool(session.client, "memory_add", { text: "Alice drinks green tea" });
    expect(added.isError).toBeFalsy();
    expect(textOf(await callTool(session.client, "memory_list"))).toContain("Alice drinks green tea");
  });
});
