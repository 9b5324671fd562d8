/**
 * The optional LLM as a user meets it through `lucid`: a `lucid.config.json` in a temporary home
 * points `llm` at a real loopback server speaking OpenAI's Chat Completions and Anthropic's
 * Messages. `add --infer` extracts and updates, `dream --llm` (or `dream.llm`) judges the review
 * tier and applies and undoes like any dream, `status` counts what the calls cost, failures exit
 * with their code and hint and store nothing, and no credential or key ever leaves in a request
 * or an error.
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { type LlmReply, useFakeLlmServer } from "../helpers/fake-llm-server.js";
import {
  DEPLOY_MERGED,
  REVIEW_PAIRS as PAIRS,
  REVIEW_VERDICTS,
  scriptedAnswer,
} from "../helpers/scripted-llm.js";
import { runCli, runJson, spawnCli, tempHomes } from "./run-cli.js";

/** What the scripted model extracts, by a phrase of the new messages (not of the session's history). */
let facts: Record<string, unknown[]> = {};

const server = useFakeLlmServer({ answer: scriptedAnswer(() => ({ facts, judge: REVIEW_VERDICTS })) });
const newHome = tempHomes();

const REVIEW_PAIRS = Object.values(PAIRS).flat();

const JUDGE_PROMPT = "review a personal memory store";
const EXTRACT_PROMPT = "extract durable memories";

interface Item {
  id: string;
  memory: string;
  event: string;
  previous_memory?: string;
  relation?: { kind: string; decidedBy: string };
}

interface ErrorJson {
  code: string;
  message: string;
}

/** Lucid's `llm` section on the fake server; no retries unless a test asks. */
function lucidLlm(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    provider: "openai-compatible",
    model: "scripted",
    baseURL: server.baseURL,
    maxRetries: 0,
    ...extra,
  };
}

function homeWith(config: unknown): string {
  const home = newHome();
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "lucid.config.json"), JSON.stringify(config, null, 2));
  return home;
}

async function texts(home: string, user: string): Promise<string[]> {
  const { json, code } = await runJson(["list", "--user", user], { home });
  expect(code).toBe(0);
  return (json.results as Item[]).map((item) => item.memory).sort();
}

async function seed(home: string, user: string, lines: readonly string[]): Promise<void> {
  for (const text of lines) {
    const added = await runCli(["add", text, "--user", user], { home });
    expect({ text, code: added.code, stderr: added.stderr }).toEqual({ text, code: 0, stderr: "" });
  }
}

function errorOf(json: Record<string, unknown>): ErrorJson {
  return json.error as ErrorJson;
}

beforeEach(() => {
  facts = {};
  server.calls.length = 0;
  server.queue.length = 0;
});

