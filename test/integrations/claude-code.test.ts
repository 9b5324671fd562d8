/**
 * The Claude Code recipe (`integrations/claude-code/`), run as Claude Code runs it: each hook
 * command of `settings.json` through `sh -c`, the hook's JSON on stdin, `lucid` found on PATH (a
 * shim to this repository's built binary), HOME and LUCID_HOME in temporary directories, the
 * working directory a project. The transcript is a JSONL file in Claude Code's format: user and
 * assistant entries wrapping `message`, tool calls and results as content blocks, and the hook
 * context Claude Code records as an `attachment` entry (never a message).
 *
 * The MCP servers the README shows are started from its JSON blocks, as a host would.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, describe, expect, it } from "vitest";
import { BIN } from "../cli/run-cli.js";
import { type HostRun, runHost } from "../helpers/hosts.js";
import { callTool, cleanEnv, dataOf } from "../mcp/mcp-client.js";

const RECIPE = fileURLToPath(new URL("../../integrations/claude-code/", import.meta.url));
// Model loads and child processes on a small, busy machine: generous, never asserted.
const SLOW = 240_000;

interface HookSettings {
  hooks: Record<string, { hooks: { type: string; command: string; timeout?: number }[] }[]>;
}

/** The one command hook the recipe registers for an event. */
function hookCommand(event: string): string {
  const settings = JSON.parse(readFileSync(join(RECIPE, "settings.json"), "utf8")) as HookSettings;
  const commands = (settings.hooks[event] ?? []).flatMap((group) => group.hooks);
  expect(commands, `one ${event} hook`).toHaveLength(1);
  const [hook] = commands;
  expect(hook?.type).toBe("command");
  return hook?.command as string;
}

// ---- a machine with `lucid` installed and a Claude Code project --------------------------------

