/**
 * One policy per home: `lucid dream --dry-run` and the MCP server's `memory_dream` (and its background
 * auto-dream) plan with the same resolved policy — `lucid.config.json` `policy`, its `dream.gate` and
 * the project's Mem0 retention files, read from the directory each runs in.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { DreamPlan } from "../../src/dream/plan.js";
import { runCli, runJson, tempHomes } from "../cli/run-cli.js";
import { callTool, connectStdio, dataOf, textOf } from "./mcp-client.js";

const newDir = tempHomes();

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

/** A home whose config raises lowConfidence to 0.9, and a project whose .mem0.json keeps session state one day. */
async function setUp(gate?: Record<string, number>): Promise<{ home: string; project: string }> {
  const home = newDir();
  const project = newDir();
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(home, "lucid.config.json"),
    JSON.stringify({ policy: { lowConfidence: 0.9 }, ...(gate === undefined ? {} : { dream: { gate } }) }),
  );
  writeFileSync(join(project, ".mem0.json"), JSON.stringify({ retention: { session_state: "1d" } }));
  const records = [
    // Vague, with confidence 0.5: pruned under lowConfidence 0.9, kept under the default 0.3.
    { id: "vague", text: "Something was mentioned at some point", metadata: { confidence: 0.5 } },
    // Session state three days old: expired under the project's 1d, kept under the default 90d.
    {
      id: "state",
      text: "Working on the onboarding flow",
      category: "session_state",
      created_at: daysAgo(3),
    },
    { id: "kept", text: "User prefers tabs over spaces", category: "preference" },
    { id: "kept2", text: "User drinks oat milk", category: "preference" },
  ].map((record) => JSON.stringify({ ...record, user_id: "alice" }));
  writeFileSync(join(home, "seed.jsonl"), `${records.join("\n")}\n`);
  expect((await runCli(["import", join(home, "seed.jsonl")], { home, cwd: project })).code).toBe(0);
  return { home, project };
}

const summary = (plan: DreamPlan) =>
  plan.actions.map(
    (action) => `${action.kind}:${action.ids.join(",")}:${"reason" in action ? action.reason : ""}`,
  );

describe("the CLI and the MCP server plan with the same policy", () => {
  it("dream --dry-run and memory_dream give the same actions and policy", async () => {
    const { home, project } = await setUp();
    const cli = (await runJson(["dream", "--dry-run", "--user", "alice"], { home, cwd: project }))
      .json as unknown as DreamPlan;
    expect(summary(cli).sort()).toEqual(["delete:state:expired", "delete:vague:low_confidence"]);
    expect(cli.policy).toMatchObject({ lowConfidence: 0.9, categories: { session_state: { ttlDays: 1 } } });

    const session = await connectStdio({
      home,
      cwd: project,
      env: { LUCID_USER_ID: "alice", LUCID_DREAM: "off" },
    });
    try {
      const result = await callTool(session.client, "memory_dream", { dry_run: true });
      expect(result.isError, textOf(result)).toBeFalsy();
      const mcp = dataOf<{ plan: DreamPlan }>(result).plan;
      expect(summary(mcp)).toEqual(summary(cli));
      expect(mcp.policy).toEqual(cli.policy);
    } finally {
      await session.close();
    }
  });

  it("the server's background auto-dream applies the same policy", async () => {
    const { home, project } = await setUp({ minHours: 0, minSessions: 1, minMemories: 1 });
    const session = await connectStdio({ home, cwd: project, env: { LUCID_USER_ID: "alice" } });
    try {
      // The first call counts the session; the gate then passes and auto-dream runs in the background.
      await callTool(session.client, "memory_list", {});
      const deadline = Date.now() + 30_000;
      for (;;) {
        const events = dataOf<{ events: { type: string; status: string }[] }>(
          await callTool(session.client, "memory_event_list", { limit: 10 }),
        ).events.filter((event) => event.type === "dream");
        if (events.some((event) => event.status === "succeeded")) break;
        expect(
          events.some((event) => event.status === "failed"),
          JSON.stringify(events),
        ).toBe(false);
        if (Date.now() > deadline) throw new Error(`auto-dream did not finish: ${session.stderr()}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      await session.close();
    }
    const left = (await runJson(["list", "--user", "alice", "--show-expired"], { home, cwd: project })).json
      .results as { id: string }[];
    expect(left.map((item) => item.id).sort()).toEqual(["kept", "kept2"]);
  });
});
