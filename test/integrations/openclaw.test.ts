/**
 * Lucid inside the real OpenClaw (`openclaw@2026.9.6` on Node 24): the plugin package built and
 * installed as a user would (a real folder, no links into this repository), loaded in the memory
 * slot, and driven through `openclaw agent --local` turns against a loopback stub LLM. The plugin
 * reaches Lucid through a `lucid mcp` child running this repository's built CLI.
 */

import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeWithHost, type HostRun, openclawConfig, runOpenclaw } from "../helpers/hosts.js";
import { userTexts, useStubChatServer } from "../helpers/stub-chat-server.js";

const ROOT = resolve(import.meta.dirname, "../..");
const LUCID = [process.execPath, join(ROOT, "bin", "lucid.js")];
const TURN = 240_000;

describeWithHost("openclaw", "Lucid as OpenClaw's memory plugin", () => {
  const llm = useStubChatServer();
  let dir: string;
  let stateDir: string;
  let configPath: string;
  let lucidHome: string;

  /** `lucid <args> --home <lucidHome> --json`, parsed. */
  // biome-ignore lint/suspicious/noExplicitAny: the CLI's JSON, read freely by assertions
  const lucid = (...args: string[]): any =>
    JSON.parse(
      execFileSync(LUCID[0] as string, [...LUCID.slice(1), ...args, "--home", lucidHome, "--json"], {
        encoding: "utf8",
      }),
    );

  const openclaw = (args: string[], options: { strayGraceMs?: number } = {}): Promise<HostRun> =>
    runOpenclaw(args, { stateDir, configPath, timeoutMs: TURN, ...options });

  const turn = async (
    message: string,
    sessionId: string,
    options: { strayGraceMs?: number; sessionKey?: string } = {},
  ) => {
    const key = options.sessionKey === undefined ? [] : ["--session-key", options.sessionKey];
    const run = await openclaw(
      [
        "agent",
        "--local",
        "--agent",
        "main",
        "--session-id",
        sessionId,
        ...key,
        "--message",
        message,
        "--json",
      ],
      options,
    );
    expect(run.code, `openclaw agent failed:\n${run.stderr.slice(-3000)}`).toBe(0);
    return run;
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "lucid-openclaw-"));
    stateDir = join(dir, "state");
    configPath = join(dir, "openclaw.json");
    lucidHome = join(dir, "lucid");
    mkdirSync(stateDir, { recursive: true });

    // The package as `npm pack` would ship it: the manifest, package.json and the one bundled file.
    execFileSync(process.execPath, [join(ROOT, "integrations", "build-plugin.mjs"), "openclaw"]);
    const plugin = join(dir, "plugins", "lucid");
    mkdirSync(plugin, { recursive: true });
    for (const file of ["openclaw.plugin.json", "package.json", "dist"]) {
      cpSync(join(ROOT, "integrations", "openclaw", file), join(plugin, file), { recursive: true });
    }

    // A low gate, so the second counted session dreams; Lucid reads it from its home.
    mkdirSync(lucidHome, { recursive: true });
    writeFileSync(
      join(lucidHome, "lucid.config.json"),
      JSON.stringify({ dream: { gate: { minHours: 0, minSessions: 2, minMemories: 4 } } }),
    );
    for (const text of [
      "Alice drinks her coffee black, with no sugar.",
      "Alice works as a backend engineer at Northwind.",
      "Alice works at Northwind as a backend engineer.",
      "Alice is allergic to peanuts.",
    ]) {
      lucid("add", text, "--user", "alice");
    }

    writeFileSync(
      configPath,
      openclawConfig({
        llmBaseUrl: llm.baseURL,
        pluginId: "lucid",
        pluginDir: plugin,
        pluginConfig: { command: LUCID, home: lucidHome, userId: "alice" },
      }),
    );
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    "loads in the memory slot with its tools, hooks and CLI",
    async () => {
      const run = await openclaw(["plugins", "inspect", "lucid", "--runtime", "--json"]);
      expect(run.code, run.stderr.slice(-3000)).toBe(0);
      const inspect = JSON.parse(run.stdout);
      expect(inspect.plugin).toMatchObject({
        id: "lucid",
        kind: "memory",
        status: "loaded",
        memorySlotSelected: true,
      });
      // Mem0's eight tools, as the manifest declares them (OpenClaw reads it without running code).
      const manifest = JSON.parse(
        readFileSync(join(ROOT, "integrations", "openclaw", "openclaw.plugin.json"), "utf8"),
      );
      expect(manifest.contracts.tools).toHaveLength(8);
      expect(inspect.plugin.toolNames).toEqual(manifest.contracts.tools);
      expect(inspect.typedHooks.map((hook: { name: string }) => hook.name).sort()).toEqual([
        "agent_end",
        "before_prompt_build",
      ]);
      expect(inspect.cliCommands).toEqual(["lucid"]);
      expect(inspect.diagnostics.filter((each: { level: string }) => each.level === "error")).toEqual([]);
    },
    TURN,
  );

  it(
    "recalls into the prompt, runs a memory tool the model calls, and captures the user's facts",
    async () => {
      llm.queue.push(
        {
          toolCalls: [{ name: "tool_call", arguments: { id: "memory_search", args: { query: "peanuts" } } }],
        },
        { text: "Noted: oat milk from now on." },
      );
      const before = llm.calls.length;
      await turn(
        "How do I take my coffee again? By the way, I prefer oat milk in my flat white from now on.",
        "session-one",
      );
      const calls = llm.calls.slice(before);
      expect(calls.length).toBeGreaterThanOrEqual(2);

      // Recall: the block reaches the model as a prefix of the user's message.
      const asked = userTexts(calls[0]?.messages ?? []).find((text) => text.includes("coffee again?"));
      expect(asked).toBeDefined();
      const block = asked?.slice(0, asked.indexOf("How do I take my coffee again?")) ?? "";
      // Exactly once, though OpenClaw registers the plugin several times per process.
      expect(block.split("<recalled-memories>")).toHaveLength(2);
      expect(block).toContain("Alice drinks her coffee black");

      // The tool the model called ran on Lucid, and its result went back to the model.
      expect(calls[1]?.toolResults.join("\n")).toContain("Alice is allergic to peanuts");

      // Capture: the preference was stored; the question was not.
      const texts = lucid("list", "--user", "alice").results.map((item: { memory: string }) => item.memory);
      expect(texts.filter((text: string) => /oat milk/i.test(text))).toHaveLength(1);
      expect(texts.some((text: string) => /coffee again/i.test(text))).toBe(false);

      // The turn counted its session for the auto-dream gate (2 needed).
      expect(lucid("status", "--user", "alice").autoDream[0].gate.sessions).toBe(1);
    },
    TURN,
  );

  it(
    "gives a subagent its user's memories, but it stores nothing and counts no session",
    async () => {
      llm.queue.push({ text: "On it." });
      const before = llm.calls.length;
      const stored = lucid("list", "--user", "alice").results.length;
      const sessions = lucid("status", "--user", "alice").autoDream[0].gate.sessions;
      await turn("How does Alice take her coffee? I prefer green tea in the afternoons.", "subagent-one", {
        sessionKey: "agent:main:subagent:7d2c",
      });
      const asked = userTexts(llm.calls[before]?.messages ?? []).find((text) =>
        text.includes("take her coffee?"),
      );
      expect(asked).toContain("You are a subagent");
      expect(asked).toContain("Alice drinks her coffee black");
      expect(lucid("list", "--user", "alice").results.length).toBe(stored);
      expect(lucid("status", "--user", "alice").autoDream[0].gate.sessions).toBe(sessions);
    },
    TURN,
  );

  it(
    "dreams with Lucid's engine, in the background, when the next session passes the gate",
    async () => {
      expect(lucid("dream", "runs", "--user", "alice").runs ?? []).toEqual([]);
      // The second session passes the gate (2 sessions, ≥4 memories): the Lucid child dreams in the
      // background and commits before it exits, after OpenClaw has.
      llm.queue.push({ text: "Sure." });
      const before = llm.calls.length;
      await turn("Thanks, that is all for today.", "session-two", { strayGraceMs: 120_000 });
      // No protocol prompt and no turn spent on it: the model answered the user once, and that was all.
      expect(llm.calls.length - before).toBe(1);

      const runs = lucid("dream", "runs", "--user", "alice");
      expect(runs.runs.length).toBe(1);
      // The two Northwind memories were one fact: the dream merged them.
      const texts = lucid("list", "--user", "alice").results.map((item: { memory: string }) => item.memory);
      expect(texts.filter((text: string) => /Northwind/i.test(text))).toHaveLength(1);
    },
    TURN,
  );

  it(
    "answers `openclaw lucid status` and `openclaw lucid search` from Lucid",
    async () => {
      const status = await openclaw(["lucid", "status", "--json"]);
      expect(status.code, status.stderr.slice(-3000)).toBe(0);
      const report = JSON.parse(status.stdout);
      expect(report.total).toBeGreaterThan(0);

      const search = await openclaw(["lucid", "search", "coffee", "--json"]);
      expect(search.code, search.stderr.slice(-3000)).toBe(0);
      const found = JSON.parse(search.stdout);
      expect(JSON.stringify(found)).toContain("coffee black");
    },
    TURN,
  );
});