const root = mkdtempSync(join(tmpdir(), "lucid-claude-code-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const dirs = {
  bin: join(root, "bin"),
  home: join(root, "home"),
  lucidHome: join(root, "home", ".lucid"),
  project: join(root, "project"),
  transcripts: join(root, "home", ".claude", "projects", "-project"),
};
for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
writeFileSync(join(dirs.bin, "lucid"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
chmodSync(join(dirs.bin, "lucid"), 0o755);

const env = cleanEnv({
  PATH: `${dirs.bin}:${process.env.PATH ?? ""}`,
  HOME: dirs.home,
  LUCID_HOME: dirs.lucidHome,
  CLAUDE_PROJECT_DIR: dirs.project,
});

type Ran = Pick<HostRun, "code" | "stdout" | "stderr">;

/** A command as Claude Code's hooks run one: in the project, with the test's environment. */
const run = (command: string, args: readonly string[], input = ""): Promise<Ran> =>
  runHost(command, args, { cwd: dirs.project, env, input });

/** A hook as Claude Code runs it: its command in a shell, its JSON payload on stdin. */
async function runHook(event: string, payload: Record<string, unknown>): Promise<Ran> {
  const ran = await run("sh", ["-c", hookCommand(event)], JSON.stringify(payload));
  expect(ran.code, `${event} hook failed:\n${ran.stderr}`).toBe(0);
  return ran;
}

async function lucidJson<T>(...args: string[]): Promise<T> {
  const ran = await run(join(dirs.bin, "lucid"), [...args, "--json"]);
  expect(ran.code, ran.stderr).toBe(0);
  return JSON.parse(ran.stdout) as T;
}

// ---- transcripts in Claude Code's JSONL format -------------------------------------------------

type Entry =
  | { user: string }
  | { assistant: string; toolUse?: { id: string; command: string } }
  | { toolResult: { id: string; output: string } }
  | { hookContext: string };

/** Writes a session's transcript (`~/.claude/projects/<project>/<session>.jsonl`); returns its path. */
function writeTranscript(sessionId: string, entries: readonly Entry[]): string {
  let parentUuid: string | null = null;
  const lines = entries.map((entry, index) => {
    const uuid = `${sessionId}-${index}`;
    const base = {
      parentUuid,
      isSidechain: false,
      userType: "external",
      cwd: dirs.project,
      sessionId,
      version: "2.1.0",
      uuid,
      timestamp: new Date(Date.UTC(2026, 11, 2, 10, 0, index)).toISOString(),
    };
    parentUuid = uuid;
    if ("user" in entry) return { ...base, type: "user", message: { role: "user", content: entry.user } };
    if ("toolResult" in entry) {
      const { id, output } = entry.toolResult;
      const content = [{ tool_use_id: id, type: "tool_result", content: output }];
      return { ...base, type: "user", message: { role: "user", content } };
    }
    if ("hookContext" in entry) {
      const attachment = {
        type: "hook_additional_context",
        hookName: "UserPromptSubmit",
        content: [entry.hookContext],
      };
      return { ...base, type: "attachment", attachment };
    }
    const content: Record<string, unknown>[] = [{ type: "text", text: entry.assistant }];
    if (entry.toolUse !== undefined)
      content.push({
        type: "tool_use",
        id: entry.toolUse.id,
        name: "Bash",
        input: { command: entry.toolUse.command },
      });
    return {
      ...base,
      type: "assistant",
      message: {
        id: `msg_${uuid}`,
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5",
        content,
        stop_reason: "end_turn",
      },
    };
  });
  const path = join(dirs.transcripts, `${sessionId}.jsonl`);
  const summary = { type: "summary", summary: "Billing deploys", leafUuid: parentUuid };
  writeFileSync(path, `${[summary, ...lines].map((line) => JSON.stringify(line)).join("\n")}\n`);
  return path;
}

function stopPayload(sessionId: string, transcriptPath: string) {
  return {
    session_id: sessionId,
    transcript_path: transcriptPath,
    cwd: dirs.project,
    permission_mode: "default",
    hook_event_name: "Stop",
    stop_hook_active: false,
  };
}

// Assembled here so that no scannable credential is committed; the shape of a real AWS key id.
const AWS_KEY = ["AKIA", "Q3EGT5KXWN2RZ7PB"].join("");

interface Listed {
  results: { id: string; memory: string }[];
}
interface Status {
  autoDream: { scope: string; gate: { sessions: number; hoursSince: number | null } }[];
}
interface Runs {
  runs: { id: string; mode: string; outcome: { counts: { pruned: number } } }[];
}

const memories = async () =>
  (await lucidJson<Listed>("list", "--user", "alice")).results.map((item) => item.memory);
const sessionsSince = async () =>
  (await lucidJson<Status>("status", "--user", "alice")).autoDream.find(
    (each) => each.scope === "user_id=alice",
  )?.gate;

/** Every byte of Lucid's store files, to look for a credential however it might have been kept. */
function storeBytes(): string {
  return readdirSync(dirs.lucidHome)
    .filter((name) => name.startsWith("lucid.db"))
    .map((name) => readFileSync(join(dirs.lucidHome, name)).toString("latin1"))
    .join("\n");
}

describe("the Claude Code recipe, run as Claude Code runs its hooks", () => {
  it(
    "UserPromptSubmit: adds nothing to the prompt while nothing is stored",
    async () => {
      const ran = await runHook("UserPromptSubmit", {
        session_id: "session-0",
        transcript_path: join(dirs.transcripts, "session-0.jsonl"),
        cwd: dirs.project,
        hook_event_name: "UserPromptSubmit",
        prompt: "Which AWS region does the billing service deploy to?",
      });
      expect(ran.code).toBe(0);
      expect(ran.stdout).toBe("");
    },
    SLOW,
  );

  it(
    "Stop: captures the last turn's durable facts, drops chatter, never keeps a key in clear, counts the session",
    async () => {
      const transcript = writeTranscript("session-1", [
        { user: "hi" },
        { assistant: "Hello! How can I help?" },
        {
          user:
            "Thanks, that worked! We deploy the billing service with Terraform on AWS eu-west-1. " +
            `The deploy user's access key is ${AWS_KEY}. Can you run the plan?`,
        },
        // What the UserPromptSubmit hook printed comes back as an attachment: not the user's words.
        {
          hookContext: "<recalled-memories>\n- User prefers Pulumi for infrastructure.\n</recalled-memories>",
        },
        { assistant: "Running the plan.", toolUse: { id: "toolu_01", command: "terraform plan" } },
        {
          toolResult: {
            id: "toolu_01",
            output: "No changes. Your infrastructure matches the configuration.",
          },
        },
        { assistant: "The plan shows no changes. Noted that your team's favourite editor is Emacs." },
      ]);

      const stop = await runHook("Stop", stopPayload("session-1", transcript));
      expect(stop.stdout).not.toContain(AWS_KEY);

      const stored = await memories();
      expect(stored.some((text) => /Terraform/.test(text) && /eu-west-1/.test(text))).toBe(true);
      expect(stored.join("\n")).not.toMatch(/worked|Thanks|run the plan|Pulumi|Emacs|No changes/);
      // The key's sentence may be kept, redacted; the key itself is nowhere in the store's files.
      expect(stored.join("\n")).not.toContain(AWS_KEY);
      expect(storeBytes()).not.toContain(AWS_KEY);

      expect((await sessionsSince())?.sessions).toBe(1);
    },
    SLOW,
  );

  it(
    "UserPromptSubmit: prints the related memories as one <recalled-memories> block, plain text on exit 0",
    async () => {
      const ran = await runHook("UserPromptSubmit", {
        session_id: "session-2",
        transcript_path: join(dirs.transcripts, "session-2.jsonl"),
        cwd: dirs.project,
        permission_mode: "default",
        hook_event_name: "UserPromptSubmit",
        prompt: "Which AWS region does the billing service deploy to?",
      });
      const block = ran.stdout.trim();
      // Claude Code adds a UserPromptSubmit hook's plain stdout to the context; stdout that parses as
      // JSON is read as hook control instead, so the block must not be JSON.
      expect(() => JSON.parse(block)).toThrow();
      expect(block.startsWith("<recalled-memories>")).toBe(true);
      expect(block.endsWith("</recalled-memories>")).toBe(true);
      expect(block).toMatch(/Terraform on AWS eu-west-1/);
      expect(block).not.toContain(AWS_KEY);
    },
    SLOW,
  );

  it(
    "Stop: lucid dream --if-due waits for the gate, counts a session once, and dreams when enough sessions passed",
    async () => {
      writeFileSync(
        join(dirs.lucidHome, "lucid.config.json"),
        JSON.stringify({ dream: { gate: { minHours: 0, minSessions: 3, minMemories: 1 } } }),
      );
      // What the agent stored itself over MCP (memory_add) is not triaged: the dream is what prunes it.
      const added = await run(join(dirs.bin, "lucid"), ["add", "ok thanks", "--user", "alice"]);
      expect(added.code, added.stderr).toBe(0);

      const second = [
        { user: "My manager Dana reviews every production deploy." },
        { assistant: "Understood." },
      ];
      await runHook("Stop", stopPayload("session-2", writeTranscript("session-2", second)));
      expect((await sessionsSince())?.sessions).toBe(2);
      // A second turn of the same session: captured, not counted again.
      const more = [
        ...second,
        { user: "We pin Terraform providers to exact versions." },
        { assistant: "Got it." },
      ];
      await runHook("Stop", stopPayload("session-2", writeTranscript("session-2", more)));
      expect((await sessionsSince())?.sessions).toBe(2);
      expect((await memories()).some((text) => /pin Terraform providers/.test(text))).toBe(true);
      expect((await lucidJson<Runs>("dream", "runs", "--user", "alice")).runs).toEqual([]);

      const third = [{ user: "I prefer small pull requests." }, { assistant: "Noted." }];
      const stop = await runHook("Stop", stopPayload("session-3", writeTranscript("session-3", third)));
      expect(stop.stdout).toContain("[lucid dream --auto]");

      const { runs } = await lucidJson<Runs>("dream", "runs", "--user", "alice");
      expect(runs).toHaveLength(1);
      expect(runs[0]?.mode).toBe("auto");
      expect(runs[0]?.outcome.counts.pruned).toBeGreaterThanOrEqual(1);
      const after = await memories();
      expect(after).not.toContain("ok thanks");
      expect(after.some((text) => /Dana/.test(text))).toBe(true);
      expect(after.some((text) => /pull requests/.test(text))).toBe(true);
      expect((await sessionsSince())?.sessions).toBe(0);
    },
    SLOW,
  );

  it("the README shows settings.json's hooks exactly", () => {
    const shown = readmeJson().filter((block) => "hooks" in block);
    expect(shown).toEqual([JSON.parse(readFileSync(join(RECIPE, "settings.json"), "utf8"))]);
  });

  it(
    "MCP: every mcpServers block of the README starts the server and finds what the hooks captured",
    async () => {
      const servers = readmeJson().flatMap((config) =>
        config.mcpServers?.lucid === undefined ? [] : [config.mcpServers.lucid],
      );
      expect(servers.length).toBeGreaterThanOrEqual(2);
      for (const server of servers) {
        const transport = new StdioClientTransport({
          command: server.command,
          args: server.args,
          env,
          cwd: dirs.project,
          stderr: "pipe",
        });
        const client = new Client({ name: "claude-code-recipe-test", version: "0" });
        await client.connect(transport);
        try {
          const found = await callTool(client, "memory_search", { query: "How is billing deployed?" });
          expect(found.isError, JSON.stringify(found)).toBeFalsy();
          const { results } = dataOf<{ results: { memory: string }[] }>(found);
          expect(results.some((item) => /Terraform/.test(item.memory))).toBe(true);
        } finally {
          await client.close();
        }
      }
    },
    SLOW,
  );
});

interface McpServer {
  command: string;
  args: string[];
}

/** The README's JSON code blocks, parsed. */
function readmeJson(): { hooks?: unknown; mcpServers?: Record<string, McpServer> }[] {
  const readme = readFileSync(join(RECIPE, "README.md"), "utf8");
  return [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => JSON.parse(match[1] as string));
}