describe("lucid add --infer", () => {
  it("stores the facts the model extracts, and shows a superseded fact as updated with its old text", async () => {
    const home = homeWith({ llm: lucidLlm() });
    facts = {
      "sister Rita": [
        { text: "The user's sister Rita lives in Braga", category: "relationship", importance: 0.7 },
        { text: "The user is learning to bake sourdough bread" },
      ],
    };
    const added = await runJson(
      ["add", "--infer", "My sister Rita lives in Braga, and I'm learning to bake sourdough.", "--user", "u"],
      { home },
    );
    expect(added.code).toBe(0);
    expect((added.json.results as Item[]).map((item) => [item.event, item.memory])).toEqual([
      ["ADD", "The user's sister Rita lives in Braga"],
      ["ADD", "The user is learning to bake sourdough bread"],
    ]);
    expect(added.json.llm).toMatchObject({ model: "openai-compatible:scripted", calls: 1, failures: 0 });
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]?.system).toContain(EXTRACT_PROMPT);
    expect(server.calls[0]?.lastUser).toContain("My sister Rita lives in Braga");
    const rita = (added.json.results as Item[])[0]?.id as string;
    const got = await runJson(["get", rita], { home });
    expect(got.json.result).toMatchObject({ metadata: { category: "relationship", importance: 0.7 } });

    const porto = await runJson(["add", "The user lives in Porto", "--user", "u"], { home });
    const portoId = (porto.json.results as Item[])[0]?.id as string;
    facts = { Lisbon: [{ text: "The user now lives in Lisbon", category: "identity" }] };
    const moved = await runCli(["add", "--infer", "Big news: I moved to Lisbon last month!", "--user", "u"], {
      home,
    });
    expect(moved).toMatchObject({ code: 0, stderr: "" });
    const line = moved.stdout.split("\n").find((each) => each.includes("Lisbon")) ?? "";
    expect(line).toMatch(/^updated\s/);
    expect(line).toContain(portoId);
    expect(line).toContain("The user now lives in Lisbon (was: The user lives in Porto)");

    expect(await texts(home, "u")).toEqual([
      "The user is learning to bake sourdough bread",
      "The user now lives in Lisbon",
      "The user's sister Rita lives in Braga",
    ]);
    const history = await runJson(["history", portoId], { home });
    expect(history.code).toBe(0);
    expect(
      (
        history.json.results as { action: string; previous_value: string | null; new_value: string | null }[]
      ).map((row) => [row.action, row.previous_value, row.new_value]),
    ).toEqual([
      ["ADD", null, "The user lives in Porto"],
      ["UPDATE", "The user lives in Porto", "The user now lives in Lisbon"],
    ]);
  });

  it("speaks Anthropic's Messages API with the key from the environment, and never shows the key", async () => {
    const key = "sk-ant-test-Q8w7E6r5T4y3U2i1";
    const home = homeWith({
      llm: {
        provider: "anthropic",
        model: "claude-test",
        baseURL: server.baseURL,
        apiKey: { env: "ANTHROPIC_API_KEY" },
        maxRetries: 0,
      },
    });
    facts = { espresso: [{ text: "The user drinks espresso every morning", category: "preference" }] };
    // The real binary, in its own process.
    const spawned = await spawnCli(
      ["add", "--infer", "I have an espresso every morning", "--user", "u", "--json"],
      { home, env: { ANTHROPIC_API_KEY: key } },
    );
    expect(spawned.code, spawned.stderr).toBe(0);
    expect(JSON.parse(spawned.stdout)).toMatchObject({
      ok: true,
      results: [{ event: "ADD", memory: "The user drinks espresso every morning" }],
      llm: { model: "anthropic:claude-test", calls: 1 },
    });
    expect(server.calls).toHaveLength(1);
    const [call] = server.calls;
    expect(call?.provider).toBe("anthropic");
    expect(call?.url).toBe("/v1/messages");
    expect(call?.headers["x-api-key"]).toBe(key);
    expect(call?.headers["anthropic-version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(call?.headers.authorization).toBeUndefined();
    expect(call?.body.model).toBe("claude-test");
    expect(call?.system).toContain(EXTRACT_PROMPT);

    for (const args of [["config"], ["config", "--json"], ["status"], ["status", "--json"]]) {
      const shown = await runCli(args, { home, env: { ANTHROPIC_API_KEY: key } });
      expect({ args, code: shown.code }).toEqual({ args, code: 0 });
      expect(shown.stdout).not.toContain(key);
      expect(shown.stdout).not.toContain(key.slice(-8));
    }
    const config = await runJson(["config"], { home, env: { ANTHROPIC_API_KEY: key } });
    expect(config.json.config).toMatchObject({
      llm: { provider: "anthropic", model: "claude-test", apiKey: { env: "ANTHROPIC_API_KEY" } },
    });

    // Without the variable, what needs no LLM still works; what calls it names the variable.
    server.calls.length = 0;
    const list = await runJson(["list", "--user", "u"], { home });
    expect(list.code).toBe(0);
    expect(list.json.total).toBe(1);
    const refused = await runJson(["add", "--infer", "I also like cortado", "--user", "u"], { home });
    expect(refused.code).toBe(1);
    expect(errorOf(refused.json).code).toBe("INVALID_CONFIG");
    expect(errorOf(refused.json).message).toContain("ANTHROPIC_API_KEY");
    expect(errorOf(refused.json).message).toContain("llm.apiKey");
    expect(server.calls).toHaveLength(0);
    expect(await texts(home, "u")).toEqual(["The user drinks espresso every morning"]);
  });

  it("reads Mem0's llm section ({ provider, config }) and sends its key as a bearer token", async () => {
    const key = "sk-mem0-shape-K3y9Lm2Np7Qr";
    const home = homeWith({
      llm: { provider: "openai", config: { model: "m", baseURL: server.baseURL, apiKey: key } },
    });
    facts = { marathon: [{ text: "The user is training for the Berlin marathon" }] };
    const added = await runJson(["add", "--infer", "I'm training for the Berlin marathon", "--user", "u"], {
      home,
    });
    expect(added.code).toBe(0);
    expect(added.json).toMatchObject({
      results: [{ event: "ADD", memory: "The user is training for the Berlin marathon" }],
      llm: { model: "openai-compatible:m", calls: 1 },
    });
    expect(server.calls).toHaveLength(1);
    const [call] = server.calls;
    expect(call?.provider).toBe("openai");
    expect(call?.url).toBe("/v1/chat/completions");
    expect(call?.headers.authorization).toBe(`Bearer ${key}`);
    expect(call?.body.model).toBe("m");
    const config = await runCli(["config", "--json"], { home });
    expect(config.code).toBe(0);
    expect(config.stdout).not.toContain(key);
    // Shown as Lucid reads it: Mem0's provider on its OpenAI-compatible client, the key masked.
    expect(JSON.parse(config.stdout).config.llm).toEqual({
      provider: "openai-compatible",
      model: "m",
      baseURL: server.baseURL,
      apiKey: "********",
    });
  });
});

