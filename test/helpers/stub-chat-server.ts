/**
 * A real HTTP server on loopback speaking OpenAI's chat completions, for driving real agent hosts
 * (OpenClaw, OpenCode) through scripted turns: `POST /v1/chat/completions`, streamed as SSE when
 * the request says `stream: true` (both hosts do) and as plain JSON otherwise, and `GET /v1/models`.
 *
 * Replies are scripted as a queue of `{ text }` or `{ toolCalls }`, with `answer(call)` as the
 * fallback. Every request is recorded, and each chat call also as flat text (all messages, tool
 * calls and results) and the names of the tools it offered, so a test can assert that recalled
 * memory reached the model or that a plugin's tool was on offer.
 *
 * @module
 */

import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import { listenOnLoopback, useLoopbackServer } from "./loopback-server.js";

/** One tool call the model makes; `arguments` is JSON-encoded unless it is already a string. */
export interface StubToolCall {
  name: string;
  arguments?: unknown;
  /** The call id; defaults to `call_<n>`. */
  id?: string;
}

/**
 * What the model answers: text, tool calls (optionally with text before them), or an HTTP error
 * (any status and body).
 */
export type StubReply =
  | { text: string; finish?: "stop" | "length" }
  | { toolCalls: StubToolCall[]; text?: string }
  | { status: number; body?: string };

/** Any request the server received, chat or not, in arrival order. */
export interface StubRequest {
  method: string;
  /** Path and query, e.g. `/v1/models`. */
  url: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
}

/** One `POST /v1/chat/completions`. */
export interface StubChatCall {
  url: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body. */
  // biome-ignore lint/suspicious/noExplicitAny: the request as sent, read freely by tests
  body: any;
  stream: boolean;
  model: string;
  // biome-ignore lint/suspicious/noExplicitAny: the messages as sent
  messages: any[];
  /** Every message flattened to text, one `role: content` block each, tool calls and results included. */
  text: string;
  /** System (and developer) messages joined. */
  system: string;
  /** Content of the last user message. */
  lastUser: string;
  /** Names of the tools the request offered, in order. */
  tools: string[];
  /** The contents of `role: "tool"` messages, in order: the results of earlier tool calls. */
  toolResults: string[];
  /** The reply the server sent (filled in once chosen). */
  reply?: StubReply;
}

export interface StubChatServerOptions {
  /**
   * Answers a call before the queue is consulted when it returns a reply: for side calls that
   * should not use up a scripted reply (OpenCode's title generation, unless `--title` is given).
   */
  intercept?: (call: StubChatCall) => StubReply | undefined;
  /** The reply once `queue` is empty (may be async). Default: the text `ok`. */
  answer?: (call: StubChatCall) => StubReply | Promise<StubReply>;
  /** Model ids `GET /v1/models` lists. Default `["m1"]`. */
  models?: string[];
  /** Splits streamed text into chunks of this many characters. Default 16. */
  chunkSize?: number;
}

export interface StubChatServer {
  /** e.g. `http://127.0.0.1:54321/v1` */
  baseURL: string;
  port: number;
  /** Every chat completion call, in arrival order. */
  calls: StubChatCall[];
  /** Every request of any kind, in arrival order (to check a host made no unexpected ones). */
  requests: StubRequest[];
  /** Next replies, consumed in order before `answer`. */
  queue: StubReply[];
  close(): Promise<void>;
}

/**
 * Starts the server on 127.0.0.1 with an OS-chosen port.
 *
 * @example
 * const llm = await startStubChatServer();
 * llm.queue.push({ toolCalls: [{ name: "lucid_search", arguments: { query: "tea" } }] }, { text: "done" });
 * // … point the host's provider at llm.baseURL, run a turn …
 * expect(llm.calls[1]?.toolResults.join("")).toContain("green tea");
 * await llm.close();
 */
