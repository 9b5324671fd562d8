/**
 * One owner per judgement (issue 33): `add` with `infer: true` and `capture`'s triage judge a new
 * fact only against memories of exactly the request's scope — the scope the fact is stored under.
 * An agent writing under `agent_id=main` never supersedes, merges into or restates a memory of
 * `user_id=bob agent_id=main`, and is never shown one; the agent's own memories it still updates.
 */

import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { type Memory, openMemory } from "../../src/index.js";
import { type LlmCall, type LlmReply, useFakeLlmServer } from "../helpers/fake-llm-server.js";
import { tempFiles } from "../helpers/temp-dir.js";
import { wordEmbedder } from "../helpers/word-embedder.js";

/** What the scripted model extracts, by a phrase of the new messages; every pair it judges is "replaces". */
let facts: Record<string, unknown[]> = {};

function answer(call: LlmCall): LlmReply {
  if (call.system.includes("extract durable memories")) {
    const said = /## New Messages\n([\s\S]*?)(\n## |$)/.exec(call.lastUser)?.[1] ?? "";
    const key = Object.keys(facts).find((phrase) => said.includes(phrase));
    return { text: JSON.stringify({ memory: key === undefined ? [] : facts[key] }) };
  }
  if (call.system.includes("review a personal memory store")) {
    const items = [...call.lastUser.matchAll(/## Item (\d+)/g)].map((match) => Number(match[1]));
    return {
      text: JSON.stringify({
        decisions: items.map((item) => ({ item, verdict: "replaces", reason: "the newer value" })),
      }),
    };
  }
  return { status: 500, body: "unexpected prompt" };
}

const server = useFakeLlmServer({ answer });
const files = tempFiles("owners-infer");
const opened: Memory[] = [];
const BOB = { userId: "bob", agentId: "main" };
const AGENT = { agentId: "main" };

async function open(withLlm: boolean): Promise<Memory> {
  const memory = await openMemory({
    path: files.path(),
    embedder: wordEmbedder(),
    ...(withLlm
      ? { llm: { provider: "openai-compatible", baseURL: server.baseURL, model: "scripted", maxRetries: 0 } }
      : {}),
  });
  opened.push(memory);
  return memory;
}

afterAll(async () => {
  await Promise.all(opened.map((memory) => memory.close()));
});

beforeEach(() => {
  facts = {};
  server.calls.length = 0;
});

describe("a fact an agent learns, under a scope that also holds its users' memories", () => {
  it("with infer: true, is added beside bob's memory instead of superseding it, and bob's is never shown", async () => {
    const memory = await open(true);
    const [bobs] = (
      await memory.add("The user lives in Porto", { ...BOB, createdAt: "2026-01-01T00:00:00Z" })
    ).results;
    const before = await memory.get(bobs?.id as string);
    facts = { Lisbon: [{ text: "The user now lives in Lisbon" }] };

    const result = await memory.add("Big news: I moved to Lisbon last month!", { ...AGENT, infer: true });

    expect(result.results.map((item) => [item.event, item.memory])).toEqual([
      ["ADD", "The user now lives in Lisbon"],
    ]);
    expect(await memory.get(bobs?.id as string)).toEqual(before);
    expect((await memory.history(bobs?.id as string)).map((row) => row.action)).toEqual(["ADD"]);
    expect(server.calls[0]?.lastUser).not.toContain("Porto");

    // The agent's own memory is still superseded by its next fact.
    facts = { Faro: [{ text: "The user now lives in Faro" }] };
    const next = await memory.add("Moved again, to Faro this time.", { ...AGENT, infer: true });
    expect(next.results).toMatchObject([
      { event: "UPDATE", id: result.results[0]?.id, previous_memory: "The user now lives in Lisbon" },
    ]);
    expect(await memory.get(bobs?.id as string)).toEqual(before);
  });

  it("with capture's triage (no model), is added beside bob's memory instead of superseding it", async () => {
    const memory = await open(false);
    const [bobs] = (await memory.add("User lives in Porto", { ...BOB, createdAt: "2026-01-01T00:00:00Z" }))
      .results;
    const before = await memory.get(bobs?.id as string);

    const captured = await memory.capture(
      [{ role: "user", content: "I moved to Lisbon last month." }],
      AGENT,
    );

    expect(captured.results.map((item) => item.event)).toEqual(["ADD"]);
    expect(captured.results[0]?.id).not.toBe(bobs?.id);
    expect(await memory.get(bobs?.id as string)).toEqual(before);
    const agents = await memory.getAll({ filters: { agent_id: "main", user_id: null } });
    expect(agents.results.map((item) => item.memory)).toEqual(["User moved to Lisbon last month."]);
  });

  it("still finds and supersedes the agent's own memory when its users' look-alikes crowd the nearest", async () => {
    const memory = await open(false);
    // Twelve users' memories as near as the agent's own: more than the ten neighbours a fact is judged against.
    const users = [];
    for (let index = 0; index < 12; index++) {
      const at = new Date(Date.UTC(2026, 0, 1 + index)).toISOString();
      const [item] = (
        await memory.add("User lives in Porto", { userId: `u${index}`, ...AGENT, createdAt: at })
      ).results;
      users.push(await memory.get(item?.id as string));
    }
    const [own] = (await memory.add("User lives in Porto", { ...AGENT, createdAt: "2026-02-01T00:00:00Z" }))
      .results;

    const captured = await memory.capture(
      [{ role: "user", content: "I moved to Lisbon last month." }],
      AGENT,
    );

    expect(captured.results).toMatchObject([
      { event: "UPDATE", id: own?.id, memory: "User moved to Lisbon last month." },
    ]);
    for (const before of users) expect(await memory.get(before?.id as string)).toEqual(before);
  });
});