describe("lucid dream --llm", () => {
  it("judges the review tier in a dry run, applies the confirmed merge with --yes, and undoes it", async () => {
    const home = homeWith({ llm: lucidLlm() });
    await seed(home, "u", REVIEW_PAIRS);
    const before = await texts(home, "u");

    // Without --llm (and without dream.llm) the model is not asked.
    const plain = await runJson(["dream", "--dry-run", "--user", "u"], { home });
    expect(plain.code).toBe(0);
    expect(plain.json.judge).toBeUndefined();
    expect(plain.json.review).toHaveLength(3);
    expect(server.calls).toHaveLength(0);

    const report = await runCli(["dream", "--llm", "--dry-run", "--user", "u"], { home });
    expect(report.code).toBe(0);
    expect(report.stdout).toMatch(
      /Judged by openai-compatible:scripted \(1 call, \d+ \+ \d+ tokens\): 2 confirmed, 1 rejected, 0 kept/,
    );
    expect(report.stdout).toContain("both say Friday noon deploys");
    expect(report.stderr).toContain("Dry run");
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]?.system).toContain(JUDGE_PROMPT);
    expect(server.calls[0]?.lastUser).toContain("Deploys happen on Fridays around 12");

    const plan = await runJson(["dream", "--llm", "--dry-run", "--user", "u"], { home });
    expect(plan.code).toBe(0);
    const judge = plan.json.judge as {
      model: string;
      calls: number;
      decisions: { verdict: string; outcome: string; reason: string; ids: string[] }[];
    };
    expect(judge).toMatchObject({ model: "openai-compatible:scripted", calls: 1, failures: 0, unjudged: 0 });
    expect(judge.decisions.map((decision) => [decision.verdict, decision.outcome]).sort()).toEqual([
      ["distinct", "rejected"],
      ["replaces", "confirmed"],
      ["same", "confirmed"],
    ]);
    expect(plan.json.review).toEqual([]);
    const merge = (plan.json.actions as { kind: string; text?: string; why: { rule: string } }[]).find(
      (action) => action.kind === "merge",
    );
    expect(merge).toMatchObject({ text: DEPLOY_MERGED, why: { rule: "llm-judge" } });
    // A dry run changes nothing.
    expect(await texts(home, "u")).toEqual(before);

    const applied = await runJson(["dream", "--llm", "--yes", "--user", "u"], { home });
    expect(applied.code).toBe(0);
    expect(applied.json).toMatchObject({ applied: true, counts: { merged: 1 } });
    const runId = applied.json.runId as string;
    expect(runId).toMatch(/^dream-/);
    const after = await texts(home, "u");
    expect(after).toContain(DEPLOY_MERGED);
    expect(after).not.toContain("The deploy runs every Friday at noon");
    expect(after).not.toContain("Deploys happen on Fridays around 12");
    // Conflicts wait for a person under --yes: both cars are still there.
    expect(after).toEqual(
      expect.arrayContaining([
        "The family drives a Skoda Octavia",
        "We sold the Skoda and switched to a Toyota",
      ]),
    );

    const undone = await runJson(["dream", "undo", runId], { home });
    expect(undone.code).toBe(0);
    expect(undone.json.restored).toBeGreaterThan(0);
    expect(await texts(home, "u")).toEqual(before);
  });

  it("judges every dream when the config says dream.llm: true, --auto included", async () => {
    const judged = homeWith({ llm: lucidLlm(), dream: { llm: true } });
    const unjudged = homeWith({ llm: lucidLlm() });
    await seed(judged, "u", REVIEW_PAIRS);
    await seed(unjudged, "u", REVIEW_PAIRS);
    expect(server.calls).toHaveLength(0);

    const control = await runJson(["dream", "--auto", "--user", "u"], { home: unjudged });
    expect(control.code).toBe(0);
    expect(control.json).toMatchObject({ counts: { merged: 0 } });
    expect(server.calls).toHaveLength(0);

    const auto = await runJson(["dream", "--auto", "--user", "u"], { home: judged });
    expect(auto.code).toBe(0);
    expect(auto.json).toMatchObject({ counts: { merged: 1 } });
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]?.system).toContain(JUDGE_PROMPT);
    expect(await texts(judged, "u")).toContain(DEPLOY_MERGED);

    const status = await runJson(["status"], { home: judged });
    expect(status.json.llm).toMatchObject({ dreamJudge: true });
    expect((await runCli(["status"], { home: judged })).stdout).toContain("judges every dream");
  });
});

