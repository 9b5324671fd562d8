/**
 * One owner per join (issue 33), through every edge a dream is asked from: `lucid dream --agent
 * main`, MCP `memory_dream` with `agent_id`, and REST with an API key bound to `agent_id=main`. The
 * scope holds alice's and bob's look-alike memories under the agent: a dream applies one owner's
 * merge and never joins the two, and both survive with their own text.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConflictAction, DreamAction, DreamPlan } from "../../src/dream/plan.js";
import { EventRegistry } from "../../src/edge/events.js";
import { type Memory, openMemory } from "../../src/index.js";
import { createMcpServer } from "../../src/mcp/server.js";
import { runCli, runJson, tempHomes } from "../cli/run-cli.js";
import { tempFiles } from "../helpers/temp-dir.js";
import { wordEmbedder } from "../helpers/word-embedder.js";
import { startTestServer, type TestServer } from "../http/rest-server.js";

const ALICE = { user_id: "alice", agent_id: "main" };
const BOB = { user_id: "bob", agent_id: "main" };

/** Look-alikes of two owners, and one owner's duplicates (which merge) — for the word embedder. */
const SEED: readonly { name: string; text: string; scope: typeof ALICE }[] = [
  { name: "darkAlice", text: "User prefers dark mode in the editor", scope: ALICE },
  { name: "darkBob", text: "User prefers dark mode in the editor", scope: BOB },
  { name: "portoAlice", text: "The user lives in Porto", scope: ALICE },
  { name: "lisbonBob", text: "The user now lives in Lisbon", scope: BOB },
  { name: "slackAlice", text: "The team uses Slack for chat", scope: ALICE },
  { name: "teamsBob", text: "The team moved its chat to Microsoft Teams", scope: BOB },
  { name: "dentistLong", text: "Alice's dentist is Dr. Silva in Porto", scope: ALICE },
  { name: "dentistShort", text: "Alice's dentist is Dr. Silva", scope: ALICE },
];

/** Seeds `memory`; the id of each seeded memory by name, and its owner by id. */
async function seed(memory: Memory): Promise<{ ids: Record<string, string>; owner: Map<string, string> }> {
  const ids: Record<string, string> = {};
  const owner = new Map<string, string>();
  for (const [index, each] of SEED.entries()) {
    const { results } = await memory.add(each.text, {
      userId: each.scope.user_id,
      agentId: each.scope.agent_id,
      createdAt: new Date(Date.UTC(2026, 0, 1 + index)).toISOString(),
    });
    const id = results[0]?.id as string;
    ids[each.name] = id;
    owner.set(id, each.scope.user_id);
  }
  return { ids, owner };
}

/** The owners each join of a plan (merge, conflict, review proposal) names: one each, or the test fails. */
function expectOneOwnerPerJoin(plan: DreamPlan, owner: (id: string) => string | undefined): void {
  const joins: DreamAction[] = [...plan.actions, ...plan.review.map((item) => item.proposal)];
  for (const action of joins.filter((each) => each.ids.length > 1)) {
    expect(new Set(action.ids.map(owner)).size, `${action.kind} ${action.ids.join(", ")}`).toBe(1);
  }
}

/**
 * Every seeded memory still holds its own text under its own owner, but alice's dentist pair: merged
 * into the longer one (whose merged text may gain a full stop).
 */
async function expectSurvivors(memory: Memory, ids: Record<string, string>): Promise<void> {
  for (const each of SEED) {
    if (each.name === "dentistShort") continue;
    const item = await memory.get(ids[each.name] as string);
    expect(item?.memory.replace(/\.$/u, ""), each.name).toBe(each.text);
    expect({ user_id: item?.user_id, agent_id: item?.agent_id }, each.name).toEqual(each.scope);
  }
  expect(await memory.get(ids.dentistShort as string)).toBeNull();
}

