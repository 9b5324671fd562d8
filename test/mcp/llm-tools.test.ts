/**
 * The optional LLM through `lucid mcp` over stdio, driven by the SDK's real Client against the
 * built binary: `memory_add` with `infer` extracts facts and updates a superseded one,
 * `memory_dream` with `llm` has the review tier judged in its dry run, and a server without an
 * `llm` section answers both with a tool error naming LLM_NOT_CONFIGURED. The LLM is a real
 * loopback server in this process.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { tempHomes } from "../cli/run-cli.js";
import { useFakeLlmServer } from "../helpers/fake-llm-server.js";
import {
  DEPLOY_MERGED,
  REVIEW_PAIRS as PAIRS,
  REVIEW_VERDICTS,
  scriptedAnswer,
} from "../helpers/scripted-llm.js";
import { callTool, connectStdio, dataOf, type StdioSession, textOf } from "./mcp-client.js";

/** What the scripted model extracts, by a phrase of the new messages. */
let facts: Record<string, unknown[]> = {};

const server = useFakeLlmServer({ answer: scriptedAnswer(() => ({ facts, judge: REVIEW_VERDICTS })) });
const newHome = tempHomes();

const REVIEW_PAIRS = Object.values(PAIRS).flat();

interface Added {
  results: { id: string; memory: string; event: string; previous_memory?: string }[];
  llm?: { model: string; calls: number };
}

interface Judged {
  dryRun: boolean;
  plan: {
    review: unknown[];
    actions: { kind: string; text?: string; why: { rule: string } }[];
    judge?: { model: string; calls: number; decisions: { verdict: string; outcome: string }[] };
  };
}

function homeWith(config: unknown): string {
  const home = newHome();
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "lucid.config.json"), JSON.stringify(config, null, 2));
  return home;
}

async function memoriesOf(session: StdioSession, userId: string): Promise<string[]> {
  const list = await callTool(session.client, "memory_list", { user_id: userId, page_size: 100 });
  expect(list.isError, textOf(list)).toBeFalsy();
  return dataOf<{ results: { memory: string }[] }>(list)
    .results.map((item) => item.memory)
    .sort();
}

beforeEach(() => {
  facts = {};
  server.calls.length = 0;
  server.queue.length = 0;
});