describe("lucid status", () => {
  it("shows the configured model and what its calls cost, by feature", async () => {
    const home = homeWith({ llm: lucidLlm() });
    const idle = await runJson(["status"], { home });
    expect(idle.json.llm).toMatchObject({
      model: "openai-compatible:scripted",
      maxCallsPerRun: 20,
      dreamJudge: false,
      usage: { add: { calls: 0 }, dream: { calls: 0 }, sleep: { calls: 0 } },
    });

    facts = { Oslo: [{ text: "The user visits Oslo in March" }] };
    expect((await runCli(["add", "--infer", "Going to Oslo in March", "--user", "u"], { home })).code).toBe(
      0,
    );
    await seed(home, "u", REVIEW_PAIRS);
    expect((await runCli(["dream", "--llm", "--dry-run", "--user", "u"], { home })).code).toBe(0);
    expect(server.calls).toHaveLength(2);

    const { json } = await runJson(["status"], { home });
    const usage = (json.llm as { usage: Record<string, Record<string, unknown>> }).usage;
    for (const feature of ["add", "dream"]) {
      expect(usage[feature]).toMatchObject({
        calls: 1,
        failures: 0,
        model: "openai-compatible:scripted",
        lastCallAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      });
      expect(usage[feature]?.inputTokens).toBeGreaterThan(0);
      expect(usage[feature]?.outputTokens).toBeGreaterThan(0);
    }
    expect(usage.sleep).toMatchObject({ calls: 0, inputTokens: 0, model: null });

    const human = await runCli(["status"], { home });
    expect(human.code).toBe(0);
    const line = human.stdout.split("\n").find((each) => each.startsWith("LLM")) ?? "";
    expect(line).toMatch(/^LLM\s+openai-compatible:scripted \(≤ 20 calls a run\) — /);
    expect(line).toMatch(/add 1 call, [\d,]+ \+ [\d,]+ tokens · dream 1 call, [\d,]+ \+ [\d,]+ tokens/);
  });

  it("says no LLM is configured", async () => {
    const home = homeWith({});
    const { json } = await runJson(["status"], { home });
    expect(json.llm).toMatchObject({ model: null, dreamJudge: false });
    const line = (await runCli(["status"], { home })).stdout
      .split("\n")
      .find((each) => each.startsWith("LLM"));
    expect(line).toMatch(/^LLM\s+none/);
  });
});

