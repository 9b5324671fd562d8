/**
 * Mem0's own OpenClaw memory plugin, the real `@mem0/openclaw-mem0` 1.0.16, inside the real
 * OpenClaw (`openclaw@2026.9.6` on Node 24), with `lucid serve` as its Mem0 platform: in
 * `mode: "platform"` the plugin hands its `baseUrl` to mem0ai 3.0.7's MemoryClient as `host` (and
 * uses it for its own raw calls, the events). The plugin is copied into a fresh state directory
 * as a user's plugin folder, selected for the memory slot, and driven through `openclaw agent
 * --local` turns against a loopback stub LLM. A recording proxy sits between the plugin and Lucid,
 * so every request it made, and Lucid's status for it, is checked.
 */

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { MemoryItem } from "../../src/memory/types.js";
import { type HostRun, openclawConfig, runOpenclaw } from "../helpers/hosts.js";
import {
  describeWithOpenclawMem0,
  installOpenclawMem0,
  OPENCLAW_MEM0_DIR,
  type RecordingProxy,
  startRecordingProxy,
} from "../helpers/openclaw-mem0.js";
import {
  type StubChatCall,
  type StubReply,
  userTexts,
  useStubChatServer,
} from "../helpers/stub-chat-server.js";
import { startTestServer, type TestServer } from "../http/rest-server.js";

const TEST = 180_000;
const TURN = 170_000;
const PLUGIN = "openclaw-mem0";

const FACT = "Please remember for the future: I am allergic to peanuts, and I always drink my coffee black.";

/** A path with its ids (memories, events) replaced by `{id}`, to list the routes hit. */
function routeOf(method: string, url: string): string {
  const path = (url.split("?")[0] ?? "").replace(
    /\/(?:evt_[\w-]+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?=\/|$)/gi,
    "/{id}",
  );
  return `${method} ${path}`;
}

/** The model calling one of the plugin's tools, through OpenClaw's Tool Search (`tool_call`). */
function callTool(name: string, args: Record<string, unknown>): StubReply {
  return { toolCalls: [{ name: "tool_call", arguments: { id: name, args } }] };
}

