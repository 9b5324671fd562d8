/**
 * Auto-dream through the built binary: with a small gate in the config, the session that makes the
 * gate pass starts one `dream --auto` in the background, visible as an event; later sessions within
 * `minHours` do not start another. LUCID_DREAM=off keeps it from ever running.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import { tempHomes } from "../cli/run-cli.js";
import { callTool, connectHttp, connectStdio, dataOf, startHttpProcess, textOf } from "./mcp-client.js";

const newHome = tempHomes();

interface EventRow {
  id: string;
  type: string;
  status: string;
  trigger: string;
  source: string;
  runId: string | null;
  summary: string | null;
}

function homeWithGate(): string {
  const home = newHome();
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, "lucid.config.json"),
    JSON.stringify({ dream: { gate: { minHours: 1, minSessions: 2, minMemories: 3 } } }),
  );
  return home;
}

async function dreamEvents(client: Client): Promise<EventRow[]> {
  const result = await callTool(client, "memory_event_list", { limit: 50 });
  expect(result.isError, textOf(result)).toBeFalsy();
  return dataOf<{ events: EventRow[] }>(result).events.filter((event) => event.type === "dream");
}

/** Polls until `check` returns a value, or fails after `ms`. */
async function eventually<T>(check: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const FACTS = [
  "User's favourite colour is blue",
  "User's favorite color is blue.",
  "User works at Initech on the billing team",
  "User prefers tabs over spaces",
  "User has a cat named Miso",
  "User drinks oat milk",
  // First person: the dream's rewrite makes it third person, so the run changes something.
  "I prefer dark mode",
];

describe("auto-dream over MCP", () => {
  it("runs once when the gate passes, in the background, and not again within minHours", async () => {
    const home = homeWithGate();
    const server = await startHttpProcess({ home, env: { LUCID_USER_ID: "alice" } });
    let runId: string | null = null;
    const clients: Client[] = [];
    const session = async () => {
      const client = await connectHttp(server.url);
      clients.push(client);
      return client;
    };
    try {
      // Session 1 counts one session: below minSessions, nothing runs.
      const first = await session();
      const added = await callTool(first, "memory_add", { facts: FACTS });
      expect(added.isError, textOf(added)).toBeFalsy();
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await dreamEvents(first)).toEqual([]);

      // Session 2 makes it two: the gate passes and one dream runs after the reply.
      const second = await session();
      const listed = await callTool(second, "memory_list");
      expect(textOf(listed)).toMatch(/^7 memories for user_id=alice/);
      const done = await eventually(async () => {
        const events = await dreamEvents(second);
        return events.some((event) => event.status === "succeeded" || event.status === "failed")
          ? events
          : undefined;
      });
      expect(done).toHaveLength(1);
      const [event] = done as [EventRow];
      expect(event).toMatchObject({ type: "dream", status: "succeeded", trigger: "auto", source: "server" });
      expect(event.runId).toEqual(expect.any(String));
      runId = event.runId;
      expect(event.summary).toMatch(
        /^\[lucid dream --auto\] scope=user_id=alice {2}merged=\d+ {2}pruned=\d+ {2}conflicts_skipped=\d+(?: {2}review=\d+)?$/,
      );

      const status = await callTool(second, "memory_event_status", { event_id: event.id });
      expect(textOf(status)).toMatch(/^Event: evt_.+\nType: dream \(auto\)\nStatus: succeeded\n/);

      // Sessions 3 and 4 reach minSessions again, but the time gate holds for minHours.
      const third = await session();
      await callTool(third, "memory_search", { query: "colour" });
      const fourth = await session();
      await callTool(fourth, "memory_search", { query: "cat" });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const after = await dreamEvents(fourth);
      expect(after.map((row) => row.id)).toEqual([event.id]);
    } finally {
      await Promise.allSettled(clients.map((client) => client.close()));
      expect(await server.stop()).toBe(0);
    }

    // The run is in the store: a new server process lists it once, from there.
    const later = await connectStdio({ home, env: { LUCID_USER_ID: "alice", LUCID_DREAM: "off" } });
    try {
      const stored = await dreamEvents(later.client);
      expect(stored).toEqual([
        expect.objectContaining({ id: runId, runId, source: "store", status: "succeeded", trigger: "auto" }),
      ]);
    } finally {
      await later.close();
    }
  });

  it("never runs with LUCID_DREAM=off", async () => {
    const server = await startHttpProcess({
      home: homeWithGate(),
      env: { LUCID_USER_ID: "alice", LUCID_DREAM: "off" },
    });
    const clients: Client[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const client = await connectHttp(server.url);
        clients.push(client);
        await callTool(client, i === 0 ? "memory_add" : "memory_list", i === 0 ? { facts: FACTS } : {});
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(await dreamEvents(clients[0] as Client)).toEqual([]);
    } finally {
      await Promise.allSettled(clients.map((client) => client.close()));
      await server.stop();
    }
  });
});