describe("a dream of agent_id=main over alice's and bob's memories", () => {
  const newHome = tempHomes();

  it("lucid dream --agent main plans and applies without joining two owners", async () => {
    const home = newHome();
    mkdirSync(home, { recursive: true });
    // The CLI's own embedder (the local model): texts that a dream of one owner merges.
    const lines = [
      { id: "a1", text: "User prefers dark mode", ...ALICE },
      { id: "b1", text: "User prefers dark mode", ...BOB },
      { id: "a2", text: "User likes the dark theme", ...ALICE },
      { id: "a3", text: "User prefers Vim as editor", ...ALICE },
      { id: "b3", text: "User prefers VS Code as editor", ...BOB },
    ].map((record, index) => ({ ...record, created_at: `2026-11-0${index + 1}T00:00:00.000Z` }));
    writeFileSync(join(home, "seed.jsonl"), `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
    expect((await runCli(["import", join(home, "seed.jsonl")], { home })).code).toBe(0);
    const owner = (id: string) => lines.find((line) => line.id === id)?.user_id;

    const planned = await runJson(["dream", "--dry-run", "--agent", "main"], { home });
    expect(planned.json).toMatchObject({ ok: true, scope: { agent_id: "main" } });
    const plan = planned.json as unknown as DreamPlan;
    expectOneOwnerPerJoin(plan, owner);
    expect(
      plan.actions.filter((action) => action.kind === "merge").map((action) => [...action.ids].sort()),
    ).toEqual([["a1", "a2"]]);

    const applied = await runJson(["dream", "--yes", "--agent", "main"], { home });
    expect(applied.json).toMatchObject({ ok: true, applied: true, counts: { merged: 1 } });
    const exported = (await runCli(["export"], { home })).stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: string; text?: string; memory?: string; user_id?: string });
    const left = Object.fromEntries(exported.map((record) => [record.id, record.user_id]));
    expect(left).toMatchObject({ b1: "bob", a3: "alice", b3: "bob" });
    expect(Object.keys(left).filter((id) => id === "a1" || id === "a2")).toHaveLength(1);
  });

  describe("MCP memory_dream with agent_id", () => {
    const files = tempFiles("owners-mcp");
    let memory: Memory;
    let client: Client;

    beforeAll(async () => {
      memory = await openMemory({ path: files.path(), embedder: wordEmbedder() });
      const server = createMcpServer({ memory, events: new EventRegistry(), autoDream: { enabled: false } });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      client = new Client({ name: "test", version: "0" });
      await client.connect(clientSide);
    });
    afterAll(async () => {
      await client.close();
      await memory.close();
    });

    it("plans and applies (auto: true) without joining two owners", async () => {
      const { ids, owner } = await seed(memory);
      const call = async (args: Record<string, unknown>) =>
        (await client.callTool({ name: "memory_dream", arguments: args })) as CallToolResult;
      const dry = await call({ agent_id: "main" });
      expect(dry.isError).toBeFalsy();
      const { plan } = dry.structuredContent as { plan: DreamPlan };
      expect(plan.scope).toEqual({ agent_id: "main" });
      expectOneOwnerPerJoin(plan, (id) => owner.get(id));

      const auto = await call({ agent_id: "main", auto: true });
      expect(auto.isError).toBeFalsy();
      expect(auto.structuredContent).toMatchObject({ counts: { merged: 1 } });
      await expectSurvivors(memory, ids);
    });
  });

  describe("REST with a key bound to agent_id=main", () => {
    let server: TestServer & { keys: string[] };

    beforeAll(async () => {
      server = await startTestServer({ keys: [{ agent_id: "main" }] });
    });
    afterAll(async () => {
      await server.close();
    });

    it("plans and applies, every conflict resolved and every review item accepted, without joining two owners", async () => {
      const { ids, owner } = await seed(server.memory);
      const key = server.keys[0] as string;
      const planned = await server.call("/lucid/v1/dream/plan", { method: "POST", key, body: {} });
      expect(planned.status, JSON.stringify(planned.body)).toBe(200);
      const { planId, plan } = planned.body as { planId: string; plan: DreamPlan };
      expect(plan.scope).toEqual({ agent_id: "main" });
      expectOneOwnerPerJoin(plan, (id) => owner.get(id));

      // A person who says yes to everything: whatever joined two owners would now be applied.
      const conflicts = Object.fromEntries(
        plan.actions
          .filter((action): action is ConflictAction => action.kind === "conflict")
          .map((action) => [`${action.ids[0]}:${action.ids[1]}`, "B"]),
      );
      const applied = await server.call("/lucid/v1/dream/apply", {
        method: "POST",
        key,
        body: { planId, conflicts, accept: plan.review.map((_, index) => index) },
      });
      expect(applied.status, JSON.stringify(applied.body)).toBe(200);
      await expectSurvivors(server.memory, ids);
    });
  });
});