describe("MCP tools with an LLM configured", () => {
  let session: StdioSession;

  beforeAll(async () => {
    const home = homeWith({
      llm: { provider: "openai-compatible", model: "scripted", baseURL: server.baseURL, maxRetries: 0 },
    });
    session = await connectStdio({ home, env: { LUCID_USER_ID: "u", LUCID_DREAM: "off" } });
  });
  afterAll(async () => {
    await session?.close();
  });

  it("memory_add with infer stores the extracted facts and reports the update of a superseded one", async () => {
    const plain = await callTool(session.client, "memory_add", { text: "The user lives in Porto" });
    expect(plain.isError, textOf(plain)).toBeFalsy();
    const portoId = dataOf<Added>(plain).results[0]?.id as string;
    expect(server.calls).toHaveLength(0);

    facts = {
      Lisbon: [
        { text: "The user now lives in Lisbon", category: "identity" },
        { text: "The user's sister Rita lives in Braga", category: "relationship" },
      ],
    };
    const inferred = await callTool(session.client, "memory_add", {
      text: "Big news: I moved to Lisbon last month! My sister Rita lives in Braga.",
      infer: true,
    });
    expect(inferred.isError, textOf(inferred)).toBeFalsy();
    const text = textOf(inferred);
    expect(text).toMatch(/^Stored 1 fact, 1 updated, 0 already known, for .*u/);
    expect(text).toContain(
      `- updated: "The user now lives in Lisbon" (id: ${portoId}) (was: "The user lives in Porto")`,
    );
    expect(text).toContain('- stored: "The user\'s sister Rita lives in Braga"');
    const data = dataOf<Added>(inferred);
    expect(data.results.map((item) => [item.event, item.memory, item.previous_memory])).toEqual([
      ["UPDATE", "The user now lives in Lisbon", "The user lives in Porto"],
      ["ADD", "The user's sister Rita lives in Braga", undefined],
    ]);
    expect(data.llm).toMatchObject({ model: "openai-compatible:scripted", calls: 1 });
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]?.lastUser).toContain("I moved to Lisbon last month!");

    expect(await memoriesOf(session, "u")).toEqual([
      "The user now lives in Lisbon",
      "The user's sister Rita lives in Braga",
    ]);
  });

  it("memory_dream with llm judges the review tier in its dry run and changes nothing", async () => {
    for (const text of REVIEW_PAIRS) {
      const added = await callTool(session.client, "memory_add", { text, user_id: "d" });
      expect(added.isError, textOf(added)).toBeFalsy();
    }
    const before = await memoriesOf(session, "d");
    expect(before).toHaveLength(REVIEW_PAIRS.length);

    const unjudged = await callTool(session.client, "memory_dream", { user_id: "d" });
    expect(textOf(unjudged)).not.toContain("Judged by");
    expect(dataOf<Judged>(unjudged).plan.judge).toBeUndefined();
    expect(server.calls).toHaveLength(0);

    const judged = await callTool(session.client, "memory_dream", { user_id: "d", llm: true });
    expect(judged.isError, textOf(judged)).toBeFalsy();
    expect(textOf(judged)).toMatch(
      /Judged by openai-compatible:scripted \(1 call, \d+ \+ \d+ tokens\): 2 confirmed, 1 rejected, 0 kept/,
    );
    expect(textOf(judged)).toContain("Dry run — no changes made.");
    const { dryRun, plan } = dataOf<Judged>(judged);
    expect(dryRun).toBe(true);
    expect(plan.judge).toMatchObject({ model: "openai-compatible:scripted", calls: 1 });
    expect(plan.judge?.decisions.map((decision) => [decision.verdict, decision.outcome]).sort()).toEqual([
      ["distinct", "rejected"],
      ["replaces", "confirmed"],
      ["same", "confirmed"],
    ]);
    expect(plan.review).toEqual([]);
    expect(plan.actions.find((action) => action.kind === "merge")).toMatchObject({
      text: DEPLOY_MERGED,
      why: { rule: "llm-judge" },
    });
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]?.system).toContain("review a personal memory store");
    expect(await memoriesOf(session, "d")).toEqual(before);
  });
});

describe("MCP tools without an LLM", () => {
  let session: StdioSession;

  beforeAll(async () => {
    session = await connectStdio({ home: newHome(), env: { LUCID_USER_ID: "u", LUCID_DREAM: "off" } });
  });
  afterAll(async () => {
    await session?.close();
  });

  it("answers memory_add with infer, and memory_dream with llm, with LLM_NOT_CONFIGURED", async () => {
    const added = await callTool(session.client, "memory_add", { text: "I like green tea", infer: true });
    expect(added.isError).toBe(true);
    expect(textOf(added)).toMatch(/^LLM_NOT_CONFIGURED: /);
    expect(dataOf(added)).toMatchObject({ error: { code: "LLM_NOT_CONFIGURED" } });

    const dreamt = await callTool(session.client, "memory_dream", { llm: true });
    expect(dreamt.isError).toBe(true);
    expect(dataOf(dreamt)).toMatchObject({ error: { code: "LLM_NOT_CONFIGURED" } });

    // Nothing was stored, and the server keeps serving without the LLM.
    expect(await memoriesOf(session, "u")).toEqual([]);
    const plain = await callTool(session.client, "memory_add", { text: "The user likes green tea" });
    expect(plain.isError, textOf(plain)).toBeFalsy();
    expect(await memoriesOf(session, "u")).toEqual(["The user likes green tea"]);
    expect(server.calls).toHaveLength(0);
  });
});
