/**
 * A real HTTP server on loopback speaking both LLM wire formats Lucid's clients use: OpenAI's
 * `POST /v1/chat/completions` and Anthropic's `POST /v1/messages`. Tests script its replies
 * (answers, errors, silence, resets) and read every call it received, raw body included.
 *
 * @module
 */

import { createServer, type IncomingHttpHeaders } from "node:http";
import { listenOnLoopback, useLoopbackServer } from "./loopback-server.js";

export interface LlmCall {
  provider: "openai" | "anthropic";
  /** Path and query, e.g. `/v1/messages`. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (the raw text if it was not JSON). */
  // biome-ignore lint/suspicious/noExplicitAny: the request as sent, read freely by tests
  body: any;
  /** The body exactly as received: tests check that no secret ever appears in it. */
  rawBody: string;
  /** The system prompt: OpenAI's system messages joined, or Anthropic's `system`. */
  system: string;
  /** Content of the last user message. */
  lastUser: string;
}

/**
 * A normal answer in the caller's wire format, an error answer (any status and body, e.g. a 200
 * with a malformed body), `"never"` to hold the request open (timeout tests), or `"reset"` to
 * destroy the connection without answering.
 */
export type LlmReply =
  | { text: string; inputTokens?: number; outputTokens?: number; finish?: "stop" | "length" }
  | { status: number; body?: string; headers?: Record<string, string> }
  | "never"
  | "reset";

export interface FakeLlmServerOptions {
  /** The reply once `queue` is empty (may wait: something can happen while the client waits). Default: the text `{}`. */
  answer?: (call: LlmCall) => LlmReply | Promise<LlmReply>;
}

export interface FakeLlmServer {
  /** e.g. `http://127.0.0.1:54321/v1` */
  baseURL: string;
  /** Every call received, in arrival order. */
  calls: LlmCall[];
  /** Next replies, consumed in order before `answer`. */
  queue: LlmReply[];
  close(): Promise<void>;
}

const ROUTES: Record<string, LlmCall["provider"]> = {
  "/v1/chat/completions": "openai",
  "/v1/messages": "anthropic",
};

/**
 * Starts the server on 127.0.0.1 with an OS-chosen port.
 *
 * @example
 * const server = await startFakeLlmServer({ answer: (call) => ({ text: `echo: ${call.lastUser}` }) });
 * const llm = createOpenAICompatibleLlm({ baseURL: server.baseURL, model: "fake" });
 * await server.close();
 */
export async function startFakeLlmServer(options: FakeLlmServerOptions = {}): Promise<FakeLlmServer> {
  const calls: LlmCall[] = [];
  const queue: LlmReply[] = [];

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString("utf8");
    const url = req.url ?? "";
    const provider = ROUTES[url];
    if (req.method !== "POST" || provider === undefined) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `No route ${req.method} ${url}` } }));
      return;
    }
    const body = parseJson(rawBody);
    const call: LlmCall = {
      provider,
      url,
      headers: req.headers,
      body,
      rawBody,
      system: systemOf(provider, body),
      lastUser: lastUserOf(body),
    };
    calls.push(call);

    const reply = queue.shift() ?? (await options.answer?.(call)) ?? { text: "{}" };
    if (reply === "never") return;
    if (reply === "reset") {
      req.socket.destroy();
      return;
    }
    if ("status" in reply) {
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(reply.body ?? errorBody(provider, reply.status));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(provider === "openai" ? openaiAnswer(call, reply) : anthropicAnswer(call, reply)));
  });

  const { port, close } = await listenOnLoopback(server);

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    calls,
    queue,
    close,
  };
}

/**
 * One loopback LLM server for the tests of a file: started before them, closed after. The object
 * it returns reads through to the running server, so it can be passed around before it starts.
 *
 * @example
 * const server = useFakeLlmServer();
 * it("…", async () => { server.queue.push({ text: "hello" }); … });
 */
export function useFakeLlmServer(options: FakeLlmServerOptions = {}): FakeLlmServer {
  return useLoopbackServer("fake LLM server", () => startFakeLlmServer(options));
}

type TextReply = Extract<LlmReply, { text: string }>;

function openaiAnswer(call: LlmCall, reply: TextReply): object {
  return {
    id: `chatcmpl-fake-${Date.now()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: typeof call.body?.model === "string" ? call.body.model : "fake",
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: reply.text },
        finish_reason: reply.finish ?? "stop",
      },
    ],
    usage: usageOf(call, reply, (input, output) => ({
      prompt_tokens: input,
      completion_tokens: output,
      total_tokens: input + output,
    })),
  };
}

function anthropicAnswer(call: LlmCall, reply: TextReply): object {
  return {
    id: `msg_fake_${Date.now()}`,
    type: "message",
    role: "assistant",
    model: typeof call.body?.model === "string" ? call.body.model : "fake",
    content: [{ type: "text", text: reply.text }],
    stop_reason: reply.finish === "length" ? "max_tokens" : "end_turn",
    stop_sequence: null,
    usage: usageOf(call, reply, (input, output) => ({ input_tokens: input, output_tokens: output })),
  };
}

/** Token counts as the reply gives them, else a deterministic estimate: a token per 4 characters. */
function usageOf(call: LlmCall, reply: TextReply, shape: (input: number, output: number) => object): object {
  const messages: unknown[] = Array.isArray(call.body?.messages) ? call.body.messages : [];
  const requestChars =
    (call.provider === "anthropic" ? call.system.length : 0) +
    messages.reduce<number>((sum, message) => sum + textOf(record(message).content).length, 0);
  return shape(
    reply.inputTokens ?? Math.ceil(requestChars / 4),
    reply.outputTokens ?? Math.ceil(reply.text.length / 4),
  );
}

function errorBody(provider: LlmCall["provider"], status: number): string {
  const message = `fake error ${status}`;
  return JSON.stringify(
    provider === "openai"
      ? { error: { message, type: "fake_error", code: status } }
      : { type: "error", error: { type: status === 529 ? "overloaded_error" : "api_error", message } },
  );
}

function systemOf(provider: LlmCall["provider"], body: unknown): string {
  const request = record(body);
  if (provider === "anthropic") return textOf(request.system);
  const messages: unknown[] = Array.isArray(request.messages) ? request.messages : [];
  return messages
    .map(record)
    .filter((message) => message.role === "system" || message.role === "developer")
    .map((message) => textOf(message.content))
    .join("\n");
}

function lastUserOf(body: unknown): string {
  const messages: unknown[] = Array.isArray(record(body).messages)
    ? (record(body).messages as unknown[])
    : [];
  const last = messages.map(record).findLast((message) => message.role === "user");
  return last === undefined ? "" : textOf(last.content);
}

/** A string, or the `text` of an array of content blocks (both formats allow either). */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((block) => textOf(record(block).text)).join("");
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
