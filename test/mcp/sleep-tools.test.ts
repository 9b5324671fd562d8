/**
 * The MCP surface of sleep, as an agent uses it: a server with a Markdown workspace
 * (`createMcpServer({ workspace })`, `lucid mcp --workspace`) searches the notes beside long-term
 * memory, records recalls of daily notes, and reads a note's lines by `path#Lx-Ly` in memory_get.
 * Every server works on its own copy of the fixture workspace.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { EventRegistry } from "../../src/edge/events.js";
import { type Memory, openMemory } from "../../src/index.js";
import { createMcpServer, type McpServerOptions } from "../../src/mcp/server.js";
import { runJson } from "../cli/run-cli.js";
import { createFakeSecrets } from "../fixtures/secrets/fake-secrets.js";
import { tempFiles } from "../helpers/temp-dir.js";
import { callTool, connectStdio, dataOf, type StdioSession, textOf } from "./mcp-client.js";

const files = tempFiles("mcp-sleep");
const FIXTURE = fileURLToPath(new URL("../fixtures/sleep-workspace/", import.meta.url));
const NOW = "2026-11-29T09:00:00Z";

interface NoteHit {
  path: string;
  startLine: number;
  endLine: number;
  address: string;
  snippet: string;
  score: number;
  shortTerm: boolean;
}

interface SearchData {
  scope: Record<string, string>;
  results: { id: string; memory: string; metadata: Record<string, unknown> }[];
  notes?: NoteHit[];
}

interface ToolError {
  error: { code: string; message: string };
}

/** A fresh copy of the fixture workspace. */
function copyWorkspace(name: string): string {
  const dir = join(files.dir, name);
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

function lineOf(dir: string, path: string, line: number): string {
  return readFileSync(join(dir, path), "utf8").split("\n")[line - 1] as string;
}

describe("MCP tools with a notes workspace (in process)", () => {
  let memory: Memory;
  const clients: Client[] = [];
  let workspace: string;
  let nadia: Client;
  let plain: Client;

  async function connect(options: Omit<McpServerOptions, "memory">): Promise<Client> {
    const server = createMcpServer({ memory, autoDream: { enabled: false }, ...options });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "sleep-test", version: "0" });
    await client.connect(clientSide);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    // The local model, as `lucid mcp` runs it by default.
    memory = await openMemory({ path: files.path() });
    workspace = copyWorkspace("ws");
    const events = new EventRegistry();
    nadia = await connect({ events, workspace, defaults: { userId: "nadia" } });
    plain = await connect({ events, defaults: { userId: "nadia" } });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await memory.close();
  });

  it("memory_search returns note hits with their path#Lx-Ly and records recalls of daily notes", async () => {
    const before = await memory.workspace(workspace).signals();
    expect(before).toEqual([]);
    const found = await callTool(nadia, "memory_search", { query: "boiler fault" });
    expect(found.isError).toBeFalsy();
    const data = dataOf<SearchData>(found);
    expect(data.results).toEqual([]);
    expect(data.scope).toEqual({ user_id: "nadia" });
    const notes = data.notes ?? [];
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.length).toBeLessThanOrEqual(6);
    for (const note of notes) {
      expect(note).toMatchObject({
        path: expect.any(String),
        address: `${note.path}#L${note.startLine}-L${note.endLine}`,
        score: expect.any(Number),
      });
      expect(note.score).toBeGreaterThanOrEqual(0.35);
    }
    // Best first.
    expect(notes.map((note) => note.score)).toEqual(
      [...notes.map((note) => note.score)].sort((a, b) => b - a),
    );
    const boiler = notes.find((note) => note.path === "memory/2026-11-02.md");
    expect(boiler?.snippet).toContain("F.28");

    const text = textOf(found);
    expect(text).toContain("No relevant memories found.");
    expect(text).toMatch(/Found \d+ note snippets?:/);
    expect(text).toMatch(/path: memory\/2026-11-02\.md#L\d+-L\d+\)/);
    for (const note of notes) expect(text).toContain(`path: ${note.address})`);

    // The daily-note hits became recall signals in the workspace; MEMORY.md and undated notes did not.
    const signals = await memory.workspace(workspace).signals();
    const shortTerm = notes.filter((note) => note.shortTerm);
    expect(shortTerm.length).toBeGreaterThan(0);
    expect(signals.map((entry) => `${entry.path}#L${entry.startLine}-L${entry.endLine}`).sort()).toEqual(
      shortTerm.map((note) => note.address).sort(),
    );
    for (const entry of signals) expect(entry.recallCount).toBe(1);

    // The same question again counts again.
    await callTool(nadia, "memory_search", { query: "boiler fault" });
    const twice = await memory.workspace(workspace).signals();
    expect(twice.length).toBe(signals.length);
    for (const entry of twice) expect(entry.recallCount).toBe(2);
  });

  it("memory_get reads a note's lines by path", async () => {
    const got = await callTool(nadia, "memory_get", { path: "memory/2026-11-05.md#L9-L9" });
    expect(got.isError).toBeFalsy();
    const line = lineOf(workspace, "memory/2026-11-05.md", 9);
    expect(line).toContain("Elsie's violin lessons");
    const note = dataOf<{ note: { text: string; address: string; lineCount: number } }>(got).note;
    expect(note).toMatchObject({
      path: "memory/2026-11-05.md",
      startLine: 9,
      endLine: 9,
      address: "memory/2026-11-05.md#L9-L9",
      text: line,
    });
    const lineCount = readFileSync(join(workspace, "memory/2026-11-05.md"), "utf8").split("\n").length;
    expect(note.lineCount).toBe(lineCount);
    expect(textOf(got)).toBe(`memory/2026-11-05.md#L9-L9 (of ${lineCount} lines):\n${line}`);

    const range = await callTool(nadia, "memory_get", { path: "memory/2026-11-02.md#L6-L8" });
    expect(dataOf<{ note: { text: string } }>(range).note.text).toBe(
      readFileSync(join(workspace, "memory/2026-11-02.md"), "utf8").split("\n").slice(5, 8).join("\n"),
    );
    // What memory_search returned can be passed as it is.
    const found = dataOf<SearchData>(
      await callTool(nadia, "memory_search", { query: "violin lessons Thursday" }),
    );
    const hit = (found.notes ?? [])[0] as NoteHit;
    const read = await callTool(nadia, "memory_get", { path: hit.address });
    expect(read.isError).toBeFalsy();
    expect(dataOf<{ note: { address: string } }>(read).note.address).toBe(hit.address);
    // MEMORY.md too, and a single line as #Lx.
    const curated = await callTool(nadia, "memory_get", { path: "MEMORY.md#L1" });
    expect(dataOf<{ note: { text: string } }>(curated).note.text).toBe("# Long-Term Memory");
  });

  it("memory_get refuses path with memory_id, a path outside the workspace, and lines that are not there", async () => {
    const both = await callTool(nadia, "memory_get", {
      path: "memory/2026-11-05.md#L9-L9",
      memory_id: "6f1c1a52-8f0e-4c7b-9d1e-2a3b4c5d6e7f",
    });
    expect(both.isError).toBe(true);
    expect(dataOf<ToolError>(both).error.code).toBe("INVALID_ARGUMENT");
    expect(dataOf<ToolError>(both).error.message).toContain("not both");
    const neither = await callTool(nadia, "memory_get", {});
    expect(neither.isError).toBe(true);
    expect(dataOf<ToolError>(neither).error.code).toBe("INVALID_ARGUMENT");

    writeFileSync(join(files.dir, "outside.md"), "# secret diary\n");
    for (const path of [
      "../outside.md#L1-L1",
      "memory/../../outside.md#L1-L1",
      `${join(files.dir, "outside.md")}#L1-L1`,
      "memory/2026-11-05.txt#L1-L1",
    ]) {
      const refused = await callTool(nadia, "memory_get", { path });
      expect({ path, isError: refused.isError, code: dataOf<ToolError>(refused).error?.code }).toEqual({
        path,
        isError: true,
        code: "INVALID_ARGUMENT",
      });
      expect(textOf(refused)).not.toContain("secret diary");
    }
    const malformed = await callTool(nadia, "memory_get", { path: "memory/2026-11-05.md" });
    expect(dataOf<ToolError>(malformed).error.code).toBe("INVALID_ARGUMENT");
    const missingNote = await callTool(nadia, "memory_get", { path: "memory/2030-01-01.md#L1-L1" });
    expect(dataOf<ToolError>(missingNote).error.code).toBe("NOTE_NOT_FOUND");
    const pastTheEnd = await callTool(nadia, "memory_get", { path: "memory/2026-11-05.md#L9-L999" });
    expect(dataOf<ToolError>(pastTheEnd).error.code).toBe("NOTE_NOT_FOUND");
  });

  it("a server without a workspace refuses path, naming --workspace, and searches memories only", async () => {
    const refused = await callTool(plain, "memory_get", { path: "memory/2026-11-05.md#L9-L9" });
    expect(refused.isError).toBe(true);
    expect(dataOf<ToolError>(refused).error.code).toBe("INVALID_ARGUMENT");
    expect(textOf(refused)).toContain("--workspace");
    const found = await callTool(plain, "memory_search", { query: "boiler fault" });
    expect(found.isError).toBeFalsy();
    expect(dataOf<SearchData>(found).notes).toBeUndefined();
    expect(textOf(found)).not.toContain("path: ");
  });

  it("lists memory_get with path in its input schema, and memory_search describes note hits", async () => {
    const { tools } = await nadia.listTools();
    const get = tools.find((tool) => tool.name === "memory_get");
    expect(get).toBeDefined();
    const properties = get?.inputSchema.properties ?? {};
    expect(Object.keys(properties)).toEqual(expect.arrayContaining(["memory_id", "path", "user_id"]));
    expect(properties.path).toMatchObject({ type: "string" });
    // Either one may be given, so neither is required.
    expect(get?.inputSchema.required ?? []).not.toContain("memory_id");
    expect(get?.inputSchema.required ?? []).not.toContain("path");
    expect(get?.description).toContain("path");
    const search = tools.find((tool) => tool.name === "memory_search");
    expect(search?.description).toContain("path#Lstart-Lend");
    // A server without a workspace lists the same tools.
    expect((await plain.listTools()).tools.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name));
  });

  it("finds what sleep promoted: the long-term memory cites the note it came from", async () => {
    const dir = copyWorkspace("ws-promoted");
    const notes = memory.workspace(dir);
    const replay = await notes.recordLog(readFileSync(join(dir, "search-log.jsonl"), "utf8"));
    expect(replay.errors).toEqual([]);
    const result = await notes.promote({ now: NOW, apply: true });
    expect(result.promoted.length).toBe(6);
    const server = await connect({ workspace: dir });
    // Sleep promotes into the workspace's scope, agent_id=main by default.
    const found = await callTool(server, "memory_search", {
      query: "boiler fault F.28 reset button",
      agent_id: "main",
    });
    expect(found.isError).toBeFalsy();
    const data = dataOf<SearchData>(found);
    const promoted = data.results.find((item) => item.metadata.source === "memory/2026-11-02.md#L6-L8");
    expect(promoted?.memory).toContain("Boiler fault F.28");
    expect(promoted?.metadata).toMatchObject({ sleepRun: result.runId, workspace: dir });
    expect(textOf(found)).toContain(`id: ${promoted?.id}`);
    // The new MEMORY.md section is a note too.
    expect((data.notes ?? []).map((note) => note.path)).toContain("memory/2026-11-02.md");
    // A user's server does not see agent main's memories.
    const other = await connect({ workspace: dir, defaults: { userId: "nadia" } });
    const theirs = dataOf<SearchData>(await callTool(other, "memory_search", { query: "boiler fault F.28" }));
    expect(theirs.results).toEqual([]);
    expect((theirs.notes ?? []).length).toBeGreaterThan(0);
  });

  it("memory_sleep_events lists what sleep did in the workspace, and needs one", async () => {
    const dir = copyWorkspace("events");
    const events = new EventRegistry();
    const client = await connect({ events, workspace: dir, defaults: { userId: "ines" } });
    const empty = await callTool(client, "memory_sleep_events", {});
    expect(textOf(empty)).toContain("No sleep events yet");
    const notes = memory.workspace(dir, { userId: "ines", timeZone: "UTC" });
    await notes.recordLog(readFileSync(join(dir, "search-log.jsonl"), "utf8"));
    await notes.sweep({ now: NOW });
    const listed = await callTool(client, "memory_sleep_events", { type: "memory.dream.completed" });
    expect(listed.isError).toBeFalsy();
    const data = dataOf<{ events: { type: string; data: { phase: string; outcome: string } }[] }>(listed);
    expect(data.events.map((event) => [event.data.phase, event.data.outcome]).sort()).toEqual([
      ["deep", "completed"],
      ["light", "completed"],
      ["rem", "completed"],
    ]);
    expect(textOf(listed)).toMatch(
      /memory\.dream\.completed \| phase=deep outcome=completed candidates=\d+ promoted=\d+/u,
    );
    const refused = await callTool(plain, "memory_sleep_events", {});
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("lucid mcp --workspace DIR");
  });

  it("never puts a credential written in a note into the agent's context", async () => {
    const dir = copyWorkspace("ws-secret");
    const token = createFakeSecrets(5)["github-pat"]?.() ?? "";
    expect(token).toMatch(/^ghp_/);
    const file = join(dir, "memory/2026-11-02.md");
    const lines = readFileSync(file, "utf8").split("\n");
    lines[9] = `- The Kestrel Heating portal token is ${token} for booking the boiler service.`;
    writeFileSync(file, lines.join("\n"));
    const server = await connect({ workspace: dir, defaults: { userId: "nadia" } });

    const found = await callTool(server, "memory_search", {
      query: "Kestrel Heating portal token boiler service",
    });
    expect(found.isError).toBeFalsy();
    const hit = (dataOf<SearchData>(found).notes ?? []).find(
      (note) => note.path === "memory/2026-11-02.md" && note.startLine <= 10 && note.endLine >= 10,
    );
    expect(hit).toBeDefined();
    // The recall record is stored redacted.
    const signals = await memory.workspace(dir, { userId: "nadia" }).signals();
    expect(JSON.stringify(signals)).not.toContain(token);
    expect(JSON.stringify(signals)).toContain("[REDACTED:github-pat]");
    // The server masks every credential it shows (src/edge/output-mask.ts: "the MCP server always").
    // Fails today (a defect): note snippets and note text bypass the mask — the mask reads only the
    // keys memory/text/… under stored content, and memory_get's path branch is never masked at all.
    expect.soft(textOf(found)).not.toContain(token);
    expect.soft(JSON.stringify(found.structuredContent)).not.toContain(token);
    const got = await callTool(server, "memory_get", { path: "memory/2026-11-02.md#L10-L10" });
    expect(got.isError).toBeFalsy();
    expect.soft(textOf(got)).not.toContain(token);
    expect.soft(JSON.stringify(got.structuredContent)).not.toContain(token);
  });
});

