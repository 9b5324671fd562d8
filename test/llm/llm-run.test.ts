/**
 * The one choke point every LLM call goes through (`core/llm-run.ts`), against a real loopback
 * server: texts redacted whatever the secrets policy, the call cap, usage kept in the store by
 * feature (failures too), and no binding without an LLM.
 */

import { afterAll, describe, expect, it } from "vitest";
import { judgePairs, type PairToJudge } from "../../src/core/judge-pairs.js";
import { startLlmRun } from "../../src/core/llm-run.js";
import { readLlmUsage } from "../../src/core/llm-usage.js";
import { type Memory, openMemory } from "../../src/index.js";
import { useFakeLlmServer } from "../helpers/fake-llm-server.js";

const server = useFakeLlmServer({ answer: () => ({ text: "fine", inputTokens: 30, outputTokens: 5 }) });
const opened: Memory[] = [];

async function open(options: Parameters<typeof openMemory>[0] = {}): Promise<Memory> {
  const memory = await openMemory({
    path: ":memory:",
    llm: { provider: "openai-compatible", baseURL: server.baseURL, model: "m", maxRetries: 0 },
    ...options,
  });
  opened.push(memory);
  return memory;
}

afterAll(async () => {
  await Promise.all(opened.map((memory) => memory.close()));
});

const TOKEN = "ghp_Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8";

