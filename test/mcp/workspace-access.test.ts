/**
 * `lucid mcp --http --workspace DIR` with `mcp.tokens`: the workspace's notes are its scope's
 * (agent_id=main, where sleep promotes them), so a token bound to alice neither reads nor searches
 * them, nor records recalls that steer promotion, nor learns where the workspace is; the token bound
 * to agent_id=main gets them as before. The same rule as the REST API's keys (edge/workspace-access.ts).
 */
import { cpSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runJson } from "../cli/run-cli.js";
import { tempFiles } from "../helpers/temp-dir.js";
import {
  callTool,
  connectHttp,
  dataOf,
  type HttpServerProcess,
  startHttpProcess,
  textOf,
} from "./mcp-client.js";

const files = tempFiles("mcp-workspace-access");
const FIXTURE = fileURLToPath(new URL("../fixtures/sleep-workspace/", import.meta.url));
const ALICE_TOKEN = "alice-token-value";
const MAIN_TOKEN = "main-token-value";

interface ToolError {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

describe("lucid mcp --http --workspace with tokens bound to scopes", () => {
  const home = join(files.dir, "home");
  let workspace: string;
  let server: HttpServerProcess;
  let alice: Client;
  let main: Client;

  /** The workspace's recall records, as `lucid sleep signals` reads them from the store. */
  const signals = async () => {
    const result = await runJson(["sleep", "signals", "--workspace", workspace], { home });
    expect(result.code, result.stderr).toBe(0);
    return result.json.entries as { path: string; recallCount: number }[];
  };

  /** Nothing of the workspace: not its directory, not a line of its notes. */
  const expectNoNotes = (result: CallToolResult) => {
    const shown = `${textOf(result)}${JSON.stringify(result.structuredContent)}`;
    for (const hidden of [workspace, realpathSync(workspace), "# Long-Term Memory", "F.28", "path: "])
      expect(shown).not.toContain(hidden);
  };

  beforeAll(async () => {
    workspace = join(files.dir, "ws");
    cpSync(FIXTURE, workspace, { recursive: true });
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(home, "lucid.config.json"),
      JSON.stringify({
        mcp: {
          tokens: {
            alice: { token: { env: "ALICE_TOKEN" }, userId: "alice" },
            main: { token: { env: "MAIN_TOKEN" }, agentId: "main" },
          },
        },
      }),
    );
    server = await startHttpProcess({
      home,
      args: ["--workspace", workspace],
      env: { ALICE_TOKEN, MAIN_TOKEN, LUCID_DREAM: "off" },
    });
    alice = await connectHttp(server.url, ALICE_TOKEN);
    main = await connectHttp(server.url, MAIN_TOKEN);
  });
  afterAll(async () => {
    await Promise.all([alice?.close(), main?.close()]);
    await server?.stop();
  });

  it("refuses alice's token a note by path and sleep's log (SCOPE_NOT_ALLOWED, naming the scope to use); the workspace's token reads them", async () => {
    for (const [tool, args] of [
      ["memory_get", { path: "MEMORY.md#L1" }],
      ["memory_get", { path: "memory/2026-11-02.md#L6-L8" }],
      ["memory_sleep_events", {}],
    ] as const) {
      const refused = await callTool(alice, tool, args);
      expect(refused.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      const { error } = dataOf<ToolError>(refused);
      expect(error.code).toBe("SCOPE_NOT_ALLOWED");
      expect(error.message).toContain("agent_id=main");
      expect(error.message).toContain("mcp.tokens");
      expectNoNotes(refused);
    }

    const curated = await callTool(main, "memory_get", { path: "MEMORY.md#L1" });
    expect(curated.isError, textOf(curated)).toBeFalsy();
    expect(dataOf<{ note: { text: string } }>(curated).note.text).toBe("# Long-Term Memory");
    const log = await callTool(main, "memory_sleep_events", {});
    expect(log.isError, textOf(log)).toBeFalsy();
  });

  it("gives alice's token memories only from memory_search and memory_recall, recording no recalls; the workspace's token gets notes and records them", async () => {
    const added = await callTool(alice, "memory_add", {
      text: "Alice's boiler shows fault code E.10 in frost.",
    });
    expect(added.isError, textOf(added)).toBeFalsy();
    const before = await signals();
    expect(before).toEqual([]);

    const found = await callTool(alice, "memory_search", { query: "boiler fault" });
    expect(found.isError, textOf(found)).toBeFalsy();
    const data = dataOf<{ results: { memory: string }[]; notes?: unknown[] }>(found);
    expect(data.results.map((item) => item.memory)).toContain(
      "Alice's boiler shows fault code E.10 in frost.",
    );
    expect(data.notes).toBeUndefined();
    expectNoNotes(found);

    const recalled = await callTool(alice, "memory_recall", { query: "boiler fault" });
    expect(recalled.isError, textOf(recalled)).toBeFalsy();
    expect(dataOf<{ notes: unknown[]; recorded: number }>(recalled)).toMatchObject({
      notes: [],
      recorded: 0,
    });
    expectNoNotes(recalled);
    // Nothing alice asked steers what sleep promotes into agent_id=main.
    expect(await signals()).toEqual(before);

    const mains = await callTool(main, "memory_search", { query: "boiler fault" });
    expect(mains.isError, textOf(mains)).toBeFalsy();
    const notes = dataOf<{ notes?: { path: string }[] }>(mains).notes ?? [];
    expect(notes.map((note) => note.path)).toContain("memory/2026-11-02.md");
    const recorded = await signals();
    expect(recorded.map((entry) => entry.path)).toContain("memory/2026-11-02.md");
    const mainRecall = await callTool(main, "memory_recall", { query: "boiler fault" });
    expect(dataOf<{ notes: unknown[] }>(mainRecall).notes.length).toBeGreaterThan(0);
  });
});