describe("failures", () => {
  it("times out with LLM_TIMEOUT and its hint, and stores nothing", async () => {
    const home = homeWith({ llm: lucidLlm({ timeoutMs: 300 }) });
    facts = { tea: [{ text: "The user likes green tea" }] };
    server.queue.push("never");
    const failed = await runCli(["add", "--infer", "I like green tea", "--user", "u"], { home });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe("");
    expect(failed.stderr).toMatch(/^error\[LLM_TIMEOUT\]: .*300 ms/);
    expect(failed.stderr).toMatch(/^hint: .*llm\.timeoutMs/m);
    expect(server.calls).toHaveLength(1);
    const list = await runJson(["list", "--user", "u"], { home });
    expect(list.json).toMatchObject({ ok: true, total: 0, results: [] });
    // The failed call still counts.
    const status = await runJson(["status"], { home });
    expect(status.json.llm).toMatchObject({ usage: { add: { calls: 1, failures: 1 } } });
  });

  it("keeps the review tier when the judge fails: the dream still runs and says why", async () => {
    const home = homeWith({ llm: lucidLlm() });
    await seed(home, "u", REVIEW_PAIRS);
    server.queue.push({ status: 500, body: "boom" });
    const report = await runCli(["dream", "--llm", "--dry-run", "--user", "u"], { home });
    expect(report.code).toBe(0);
    expect(report.stdout).toMatch(
      /Judged by openai-compatible:scripted .*: 0 confirmed, 0 rejected, 0 kept for review, 3 not judged/,
    );
    expect(report.stdout).toMatch(/^ {2}LLM_UNAVAILABLE: /m);
    expect(report.stdout).toContain("3 wait for review");
    expect(server.calls).toHaveLength(1);
    const status = await runJson(["status"], { home });
    expect(status.json.llm).toMatchObject({ usage: { dream: { calls: 1, failures: 1 } } });
  });

  it("waits out a 429 with Retry-After and succeeds on the second call", async () => {
    const home = homeWith({ llm: lucidLlm({ maxRetries: 1 }) });
    facts = { chess: [{ text: "The user plays chess on Sundays" }] };
    server.queue.push({
      status: 429,
      headers: { "Retry-After": "1" },
      body: '{"error":{"message":"slow down"}}',
    });
    const added = await runJson(["add", "--infer", "I play chess on Sundays", "--user", "u"], { home });
    expect(added.code).toBe(0);
    expect(added.json).toMatchObject({
      results: [{ event: "ADD", memory: "The user plays chess on Sundays" }],
    });
    expect(server.calls).toHaveLength(2);
    expect(server.calls[1]?.rawBody).toBe(server.calls[0]?.rawBody);
    expect(await texts(home, "u")).toEqual(["The user plays chess on Sundays"]);
  });

  it("gives up with LLM_UNAVAILABLE after maxRetries + 1 calls to a failing server", async () => {
    const home = homeWith({ llm: lucidLlm({ maxRetries: 1 }) });
    facts = { tea: [{ text: "The user likes green tea" }] };
    for (let i = 0; i < 5; i++) server.queue.push({ status: 500, body: "boom" });
    const failed = await runJson(["add", "--infer", "I like green tea", "--user", "u"], { home });
    expect(failed.code).toBe(1);
    expect(errorOf(failed.json).code).toBe("LLM_UNAVAILABLE");
    expect(server.calls).toHaveLength(2);
    expect(await texts(home, "u")).toEqual([]);
    const human = await runCli(["add", "--infer", "I like green tea", "--user", "u"], { home });
    expect(human.stderr).toMatch(/^error\[LLM_UNAVAILABLE\]: /);
    expect(human.stderr).toMatch(/^hint: .*llm\.baseURL/m);
  });

  it("fails with LLM_BAD_OUTPUT when the answer is not the JSON asked for", async () => {
    const home = homeWith({ llm: lucidLlm() });
    server.queue.push({ text: "Sure! Here are your memories: the user likes tea" });
    const failed = await runJson(["add", "--infer", "I like tea", "--user", "u"], { home });
    expect(failed.code).toBe(1);
    expect(errorOf(failed.json).code).toBe("LLM_BAD_OUTPUT");
    expect(server.calls.length).toBeGreaterThan(0);
    expect(await texts(home, "u")).toEqual([]);
  });

  it("refuses --infer without an llm section, pointing at lucid.config.json", async () => {
    const home = homeWith({});
    const failed = await runCli(["add", "--infer", "I like tea", "--user", "u"], { home });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^error\[LLM_NOT_CONFIGURED\]: /);
    expect(failed.stderr).toMatch(/^hint: .*`llm`.*lucid\.config\.json/m);
    const json = await runJson(["add", "--infer", "I like tea", "--user", "u"], { home });
    expect(errorOf(json.json).code).toBe("LLM_NOT_CONFIGURED");
    const dream = await runJson(["dream", "--llm", "--dry-run", "--user", "u"], { home });
    expect(errorOf(dream.json).code).toBe("LLM_NOT_CONFIGURED");
    expect(await texts(home, "u")).toEqual([]);
    expect(server.calls).toHaveLength(0);
  });

  it("rejects dream.llm: true without an llm section as INVALID_CONFIG", async () => {
    const home = homeWith({ dream: { llm: true } });
    const failed = await runJson(["list", "--user", "u"], { home });
    expect(failed.code).toBe(1);
    expect(errorOf(failed.json).code).toBe("INVALID_CONFIG");
    expect(errorOf(failed.json).message).toContain("dream.llm");
    expect(errorOf(failed.json).message).toContain(join(home, "lucid.config.json"));
  });
});