describeWithOpenclawMem0("Mem0's OpenClaw plugin (@mem0/openclaw-mem0) on lucid serve", () => {
  /** What the model does next when the queue is empty: one step per chat call, in order. */
  const steps: ((call: StubChatCall) => StubReply)[] = [];
  const llm = useStubChatServer({ answer: (call) => steps.shift()?.(call) ?? { text: "ok" } });
  let server: TestServer & { keys: string[] };
  let proxy: RecordingProxy;
  let dir: string;
  let stateDir: string;
  let configPath: string;

  const alices = async (): Promise<MemoryItem[]> => (await server.memory.getAll({ userId: "alice" })).results;

  const turn = async (message: string, sessionId: string): Promise<HostRun> => {
    const run = await runOpenclaw(
      ["agent", "--local", "--agent", "main", "--session-id", sessionId, "--message", message, "--json"],
      { stateDir, configPath, timeoutMs: TURN, env: { MEM0_TELEMETRY: "false" } },
    );
    expect(run.code, `openclaw agent failed:\n${run.stderr.slice(-3000)}`).toBe(0);
    return run;
  };

  /** Waits (a little) for what the plugin sends without waiting for it (its capture). */
  const eventually = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
    const deadline = Date.now() + 15_000;
    let value = await read();
    while (!done(value) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      value = await read();
    }
    return value;
  };

  beforeAll(async () => {
    server = await startTestServer({ keys: [{ user_id: "alice" }] });
    proxy = await startRecordingProxy(server.url);

    dir = mkdtempSync(join(tmpdir(), "lucid-openclaw-mem0-"));
    stateDir = join(dir, "state");
    configPath = join(dir, "openclaw.json");
    mkdirSync(stateDir, { recursive: true });
    const plugin = join(dir, "plugins", PLUGIN);
    const copied = installOpenclawMem0(plugin);
    expect(copied).toEqual(expect.arrayContaining(["@sinclair/typebox", "mem0ai"]));

    writeFileSync(
      configPath,
      openclawConfig({
        llmBaseUrl: llm.baseURL,
        pluginId: PLUGIN,
        pluginDir: plugin,
        pluginConfig: {
          mode: "platform",
          apiKey: server.keys[0],
          baseUrl: proxy.url,
          userId: "alice",
          autoRecall: true,
          autoCapture: true,
        },
      }),
    );
  }, TEST);

  afterAll(async () => {
    await proxy?.close();
    await server?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it(
    "loads in the memory slot with its tools and hooks, without errors",
    async () => {
      const run = await runOpenclaw(["plugins", "inspect", PLUGIN, "--runtime", "--json"], {
        stateDir,
        configPath,
        timeoutMs: TURN,
        env: { MEM0_TELEMETRY: "false" },
      });
      expect(run.code, run.stderr.slice(-3000)).toBe(0);
      const inspect = JSON.parse(run.stdout);
      expect(inspect.plugin).toMatchObject({
        id: PLUGIN,
        packageVersion: "1.0.16",
        kind: "memory",
        status: "loaded",
        memorySlotSelected: true,
      });
      const manifest = JSON.parse(readFileSync(join(OPENCLAW_MEM0_DIR, "openclaw.plugin.json"), "utf8"));
      expect(manifest.contracts.tools).toHaveLength(8);
      expect(inspect.plugin.toolNames).toEqual(manifest.contracts.tools);
      expect(inspect.typedHooks.map((hook: { name: string }) => hook.name).sort()).toEqual([
        "agent_end",
        "before_prompt_build",
      ]);
      expect(inspect.diagnostics.filter((each: { level: string }) => each.level === "error")).toEqual([]);
    },
    TEST,
  );

  it(
    "captures a durable fact the user states into Lucid, under alice",
    async () => {
      llm.queue.push({ text: "Noted: no peanuts, and black coffee." });
      const before = proxy.requests.length;
      await turn(FACT, "mem0-session-one");

      // The plugin sends its capture without waiting for it: give it a moment to land.
      const stored = await eventually(alices, (items) => items.some((item) => /peanuts/.test(item.memory)));
      const fact = stored.find((item) => /allergic to peanuts/.test(item.memory));
      expect(fact, JSON.stringify(stored.map((item) => item.memory))).toBeDefined();
      expect(fact?.user_id).toBe("alice");
      // The plugin's extraction instructions (a system message) are not a memory.
      expect(stored.some((item) => /Extract durable facts/.test(item.memory))).toBe(false);

      const adds = proxy.requests.slice(before).filter((each) => each.url.startsWith("/v3/memories/add"));
      expect(adds).toHaveLength(1);
      expect(adds[0]?.body).toMatchObject({ user_id: "alice", source: "OPENCLAW" });
      expect(adds[0]?.status).toBe(200);
    },
    TEST,
  );

  it(
    "recalls the fact into the prompt of the next session's turn",
    async () => {
      llm.queue.push({ text: "Better not: you are allergic to peanuts." });
      const before = llm.calls.length;
      const sent = proxy.requests.length;
      await turn("Can I have the peanuts at the party tonight?", "mem0-session-two");

      const asked = userTexts(llm.calls[before]?.messages ?? []).find((text) =>
        text.includes("peanuts at the party"),
      );
      expect(asked).toBeDefined();
      const block = asked?.slice(0, asked.indexOf("Can I have the peanuts")) ?? "";
      expect(block).toContain("<relevant-memories>");
      expect(block).toContain('stored memories for user "alice"');
      expect(block).toContain("allergic to peanuts");

      const searches = proxy.requests
        .slice(sent)
        .filter((each) => each.url.startsWith("/v3/memories/search"));
      expect(searches.length).toBeGreaterThanOrEqual(1);
      expect(searches[0]?.body).toMatchObject({ filters: { user_id: "alice" } });
    },
    TEST,
  );

  it(
    "runs the memory tools the model calls on Lucid: search, add, list, get, update, events, delete",
    async () => {
      let catId = "";
      let eventId = "";
      const lastResult = (call: StubChatCall): string => call.toolResults.at(-1) ?? "";
      steps.push(
        () => callTool("memory_search", { query: "peanuts allergy" }),
        () => callTool("memory_add", { text: "Alice has a ginger cat called Miso." }),
        () => callTool("memory_list", {}),
        (call) => {
          catId = /Miso[^\n]*?\(id: ([\w-]+)\)/.exec(lastResult(call))?.[1] ?? "missing";
          return callTool("memory_get", { memoryId: catId });
        },
        () => callTool("memory_update", { memoryId: catId, text: "Alice has a ginger cat called Mochi." }),
        () => callTool("memory_event_list", {}),
        (call) => {
          eventId = /- ([\w-]+) \| ADD \| SUCCEEDED/.exec(lastResult(call))?.[1] ?? "missing";
          return callTool("memory_event_status", { event_id: eventId });
        },
        () => callTool("memory_delete", { memoryId: catId }),
        () => ({ text: "Done: I looked after your memories." }),
      );
      const before = llm.calls.length;
      await turn("Look after my memories about my cat, please.", "mem0-session-three");
      expect(steps).toEqual([]);

      const results = llm.calls.slice(before).map((call) => lastResult(call));
      expect(results).toHaveLength(9);
      const [search, add, list, get, update, events, status, deleted] = results.slice(1);
      expect(search).toContain("allergic to peanuts");
      expect(add).toContain("Stored: 1 added");
      expect(add).toContain("Alice has a ginger cat called Miso.");
      expect(list).toContain("Alice has a ginger cat called Miso.");
      expect(catId).not.toBe("missing");
      expect(get).toContain(`Memory ${catId}:`);
      expect(get).toContain("called Miso");
      expect(update).toContain(`Updated memory ${catId}`);
      expect(events).toMatch(/\d+ event\(s\):/);
      expect(eventId).not.toBe("missing");
      expect(status).toContain(`Event: ${eventId}`);
      expect(status).toContain("Status: SUCCEEDED");
      expect(deleted).toContain(`Memory ${catId} deleted.`);
      for (const text of results.slice(1)) expect(text).not.toMatch(/failed/i);

      // On Lucid: the memory was added, renamed, then deleted; alice's fact is untouched.
      expect(await server.memory.get(catId)).toBeNull();
      const history = await server.memory.history(catId);
      expect(history.map((entry) => entry.action)).toEqual(["ADD", "UPDATE", "DELETE"]);
      expect(history[1]?.new_value).toBe("Alice has a ginger cat called Mochi.");
      expect((await alices()).some((item) => /allergic to peanuts/.test(item.memory))).toBe(true);
    },
    TEST,
  );

  it(
    "got no 4xx or 5xx from Lucid for anything it called",
    () => {
      const routes = new Map<string, number[]>();
      for (const each of proxy.requests) {
        const route = routeOf(each.method, each.url);
        routes.set(route, [...(routes.get(route) ?? []), each.status]);
      }
      console.log(
        `openclaw-mem0 → lucid serve, ${proxy.requests.length} requests:\n${[...routes]
          .map(
            ([route, statuses]) => `  ${route}  ×${statuses.length}  [${[...new Set(statuses)].join(", ")}]`,
          )
          .join("\n")}`,
      );
      const failed = proxy.requests
        .filter((each) => each.status >= 400)
        .map((each) => `${each.method} ${each.url} → ${each.status} ${each.response.slice(0, 300)}`);
      expect(failed).toEqual([]);
      for (const route of [
        "POST /v3/memories/add/",
        "POST /v3/memories/search/",
        "POST /v3/memories/",
        "GET /v1/memories/{id}/",
        "PUT /v1/memories/{id}/",
        "DELETE /v1/memories/{id}/",
        "GET /v1/events/",
        "GET /v1/event/{id}/",
      ]) {
        expect([...routes.keys()]).toContain(route);
      }
    },
    TEST,
  );
});
