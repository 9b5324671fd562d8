import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { CompleteRequest, JsonOutput } from "../../src/llm/llm.js";
import {
  createOpenAICompatibleLlm,
  type OpenAICompatibleLlmOptions,
} from "../../src/llm/openai-compatible/openai-compatible-llm.js";
import {
  type FakeLlmServer,
  type FakeLlmServerOptions,
  startFakeLlmServer,
} from "../helpers/fake-llm-server.js";

const servers: FakeLlmServer[] = [];

async function start(options: FakeLlmServerOptions = {}): Promise<FakeLlmServer> {
  const server = await startFakeLlmServer(options);
  servers.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A client whose waits are recorded instead of slept. */
function client(server: FakeLlmServer, options: Partial<OpenAICompatibleLlmOptions> = {}) {
  const waits: number[] = [];
  const llm = createOpenAICompatibleLlm({
    baseURL: server.baseURL,
    model: "fake-chat",
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
  return { llm, waits };
}

const Verdict = z.object({ same: z.boolean(), reason: z.string() });
const verdict: JsonOutput<z.infer<typeof Verdict>> = {
  name: "verdict",
  schema: z.toJSONSchema(Verdict),
  parse: (value) => Verdict.parse(value),
};

const ask: CompleteRequest = {
  system: "You judge memories.",
  messages: [{ role: "user", content: "Are these the same?" }],
  maxTokens: 200,
  temperature: 0,
};
const askJson: CompleteRequest<z.infer<typeof Verdict>> = { ...ask, json: verdict };

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

const GOOD_VERDICT = JSON.stringify({ same: true, reason: "both name Poppy" });

describe("createOpenAICompatibleLlm", () => {
  it("sends a chat completion and returns the text, usage and model", async () => {
    const server = await start({ answer: () => ({ text: "Paris", inputTokens: 12, outputTokens: 3 }) });
    const { llm } = client(server, { baseURL: `${server.baseURL}/` });

    const result = await llm.complete({
      ...ask,
      messages: [
        { role: "user", content: "Capital of France?" },
        { role: "assistant", content: "Paris." },
        { role: "user", content: "Again?" },
      ],
    });

    expect(llm.id).toBe("openai-compatible:fake-chat");
    expect(result).toEqual({
      text: "Paris",
      json: undefined,
      usage: { inputTokens: 12, outputTokens: 3 },
      model: "fake-chat",
      requests: 1,
    });
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]?.url).toBe("/v1/chat/completions");
    expect(server.calls[0]?.body).toEqual({
      model: "fake-chat",
      messages: [
        { role: "system", content: "You judge memories." },
        { role: "user", content: "Capital of France?" },
        { role: "assistant", content: "Paris." },
        { role: "user", content: "Again?" },
      ],
      max_tokens: 200,
      temperature: 0,
    });
    expect(server.calls[0]?.lastUser).toBe("Again?");
  });

  it("reads the server's token estimate and the model it names", async () => {
    const server = await start({
      answer: () => ({
        status: 200,
        body: JSON.stringify({
          model: "fake-chat-2025-01-01",
          choices: [{ message: { content: "abcdefgh" } }],
          usage: { prompt_tokens: 7, completion_tokens: 2 },
        }),
      }),
    });
    const { llm } = client(server);

    const result = await llm.complete(ask);

    expect(result.usage).toEqual({ inputTokens: 7, outputTokens: 2 });
    expect(result.model).toBe("fake-chat-2025-01-01");
  });

  it("counts 0 tokens and the configured model when the server names neither", async () => {
    const server = await start({
      answer: () => ({ status: 200, body: JSON.stringify({ choices: [{ message: { content: "hi" } }] }) }),
    });
    const { llm } = client(server);

    await expect(llm.complete(ask)).resolves.toEqual({
      text: "hi",
      json: undefined,
      usage: { inputTokens: 0, outputTokens: 0 },
      model: "fake-chat",
      requests: 1,
    });
  });

  it("sends the API key as a bearer token, plus extra headers, reading functions at each request", async () => {
    const server = await start();
    let key = "sk-first";
    const { llm } = client(server, { apiKey: () => key, headers: { "x-organisation": "lucid" } });

    await llm.complete(ask);
    key = "sk-second";
    await llm.complete(ask);

    expect(server.calls[0]?.headers).toMatchObject({
      authorization: "Bearer sk-first",
      "x-organisation": "lucid",
      "content-type": "application/json",
    });
    expect(server.calls[1]?.headers.authorization).toBe("Bearer sk-second");
    expect(server.calls.some((call) => call.rawBody.includes("sk-"))).toBe(false);
  });

  it("sends no authorization header without an API key", async () => {
    const server = await start();
    const { llm } = client(server);

    await llm.complete(ask);

    expect(server.calls[0]?.headers).not.toHaveProperty("authorization");
  });

  it("asks for JSON with json_schema and returns the parsed answer", async () => {
    const server = await start({ answer: () => ({ text: GOOD_VERDICT }) });
    const { llm } = client(server);

    const result = await llm.complete(askJson);

    expect(result.json).toEqual({ same: true, reason: "both name Poppy" });
    expect(result.text).toBe(GOOD_VERDICT);
    expect(server.calls[0]?.body.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "verdict", schema: verdict.schema, strict: false },
    });
    // The schema travels in response_format; the prompt is left as written.
    expect(server.calls[0]?.system).toBe("You judge memories.");
  });

  it("with jsonMode json_object sends that type and puts the schema in the system prompt", async () => {
    const server = await start({ answer: () => ({ text: GOOD_VERDICT }) });
    const { llm } = client(server, { jsonMode: "json_object" });

    const result = await llm.complete(askJson);

    expect(result.json).toEqual({ same: true, reason: "both name Poppy" });
    expect(server.calls[0]?.body.response_format).toEqual({ type: "json_object" });
    expect(server.calls[0]?.system).toContain("You judge memories.");
    expect(server.calls[0]?.system).toContain("JSON");
    expect(server.calls[0]?.system).toContain(JSON.stringify(verdict.schema));
  });

  it("with jsonMode none sends no response_format and still reads JSON from the answer", async () => {
    const server = await start({
      answer: () => ({ text: `Here you go:\n\`\`\`json\n${GOOD_VERDICT}\n\`\`\`` }),
    });
    const { llm } = client(server, { jsonMode: "none" });

    const result = await llm.complete(askJson);

    expect(result.json).toEqual({ same: true, reason: "both name Poppy" });
    expect(server.calls[0]?.body).not.toHaveProperty("response_format");
    expect(server.calls[0]?.system).toContain(JSON.stringify(verdict.schema));
  });

  it("downgrades json_schema to json_object on a 400 about response_format, and remembers it", async () => {
    const server = await start({
      answer: (call) =>
        call.body.response_format?.type === "json_schema"
          ? {
              status: 400,
              body: JSON.stringify({ error: { message: "response_format json_schema unsupported" } }),
            }
          : { text: GOOD_VERDICT },
    });
    const { llm, waits } = client(server);

    const first = await llm.complete(askJson);
    const second = await llm.complete(askJson);

    expect(first.json).toEqual({ same: true, reason: "both name Poppy" });
    expect(second.json).toEqual({ same: true, reason: "both name Poppy" });
    expect(server.calls.map((call) => call.body.response_format?.type)).toEqual([
      "json_schema",
      "json_object",
      "json_object",
    ]);
    expect(waits).toEqual([]);
  });

  it("downgrades down to no response_format when the server takes none", async () => {
    const server = await start({
      answer: (call) =>
        call.body.response_format === undefined
          ? { text: GOOD_VERDICT }
          : { status: 400, body: '{"error":{"message":"unknown field: response_format"}}' },
    });
    const { llm } = client(server);

    await expect(llm.complete(askJson)).resolves.toMatchObject({ json: { same: true } });
    expect(server.calls.map((call) => call.body.response_format?.type ?? "none")).toEqual([
      "json_schema",
      "json_object",
      "none",
    ]);
  });

  it.each([
    ["a body that is not JSON", (key: string) => ({ status: 200, body: `garbage ${key}` })],
    ["an answer that is not JSON", (key: string) => ({ text: `Sure: ${key}` })],
  ])("never quotes the key or a header value in LLM_BAD_OUTPUT for %s echoing them", async (_case, reply) => {
    // Longer than any excerpt an error quotes: redacted before it is cut, or a prefix would show.
    const key = `sk-echoed-${"k".repeat(120)}-4417`;
    const header = "org-secret-9931";
    const server = await start({ answer: () => reply(`${key} ${header}`) });
    const { llm } = client(server, { apiKey: key, headers: { "x-org": header } });

    const error = await llm.complete(askJson).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "LLM_BAD_OUTPUT" });
    expect((error as Error).message).toContain("[redacted] [redacted]");
    expect((error as Error).message).not.toContain(key.slice(0, 12));
    expect((error as Error).message).not.toContain(header);
  });

  it("moves to max_completion_tokens and the default temperature for models that refuse them (OpenAI's gpt-5, o-series)", async () => {
    // The errors OpenAI returns for a reasoning model asked with the classic parameters.
    const server = await start({
      answer: (call) => {
        if ("max_tokens" in call.body)
          return {
            status: 400,
            body: JSON.stringify({
              error: {
                message:
                  "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
              },
            }),
          };
        if ("temperature" in call.body)
          return {
            status: 400,
            body: JSON.stringify({
              error: {
                message:
                  "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
              },
            }),
          };
        return { text: GOOD_VERDICT };
      },
    });
    const { llm } = client(server, { model: "gpt-5-mini" });

    await expect(llm.complete(askJson)).resolves.toMatchObject({ json: { same: true } });
    await expect(llm.complete(askJson)).resolves.toMatchObject({ json: { same: true } });

    const sent = server.calls.map((call) =>
      Object.keys(call.body).filter((key) => /tokens|temperature/.test(key)),
    );
    expect(sent).toEqual([
      ["max_tokens", "temperature"],
      ["max_completion_tokens", "temperature"],
      ["max_completion_tokens"],
      // Remembered: the next call goes straight to what the model takes.
      ["max_completion_tokens"],
    ]);
    expect(server.calls[3]?.body.max_completion_tokens).toBe(askJson.maxTokens);
  });

  it("does not downgrade on a 400 about something else, nor for a text request", async () => {
    const server = await start({
      answer: () => ({ status: 400, body: '{"error":{"message":"bad temperature"}}' }),
    });
    const { llm } = client(server);

    await expect(llm.complete(askJson)).rejects.toMatchObject({
      code: "LLM_REJECTED",
      details: { status: 400 },
    });
    await expect(llm.complete(ask)).rejects.toMatchObject({ code: "LLM_REJECTED" });
    expect(server.calls).toHaveLength(2);
  });

  it.each([
    ["prose around the object", `I think:\n${GOOD_VERDICT}\nHope that helps.`],
    ["a ```json fence", `\`\`\`json\n${GOOD_VERDICT}\n\`\`\``],
  ])("accepts JSON in %s", async (_case, text) => {
    const server = await start({ answer: () => ({ text }) });
    const { llm } = client(server);

    await expect(llm.complete(askJson)).resolves.toMatchObject({
      json: { same: true, reason: "both name Poppy" },
    });
  });

  it("turns an answer that is not JSON into LLM_BAD_OUTPUT", async () => {
    const server = await start({ answer: () => ({ text: "{same: yes" }) });
    const { llm } = client(server);

    await expect(llm.complete(askJson)).rejects.toMatchObject({ code: "LLM_BAD_OUTPUT" });
  });

  it("turns JSON of the wrong shape into LLM_BAD_OUTPUT naming the schema", async () => {
    const server = await start({ answer: () => ({ text: '{"same": "maybe"}' }) });
    const { llm } = client(server);

    const error = await llm.complete(askJson).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ code: "LLM_BAD_OUTPUT", details: { schema: "verdict" } });
  });

  it("turns a JSON answer cut at maxTokens into LLM_BAD_OUTPUT, but returns a cut text answer", async () => {
    const server = await start({ answer: () => ({ text: GOOD_VERDICT, finish: "length" }) });
    const { llm } = client(server);

    await expect(llm.complete(askJson)).rejects.toMatchObject({
      code: "LLM_BAD_OUTPUT",
      details: { maxTokens: 200 },
    });
    await expect(llm.complete(ask)).resolves.toMatchObject({ text: GOOD_VERDICT });
  });

  it.each([
    ["a body that is not JSON", "<html>oops</html>"],
    ["no choices", JSON.stringify({ object: "chat.completion" })],
    ["empty choices", JSON.stringify({ choices: [] })],
    ["a choice without a message", JSON.stringify({ choices: [{ finish_reason: "stop" }] })],
    ["null content", JSON.stringify({ choices: [{ message: { content: null } }] })],
    ["a refusal", JSON.stringify({ choices: [{ message: { content: null, refusal: "I can't." } }] })],
  ])("turns %s into LLM_BAD_OUTPUT", async (_case, body) => {
    const server = await start({ answer: () => ({ status: 200, body }) });
    const { llm } = client(server);

    await expect(llm.complete(ask)).rejects.toMatchObject({ code: "LLM_BAD_OUTPUT" });
  });

  it("quotes the model's refusal when it gives one instead of content", async () => {
    const server = await start({
      answer: () => ({
        status: 200,
        body: JSON.stringify({ choices: [{ message: { content: null, refusal: "I cannot judge that." } }] }),
      }),
    });
    const { llm } = client(server);

    const error = await llm.complete(askJson).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ code: "LLM_BAD_OUTPUT" });
    expect((error as Error).message).toContain("I cannot judge that.");
  });

  it("turns a server that never answers into LLM_TIMEOUT after timeoutMs", async () => {
    const server = await start({ answer: () => "never" });
    const { llm } = client(server, { timeoutMs: 200, maxRetries: 0 });

    await expect(llm.complete(ask)).rejects.toMatchObject({
      code: "LLM_TIMEOUT",
      details: { url: `${server.baseURL}/chat/completions`, timeoutMs: 200 },
    });
    expect(server.calls).toHaveLength(1);
  });

  it("retries a timed-out attempt", async () => {
    const server = await start();
    server.queue.push("never", { text: "late but fine" });
    const { llm, waits } = client(server, { timeoutMs: 200, maxRetries: 1 });

    await expect(llm.complete(ask)).resolves.toMatchObject({ text: "late but fine" });
    expect(server.calls).toHaveLength(2);
    expect(waits).toHaveLength(1);
  });

  it("waits as long as Retry-After says on a 429, then succeeds", async () => {
    const server = await start();
    server.queue.push({ status: 429, headers: { "retry-after": "2" } }, { text: "ok" });
    const { llm, waits } = client(server);

    await expect(llm.complete(ask)).resolves.toMatchObject({ text: "ok" });
    expect(waits).toEqual([2000]);
    expect(server.calls).toHaveLength(2);
  });

  it("reads a Retry-After given as an HTTP date", async () => {
    const server = await start();
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    server.queue.push({ status: 503, headers: { "retry-after": inTenSeconds } }, { text: "ok" });
    const { llm, waits } = client(server);

    await expect(llm.complete(ask)).resolves.toMatchObject({ text: "ok" });
    // The date has whole seconds, and some time passes before it is read.
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(5000);
    expect(waits[0]).toBeLessThanOrEqual(10_000);
  });

  it("fails at once with LLM_UNAVAILABLE when Retry-After is longer than maxRetryAfterMs", async () => {
    const server = await start();
    server.queue.push({ status: 429, headers: { "retry-after": "3600" } }, { text: "never reached" });
    const { llm, waits } = client(server);

    const error = await llm.complete(ask).catch((caught: unknown) => caught);

    expect(error).toMatchObject({
      code: "LLM_UNAVAILABLE",
      details: { status: 429, retryAfterMs: 3_600_000 },
    });
    expect((error as Error).message).toContain("3600 s");
    expect(waits).toEqual([]);
    expect(server.calls).toHaveLength(1);
  });

  it("retries 5xx with growing backoff, then fails with LLM_UNAVAILABLE without quoting the key", async () => {
    const apiKey = "sk-secret-value-123";
    const server = await start({
      answer: () => ({ status: 500, body: JSON.stringify({ error: `model crashed for key ${apiKey}` }) }),
    });
    const { llm, waits } = client(server, { apiKey, maxRetries: 2 });

    const error = await llm.complete(ask).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ code: "LLM_UNAVAILABLE", details: { status: 500, attempts: 3 } });
    expect((error as Error).message).toContain("model crashed");
    expect((error as Error).message).not.toContain(apiKey);
    expect(server.calls).toHaveLength(3);
    // 500 ms then 1 s, each up to 25 % shorter for jitter.
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(375);
    expect(waits[0]).toBeLessThanOrEqual(500);
    expect(waits[1]).toBeGreaterThanOrEqual(750);
    expect(waits[1]).toBeLessThanOrEqual(1000);
    expect(server.calls.some((call) => call.rawBody.includes(apiKey))).toBe(false);
  });

  it("turns a 401 into LLM_REJECTED after one call, with a hint about apiKey", async () => {
    const server = await start({
      answer: () => ({ status: 401, body: '{"error":{"message":"bad key sk-x"}}' }),
    });
    const { llm, waits } = client(server, { apiKey: "sk-x" });

    const error = await llm.complete(ask).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ code: "LLM_REJECTED", details: { status: 401 } });
    expect((error as Error).message).toContain("apiKey");
    expect((error as Error).message).not.toContain("sk-x");
    expect(server.calls).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("turns a 404 into LLM_REJECTED with a hint about baseURL and model", async () => {
    const server = await start({ answer: () => ({ status: 404 }) });
    const { llm } = client(server);

    const error = await llm.complete(ask).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ code: "LLM_REJECTED", details: { status: 404 } });
    expect((error as Error).message).toContain("baseURL");
  });

  it("sends the request again after the connection is reset", async () => {
    const server = await start();
    server.queue.push("reset", { text: "second time lucky" });
    const { llm } = client(server);

    await expect(llm.complete(ask)).resolves.toMatchObject({ text: "second time lucky" });
    expect(server.calls).toHaveLength(2);
  });

  it("turns an unreachable server into LLM_UNAVAILABLE naming the URL, after retrying the refusal", async () => {
    const server = await startFakeLlmServer();
    await server.close(); // the port is now free and refuses connections
    const { llm, waits } = client(server, { maxRetries: 1 });

    const error = await llm.complete(ask).catch((caught: unknown) => caught);

    expect(error).toMatchObject({
      code: "LLM_UNAVAILABLE",
      details: { url: `${server.baseURL}/chat/completions`, attempts: 2 },
    });
    expect((error as Error).message).toContain("baseURL");
    expect(waits).toHaveLength(1);
  });

  it.each([
    ["an empty baseURL", { baseURL: "", model: "m" }],
    ["a blank model", { baseURL: "http://127.0.0.1:1/v1", model: " " }],
    ["a zero timeoutMs", { baseURL: "http://127.0.0.1:1/v1", model: "m", timeoutMs: 0 }],
    ["a negative maxRetries", { baseURL: "http://127.0.0.1:1/v1", model: "m", maxRetries: -1 }],
    ["an unknown jsonMode", { baseURL: "http://127.0.0.1:1/v1", model: "m", jsonMode: "xml" as never }],
  ])("rejects %s with INVALID_ARGUMENT", (_case, options: OpenAICompatibleLlmOptions) => {
    expect(catchError(() => createOpenAICompatibleLlm(options))).toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("accepts maxRetries 0", () => {
    const llm = createOpenAICompatibleLlm({ baseURL: "http://127.0.0.1:1/v1", model: "m", maxRetries: 0 });
    expect(llm.id).toBe("openai-compatible:m");
  });
});