describe("secrets", () => {
  it("never sends a credential from the text to the model", async () => {
    const home = homeWith({ llm: lucidLlm() });
    const token = "ghp_Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa";
    facts = { "GitHub Actions": [{ text: "The user deploys the blog with GitHub Actions" }] };
    const added = await runJson(
      ["add", "--infer", `I deploy the blog with GitHub Actions; my token is ${token}`, "--user", "u"],
      { home },
    );
    expect(added.code).toBe(0);
    expect(server.calls.length).toBeGreaterThan(0);
    expect(server.calls[0]?.lastUser).toMatch(/my token is \[REDACTED:[\w.-]+\]/);
    for (const call of server.calls) expect(call.rawBody).not.toContain(token);
    expect(added.stdout).not.toContain(token);
  });

  it("never prints the configured key, even when the server echoes it in a 401", async () => {
    const key = "sk-echoed-key-7Hq2Wm9Xc4Vb";
    const home = homeWith({ llm: lucidLlm({ apiKey: key }) });
    const echo = (): LlmReply => ({
      status: 401,
      body: JSON.stringify({
        error: { message: `Incorrect API key provided: ${key}`, code: "invalid_api_key" },
      }),
    });
    server.queue.push(echo(), echo(), echo());
    const human = await runCli(["add", "--infer", "I like tea", "--user", "u"], { home });
    const json = await runJson(["add", "--infer", "I like tea", "--user", "u"], { home });
    const debug = await runCli(["add", "--infer", "I like tea", "--user", "u", "--debug"], { home });
    expect(server.calls).toHaveLength(3);
    expect(server.calls[0]?.headers.authorization).toBe(`Bearer ${key}`);
    expect(human.code).toBe(1);
    expect(human.stderr).toMatch(/^error\[LLM_REJECTED\]: .*HTTP 401.*Incorrect API key provided/);
    expect(errorOf(json.json).code).toBe("LLM_REJECTED");
    for (const output of [human, json, debug]) {
      expect(output.stdout + output.stderr).not.toContain(key);
      expect(output.stdout + output.stderr).not.toContain(key.slice(-10));
    }
  });
});
