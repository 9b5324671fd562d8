import { beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type AnthropicLlmOptions, createAnthropicLlm } from "../../src/llm/anthropic/anthropic-llm.js";
import type { CompleteRequest, JsonOutput } from "../../src/llm/llm.js";
import { useFakeLlmServer } from "../helpers/fake-llm-server.js";

const server = useFakeLlmServer();

beforeEach(() => {
  server.calls.splice(0);
  server.queue.splice(0);
});

const API_KEY = "sk-ant-test-secret-42";

/** A client whose waits are recorded instead of slept. */
function client(options: Partial<AnthropicLlmOptions> = {}) {
  const waits: number[] = [];
  const llm = createAnthropicLlm({
    baseURL: server.baseURL,
    model: "claude-fake",
    apiKey: API_KEY,
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
  return { llm, waits };
}

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

const Facts = z.object({ facts: z.array(z.string()) });
const facts: JsonOutput<z.infer<typeof Facts>> = {
  name: "facts",
  schema: z.toJSONSchema(Facts),
  parse: (value) => Facts.parse(value),
};

const ask: CompleteRequest = {
  system: "You extract facts.",
  messages: [{ role: "user", content: "My dog is called Poppy." }],
  maxTokens: 300,
  temperature: 0,
};
const askJson: CompleteRequest<z.infer<typeof Facts>> = { ...ask, json: facts };

describe("createAnthropicLlm", () => {
  it("sends a Messages request with x-api-key and anthropic-version, and returns text and usage", async () => {
    server.queue.push({ text: "Noted.", inputTokens: 21, outputTokens: 2 });
    const { llm } = client({ headers: { "anthropic-beta": "fake-beta" } });

    const result = await llm.complete(ask);

    expect(llm.id).toBe("anthropic:claude-fake");
    expect(result).toEqual({
      text: "Noted.",
      json: undefined,
      usage: { inputTokens: 21, outputTokens: 2 },
      model: "claude-fake",
      requests: 1,
    });
    expect(server.calls).toHaveLength(1);
    const call = server.calls[0];
    expect(call?.url).toBe("/v1/messages");
    expect(call?.headers).toMatchObject({
      "x-api-key": API_KEY,
      "anthropic-version": "2023-06-01",
      "anthropic-beta": "fake-beta",
      "content-type": "application/json",
    });
    expect(call?.headers).not.toHaveProperty("authorization");
    expect(call?.body).toEqual({
      model: "claude-fake",
      system: "You extract facts.",
      messages: [{ role: "user", content: "My dog is called Poppy." }],
      max_tokens: 300,
      temperature: 0,
    });
    expect(call?.rawBody).not.toContain(API_KEY);
  });

  it("reads the usage the server reports (the fake estimates a token per 4 characters)", async () => {
    const { llm } = client();

    const result = await llm.complete(ask);

    // "You extract facts." + "My dog is called Poppy." is 41 characters; the default answer "{}" is 2.
    expect(result).toMatchObject({ text: "{}", usage: { inputTokens: 11, outputTokens: 1 } });
  });

  it("reads the key from a function at each request", async () => {
    let key = "sk-ant-one";
    const { llm } = client({ apiKey: () => key });

    await llm.complete(ask);
    key = "sk-ant-two";
    await llm.complete(ask);

    expect(server.calls.map((call) => call.headers["x-api-key"])).toEqual(["sk-ant-one", "sk-ant-two"]);
  });

  it("joins the text blocks of the answer and ignores other blocks", async () => {
    server.queue.push({
      status: 200,
      body: JSON.stringify({
        type: "message",
        model: "claude-fake-20250101",
        content: [
          { type: "thinking", thinking: "hmm" },
          { type: "text", text: "Hello, " },
          { type: "text", text: "Poppy." },
        ],
        stop_reason: "end_turn",
        usage: { input_tokens: 5, output_tokens: 4 },
      }),
    });
    const { llm } = client();

    await expect(llm.complete(ask)).resolves.toEqual({
      text: "Hello, Poppy.",
      json: undefined,
      usage: { inputTokens: 5, outputTokens: 4 },
      model: "claude-fake-20250101",
      requests: 1,
    });
  });

  it("asks for JSON in the system prompt, with the schema, and returns the parsed answer", async () => {
    server.queue.push({ text: 'Here are the facts:\n{"facts": ["has a dog named Poppy"]}' });
    const { llm } = client();

    const result = await llm.complete(askJson);

    expect(result.json).toEqual({ facts: ["has a dog named Poppy"] });
    const call = server.calls[0];
    expect(call?.system.startsWith("You extract facts.")).toBe(true);
    expect(call?.system).toContain(JSON.stringify(facts.schema));
    expect(call?.body).not.toHaveProperty("response_format");
  });

  it("turns JSON of the wrong shape into LLM_BAD_OUTPUT naming the schema", async () => {
    server.queue.push({ text: '{"facts": "not a list"}' });
    const { llm } = client();

    await expect(llm.complete(askJson)).rejects.toMatchObject({
      code: "LLM_BAD_OUTPUT",
      details: { schema: "facts", source: "anthropic:claude-fake" },
    });
  });

  it("turns an answer without JSON into LLM_BAD_OUTPUT", async () => {
    server.queue.push({ text: "I could not find any facts." });
    const { llm } = client();

    await expect(llm.complete(askJson)).rejects.toMatchObject({ code: "LLM_BAD_OUTPUT" });
  });

  it.each([
    ["a body that is not JSON", { status: 200, body: `garbage ${API_KEY}` }],
    ["an answer that is not JSON", { text: `Sure: ${API_KEY}` }],
  ] as const)(
    "never quotes the key in LLM_BAD_OUTPUT for %s the server echoes it in",
    async (_case, reply) => {
      server.queue.push(reply);
      const { llm } = client();

      const error = await llm.complete(askJson).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "LLM_BAD_OUTPUT" });
      expect((error as Error).message).toContain("[redacted]");
      expect((error as Error).message).not.toContain(API_KEY);
    },
  );

  it("turns a JSON answer stopped at max_tokens into LLM_BAD_OUTPUT", async () => {
    server.queue.push({ text: '{"facts": ["has a dog"]}', finish: "length" });
    const { llm } = client();

    await expect(llm.complete(askJson)).rejects.toMatchObject({
      code: "LLM_BAD_OUTPUT",
      details: { maxTokens: 300 },
    });
  });

  it.each([
    ["a body that is not JSON", "<html>oops</html>"],
    ["no content array", JSON.stringify({ type: "message" })],
  ])("turns %s into LLM_BAD_OUTPUT", async (_case, body) => {
    server.queue.push({ status: 200, body });
    const { llm } = client();

    await expect(llm.complete(ask)).rejects.toMatchObject({ code: "LLM_BAD_OUTPUT" });
  });

  it("retries 529 (overloaded) with backoff, then succeeds", async () => {
    server.queue.push({ status: 529 }, { status: 529 }, { text: "finally" });
    const { llm, waits } = client();

    await expect(llm.complete(ask)).resolves.toMatchObject({ text: "finally" });
    expect(server.calls).toHaveLength(3);
    expect(waits).toHaveLength(2);
    expect(waits[1]).toBeGreaterThan(waits[0] ?? Number.POSITIVE_INFINITY);
  });

  it("fails with LLM_UNAVAILABLE once 529s outlast maxRetries", async () => {
    server.queue.push({ status: 529 }, { status: 529 });
    const { llm } = client({ maxRetries: 1 });

    await expect(llm.complete(ask)).rejects.toMatchObject({
      code: "LLM_UNAVAILABLE",
      details: { status: 529, attempts: 2 },
    });
    expect(server.calls).toHaveLength(2);
  });

  it("honours Retry-After on a 429", async () => {
    server.queue.push({ status: 429, headers: { "retry-after": "2" } }, { text: "ok" });
    const { llm, waits } = client();

    await expect(llm.complete(ask)).resolves.toMatchObject({ text: "ok" });
    expect(waits).toEqual([2000]);
  });

  it("turns a 401 into LLM_REJECTED after one call, never quoting the key the server echoes", async () => {
    server.queue.push({
      status: 401,
      body: JSON.stringify({
        type: "error",
        error: { type: "authentication_error", message: `invalid x-api-key ${API_KEY}` },
      }),
    });
    const { llm, waits } = client();

    const error = await llm.complete(ask).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ code: "LLM_REJECTED", details: { status: 401 } });
    expect((error as Error).message).toContain("authentication_error");
    expect((error as Error).message).not.toContain(API_KEY);
    expect(server.calls).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("turns a server that never answers into LLM_TIMEOUT", async () => {
    server.queue.push("never");
    const { llm } = client({ timeoutMs: 200, maxRetries: 0 });

    await expect(llm.complete(ask)).rejects.toMatchObject({
      code: "LLM_TIMEOUT",
      details: { timeoutMs: 200 },
    });
    expect(server.calls).toHaveLength(1);
  });

  it("sends the request again after the connection is reset", async () => {
    server.queue.push("reset", { text: "again" });
    const { llm } = client();

    await expect(llm.complete(ask)).resolves.toMatchObject({ text: "again" });
    expect(server.calls).toHaveLength(2);
  });

  it.each([
    ["a blank model", { model: "", apiKey: "k" }],
    ["an empty apiKey", { model: "m", apiKey: "" }],
    ["an empty baseURL", { baseURL: " ", model: "m", apiKey: "k" }],
    ["a fractional timeoutMs", { model: "m", apiKey: "k", timeoutMs: 1.5 }],
  ])("rejects %s with INVALID_ARGUMENT", (_case, options: AnthropicLlmOptions) => {
    expect(catchError(() => createAnthropicLlm(options))).toMatchObject({ code: "INVALID_ARGUMENT" });
  });
});