describe("lucid mcp --workspace (stdio)", () => {
  const home = join(files.dir, "home");
  let session: StdioSession;
  let configured: StdioSession;
  let workspace: string;
  let configuredWorkspace: string;

  beforeAll(async () => {
    workspace = copyWorkspace("stdio-ws");
    configuredWorkspace = copyWorkspace("stdio-configured");
    session = await connectStdio({
      home,
      args: ["--workspace", workspace, "--agent", "main"],
      env: { LUCID_DREAM: "off" },
    });
    const configHome = join(files.dir, "configured-home");
    mkdirSync(configHome, { recursive: true });
    writeFileSync(
      join(configHome, "lucid.config.json"),
      JSON.stringify({ sleep: { workspace: configuredWorkspace } }),
    );
    configured = await connectStdio({
      home: configHome,
      env: { LUCID_DREAM: "off", LUCID_USER_ID: "nadia" },
    });
  });
  afterAll(async () => {
    await Promise.all([session?.close(), configured?.close()]);
  });

  it("searches and reads the workspace's notes; the CLI sees the recalls it recorded", async () => {
    const found = await callTool(session.client, "memory_search", {
      query: "Millbrook gauge datum correction",
    });
    expect(found.isError, textOf(found)).toBeFalsy();
    const notes = dataOf<SearchData>(found).notes ?? [];
    expect(notes.map((note) => note.path)).toContain("memory/2026-10-27.md");
    expect(textOf(found)).toMatch(/path: memory\/2026-10-27\.md#L\d+-L\d+/);

    const got = await callTool(session.client, "memory_get", { path: "memory/2026-10-27.md#L6-L7" });
    expect(got.isError, textOf(got)).toBeFalsy();
    expect(dataOf<{ note: { text: string } }>(got).note.text).toBe(
      readFileSync(join(workspace, "memory/2026-10-27.md"), "utf8").split("\n").slice(5, 7).join("\n"),
    );

    const signals = await runJson(["sleep", "signals", "--workspace", workspace], { home });
    expect(signals.code).toBe(0);
    const recorded = (signals.json.entries as { path: string }[]).map((entry) => entry.path);
    expect(recorded).toContain("memory/2026-10-27.md");
    expect(recorded.length).toBe(notes.filter((note) => note.shortTerm).length);
  });

  it("sweeps the workspace in the background on sleep.frequency when sleep.enabled is set", async () => {
    const sleepyWorkspace = copyWorkspace("stdio-sleepy");
    const sleepyHome = join(files.dir, "sleepy-home");
    mkdirSync(sleepyHome, { recursive: true });
    writeFileSync(
      join(sleepyHome, "lucid.config.json"),
      JSON.stringify({
        timeZone: "UTC",
        // Every second, so the test need not wait for 03:00.
        sleep: { workspace: sleepyWorkspace, enabled: true, frequency: "* * * * * *" },
      }),
    );
    const sleepy = await connectStdio({ home: sleepyHome, env: { LUCID_DREAM: "off" } });
    try {
      await vi.waitFor(
        async () => {
          const listed = await callTool(sleepy.client, "memory_sleep_events", {
            type: "memory.dream.completed",
          });
          const phases = dataOf<{ events: { data: { phase: string } }[] }>(listed).events.map(
            (event) => event.data.phase,
          );
          expect(phases).toContain("deep");
        },
        { timeout: 60_000, interval: 500 },
      );
      expect(sleepy.stderr()).toContain(`Sleep sweeps ${sleepyWorkspace} on * * * * * * (UTC).`);
    } finally {
      await sleepy.close();
    }
  });

  it("uses sleep.workspace from the config when --workspace is not given", async () => {
    const found = await callTool(configured.client, "memory_search", { query: "kiln booking shelf" });
    expect(found.isError, textOf(found)).toBeFalsy();
    expect((dataOf<SearchData>(found).notes ?? []).map((note) => note.path)).toContain(
      "memory/2026-10-14.md",
    );
    const got = await callTool(configured.client, "memory_get", { path: "memory/2026-10-14.md#L6-L6" });
    expect(dataOf<{ note: { text: string } }>(got).note.text).toBe(
      lineOf(configuredWorkspace, "memory/2026-10-14.md", 6),
    );
  });
});