describe("a run on the LLM", () => {
  it("redacts every text it sends, even when the policy lets credentials into the store", async () => {
    const memory = await open({ policy: { secrets: { onAdd: "allow" } } });
    const run = startLlmRun(await memory.ready(), "dream");
    server.calls.length = 0;
    await run?.complete({
      system: `You may see ${TOKEN}`,
      messages: [
        { role: "user", content: `the token is ${TOKEN}` },
        { role: "assistant", content: `noted: ${TOKEN}` },
      ],
      maxTokens: 10,
      temperature: 0,
    });
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]?.rawBody).not.toContain(TOKEN);
    expect(server.calls[0]?.rawBody).toContain("the token is [REDACTED:github-pat]");
  });

  it("refuses a call past maxCallsPerRun without sending it, and counts per run", async () => {
    const memory = await open({ maxLlmCallsPerRun: 2 });
    const context = await memory.ready();
    const run = startLlmRun(context, "sleep");
    const ask = {
      system: "s",
      messages: [{ role: "user" as const, content: "q" }],
      maxTokens: 5,
      temperature: 0,
    };
    server.calls.length = 0;
    await run?.complete(ask);
    await run?.complete(ask);
    expect(run?.remaining).toBe(0);
    await expect(run?.complete(ask)).rejects.toMatchObject({
      code: "LLM_BUDGET_EXCEEDED",
      details: { feature: "sleep", maxCallsPerRun: 2 },
    });
    expect(server.calls).toHaveLength(2);
    // A new run starts again.
    await startLlmRun(context, "sleep")?.complete(ask);
    expect(server.calls).toHaveLength(3);
  });

  it("keeps calls, failures and tokens in the store by feature", async () => {
    const memory = await open();
    const context = await memory.ready();
    const run = startLlmRun(context, "add");
    const ask = {
      system: "s",
      messages: [{ role: "user" as const, content: "q" }],
      maxTokens: 5,
      temperature: 0,
    };
    await run?.complete(ask);
    server.queue.push({ status: 503, body: "busy" });
    await expect(run?.complete(ask)).rejects.toMatchObject({ code: "LLM_UNAVAILABLE" });
    expect(run?.spent).toEqual({ calls: 2, requests: 2, failures: 1, inputTokens: 30, outputTokens: 5 });
    const usage = await readLlmUsage(context.store);
    expect(usage.add).toMatchObject({
      calls: 2,
      failures: 1,
      inputTokens: 30,
      outputTokens: 5,
      model: "openai-compatible:m",
    });
    expect(usage.dream).toMatchObject({ calls: 0, failures: 0, model: null });
    expect((await memory.status()).llm.usage.add.calls).toBe(2);
  });

  it("returns the answer when the store cannot keep the call's usage, and says so once", async () => {
    const memory = await open();
    const run = startLlmRun(await memory.ready(), "add");
    await memory.close();
    const warnings: string[] = [];
    const listen = (warning: Error) => warnings.push(warning.message);
    process.on("warning", listen);
    try {
      const answer = await run?.complete({
        system: "s",
        messages: [{ role: "user", content: "q" }],
        maxTokens: 5,
        temperature: 0,
      });
      expect(answer?.text).toBe("fine");
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.some((message) => message.includes("usage totals"))).toBe(true);
    } finally {
      process.off("warning", listen);
    }
  });

  it("has nothing to run without an LLM", async () => {
    const memory = await openMemory({ path: ":memory:" });
    opened.push(memory);
    expect(startLlmRun(await memory.ready(), "add")).toBeUndefined();
    expect((await memory.status()).llm).toMatchObject({
      model: null,
      maxCallsPerRun: null,
      dreamJudge: false,
    });
  });

  it("refuses bad settings when the memory opens, naming the key", async () => {
    await expect(
      openMemory({ path: ":memory:", llm: { provider: "openai-compatible" } as never }),
    ).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining("llm.model is required"),
    });
    await expect(
      openMemory({ path: ":memory:", llm: { provider: "gemini", config: { model: "x" } } }),
    ).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining("not a provider Lucid speaks"),
    });
    await expect(
      openMemory({ path: ":memory:", llm: { provider: "anthropic", model: "claude" } as never }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringContaining("apiKey") });
    await expect(openMemory({ path: ":memory:", dreamLlm: true })).rejects.toMatchObject({
      code: "LLM_NOT_CONFIGURED",
    });
    await expect(
      openMemory({ path: ":memory:", llm: { id: "", complete: async () => ({}) } as never }),
    ).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });

  it("judges eight pairs a call while the budget lasts, and leaves the rest unjudged", async () => {
    const memory = await open({ maxLlmCallsPerRun: 1 });
    const run = startLlmRun(await memory.ready(), "dream");
    server.calls.length = 0;
    server.queue.push({
      text: JSON.stringify({
        decisions: Array.from({ length: 8 }, (_, i) => ({ item: i + 1, verdict: "distinct", reason: "r" })),
      }),
    });
    const judging = await judgePairs(run as NonNullable<typeof run>, pairs(10));
    expect(server.calls).toHaveLength(1);
    expect(judging.judgements).toHaveLength(8);
    expect(judging.unjudged).toEqual(["p8", "p9"]);
  });

  it("stops asking after a server failure, but not after one bad answer", async () => {
    const memory = await open();
    const run = startLlmRun(await memory.ready(), "dream") as NonNullable<ReturnType<typeof startLlmRun>>;
    server.calls.length = 0;
    server.queue.push({ status: 503, body: "down" });
    const down = await judgePairs(run, pairs(20));
    expect(server.calls).toHaveLength(1);
    expect(down.unjudged).toHaveLength(20);
    expect(down.failures.map((failure) => failure.code)).toEqual(["LLM_UNAVAILABLE"]);

    server.calls.length = 0;
    server.queue.push(
      { text: "not json" },
      { text: JSON.stringify({ decisions: [{ item: 1, verdict: "same", reason: "r" }] }) },
    );
    const flaky = await judgePairs(run, pairs(9));
    expect(server.calls).toHaveLength(2);
    expect(flaky.failures.map((failure) => failure.code)).toEqual(["LLM_BAD_OUTPUT"]);
    expect(flaky.judgements.map((judgement) => judgement.key)).toEqual(["p8"]);
  });

  it("redacts a pair's text before cutting it, so a credential across the cut is never sent", async () => {
    const memory = await open({ policy: { secrets: { onAdd: "allow" } } });
    const run = startLlmRun(await memory.ready(), "dream") as NonNullable<ReturnType<typeof startLlmRun>>;
    server.calls.length = 0;
    // The token straddles the 1,000th character, where a memory's text is cut for the prompt.
    const text = `${"x".repeat(990)} ${TOKEN} tail`;
    await judgePairs(run, [
      { key: "k", a: { text, at: AT }, b: { text: "short", at: AT }, hint: "h", wantsWording: false },
    ]);
    expect(server.calls[0]?.rawBody).not.toContain(TOKEN.slice(0, 14));
    // The marker itself may be cut: what stands there is the redaction, not the token.
    expect(server.calls[0]?.rawBody).toContain("x [REDACTED");
  });
});

const AT = "2026-12-02T00:00:00.000Z";

function pairs(count: number): PairToJudge[] {
  return Array.from({ length: count }, (_, i) => ({
    key: `p${i}`,
    a: { text: `memory a ${i}`, at: AT },
    b: { text: `memory b ${i}`, at: AT },
    hint: "close in meaning",
    wantsWording: false,
  }));
}