export async function startStubChatServer(options: StubChatServerOptions = {}): Promise<StubChatServer> {
  const calls: StubChatCall[] = [];
  const requests: StubRequest[] = [];
  const queue: StubReply[] = [];
  const models = options.models ?? ["m1"];
  const chunkSize = Math.max(1, options.chunkSize ?? 16);
  let callIds = 0;

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString("utf8");
    const method = req.method ?? "";
    const url = req.url ?? "";
    requests.push({ method, url, headers: req.headers, rawBody });
    const path = url.split("?")[0]?.replace(/\/+$/, "") ?? "";

    if (method === "GET" && path.endsWith("/models")) {
      const created = Math.floor(Date.now() / 1000);
      sendJson(res, 200, {
        object: "list",
        data: models.map((id) => ({ id, object: "model", created, owned_by: "stub" })),
      });
      return;
    }
    if (method !== "POST" || !path.endsWith("/chat/completions")) {
      sendJson(res, 404, { error: { message: `No route ${method} ${url}`, type: "not_found" } });
      return;
    }

    const body = record(parseJson(rawBody));
    const messages: unknown[] = Array.isArray(body.messages) ? body.messages : [];
    const call: StubChatCall = {
      url,
      headers: req.headers,
      body,
      stream: body.stream === true,
      model: typeof body.model === "string" ? body.model : "m1",
      messages,
      text: messages.map((message) => flattenMessage(record(message))).join("\n\n"),
      system: messages
        .map(record)
        .filter((message) => message.role === "system" || message.role === "developer")
        .map((message) => textOf(message.content))
        .join("\n"),
      lastUser: textOf(messages.map(record).findLast((message) => message.role === "user")?.content ?? ""),
      tools: (Array.isArray(body.tools) ? body.tools : []).map((tool) => {
        const entry = record(tool);
        return String(record(entry.function).name ?? entry.name ?? "");
      }),
      toolResults: messages
        .map(record)
        .filter((message) => message.role === "tool")
        .map((message) => textOf(message.content)),
    };
    calls.push(call);

    let reply: StubReply;
    try {
      reply = options.intercept?.(call) ?? queue.shift() ?? (await options.answer?.(call)) ?? { text: "ok" };
    } catch (error) {
      reply = { status: 500, body: JSON.stringify({ error: { message: String(error) } }) };
    }
    call.reply = reply;

    if ("status" in reply) {
      res.writeHead(reply.status, { "content-type": "application/json" });
      res.end(
        reply.body ??
          JSON.stringify({ error: { message: `stub error ${reply.status}`, type: "stub_error" } }),
      );
      return;
    }
    const toolCalls = "toolCalls" in reply ? reply.toolCalls : [];
    const wire = toolCalls.map((toolCall) => ({
      id: toolCall.id ?? `call_${++callIds}`,
      type: "function" as const,
      function: {
        name: toolCall.name,
        arguments:
          typeof toolCall.arguments === "string"
            ? toolCall.arguments
            : JSON.stringify(toolCall.arguments ?? {}),
      },
    }));
    const text = reply.text ?? "";
    const finish = wire.length > 0 ? "tool_calls" : "finish" in reply && reply.finish ? reply.finish : "stop";
    const usage = usageOf(call.text, text + wire.map((entry) => entry.function.arguments).join(""));
    const id = `chatcmpl-stub-${calls.length}`;
    const created = Math.floor(Date.now() / 1000);

    if (!call.stream) {
      sendJson(res, 200, {
        id,
        object: "chat.completion",
        created,
        model: call.model,
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: text === "" && wire.length > 0 ? null : text,
              ...(wire.length > 0 ? { tool_calls: wire } : {}),
            },
            finish_reason: finish,
            logprobs: null,
          },
        ],
        usage,
      });
      return;
    }

    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    const chunk = (delta: object, finishReason: string | null = null): void => {
      res.write(
        `data: ${JSON.stringify({
          id,
          object: "chat.completion.chunk",
          created,
          model: call.model,
          choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
        })}\n\n`,
      );
    };
    chunk({ role: "assistant", content: "" });
    for (let at = 0; at < text.length; at += chunkSize) chunk({ content: text.slice(at, at + chunkSize) });
    wire.forEach((entry, index) => {
      // The name and id first with empty arguments, then the arguments in pieces, as OpenAI streams them.
      chunk({
        tool_calls: [
          { index, id: entry.id, type: "function", function: { name: entry.function.name, arguments: "" } },
        ],
      });
      const args = entry.function.arguments;
      for (let at = 0; at < args.length; at += chunkSize) {
        chunk({ tool_calls: [{ index, function: { arguments: args.slice(at, at + chunkSize) } }] });
      }
    });
    chunk({}, finish);
    if (record(body.stream_options).include_usage === true) {
      res.write(
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model: call.model, choices: [], usage })}\n\n`,
      );
    }
    res.end("data: [DONE]\n\n");
  });

  const { port, close } = await listenOnLoopback(server);

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    calls,
    requests,
    queue,
    close,
  };
}

/**
 * One stub chat server for the tests of a file: started before them, closed after. The object it
 * returns reads through to the running server, so it can be passed around before it starts.
 */
export function useStubChatServer(options: StubChatServerOptions = {}): StubChatServer {
  return useLoopbackServer("stub chat server", () => startStubChatServer(options));
}

/** A deterministic estimate: a token per 4 characters. */
function usageOf(prompt: string, completion: string): object {
  const promptTokens = Math.ceil(prompt.length / 4);
  const completionTokens = Math.max(1, Math.ceil(completion.length / 4));
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

function flattenMessage(message: Record<string, unknown>): string {
  const parts = [textOf(message.content)];
  if (Array.isArray(message.tool_calls)) {
    for (const toolCall of message.tool_calls) {
      const fn = record(record(toolCall).function);
      parts.push(`[tool_call ${String(fn.name)} ${String(fn.arguments ?? "")}]`);
    }
  }
  const label = message.role === "tool" ? `tool ${String(message.tool_call_id ?? "")}` : String(message.role);
  return `${label}: ${parts.filter((part) => part !== "").join("\n")}`;
}

/** A string, or the text of an array of content parts. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => {
      if (typeof part === "string") return part;
      const entry = record(part);
      return typeof entry.text === "string" ? entry.text : "";
    })
    .join("");
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function sendJson(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The text of each user message of a chat request (string or content-part form). */
export function userTexts(messages: readonly { role?: string; content?: unknown }[]): string[] {
  return messages
    .filter((message) => message.role === "user")
    .map((message) =>
      typeof message.content === "string"
        ? message.content
        : Array.isArray(message.content)
          ? message.content.map((part: { text?: string }) => part.text ?? "").join("")
          : "",
    );
}
