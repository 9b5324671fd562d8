/**
 * A real HTTP server on loopback speaking OpenAI's `POST /v1/embeddings`, for testing embedders and
 * anything built on them without a network or a model. Vectors are deterministic per text.
 *
 * @module
 */

import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { join } from "node:path";
import { listenOnLoopback, useLoopbackServer } from "./loopback-server.js";

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/embeddings`. */
  url: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, or the raw text if it was not JSON. */
  body: unknown;
}

/**
 * A canned answer, `"never"` to hold the request open (for timeout tests), or `"reset"` to destroy
 * the connection without answering (what a client sees when it reuses a socket the server closed).
 */
export type FakeReply = { status?: number; body: string } | "never" | "reset";

export interface FakeEmbeddingServerOptions {
  /** Length of returned vectors, unless a request asks for `dimensions`. */
  dimension: number;
  /** Vector for one text; defaults to {@link fakeVector}. */
  vectorFor?: (text: string, dimension: number) => number[];
  /** Lists `data` in reverse order, as servers may; clients must sort by `index`. */
  reverseOrder?: boolean;
  /** Replaces the normal answer when it returns a reply (errors, malformed bodies, silence). */
  reply?: (request: RecordedRequest) => FakeReply | undefined;
}

export interface FakeEmbeddingServer {
  /** e.g. `http://127.0.0.1:54321/v1` */
  baseURL: string;
  /** Every request received, in arrival order. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * A deterministic vector for `text`: components are multiples of 1/1024 in [-1, 1), so they survive
 * the round trip through JSON and `Float32Array` exactly.
 */
export function fakeVector(text: string, dimension: number): number[] {
  let state = 2166136261;
  for (const char of text) state = Math.imul(state ^ (char.codePointAt(0) ?? 0), 16777619) >>> 0;
  return Array.from({ length: dimension }, () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return ((state >>> 22) - 512) / 1024;
  });
}

/**
 * Starts the server on 127.0.0.1 with an OS-chosen port.
 *
 * @example
 * const server = await startFakeEmbeddingServer({ dimension: 8 });
 * const embedder = createOpenAICompatibleEmbedder({ baseURL: server.baseURL, model: "fake", dimension: 8 });
 * await server.close();
 */
export async function startFakeEmbeddingServer(
  options: FakeEmbeddingServerOptions,
): Promise<FakeEmbeddingServer> {
  const vectorFor = options.vectorFor ?? fakeVector;
  const requests: RecordedRequest[] = [];

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const request: RecordedRequest = {
      method: req.method ?? "",
      url: req.url ?? "",
      headers: req.headers,
      body: parseJson(text),
    };
    requests.push(request);

    const reply = options.reply?.(request) ?? answer(request);
    if (reply === "never") return;
    if (reply === "reset") {
      req.socket.destroy();
      return;
    }
    res.writeHead(reply.status ?? 200, { "content-type": "application/json" });
    res.end(reply.body);
  });

  function answer(request: RecordedRequest): FakeReply {
    if (request.method !== "POST" || request.url !== "/v1/embeddings") {
      return { status: 404, body: JSON.stringify({ error: { message: `No route ${request.url}` } }) };
    }
    const body: { input?: unknown; dimensions?: unknown; model?: unknown } =
      typeof request.body === "object" && request.body !== null ? request.body : {};
    const inputs = typeof body.input === "string" ? [body.input] : body.input;
    if (!Array.isArray(inputs) || !inputs.every((input) => typeof input === "string")) {
      return { status: 400, body: JSON.stringify({ error: { message: "input must be a string array" } }) };
    }
    const length = typeof body.dimensions === "number" ? body.dimensions : options.dimension;
    const data = inputs.map((input, index) => ({
      object: "embedding",
      index,
      embedding: vectorFor(input, length),
    }));
    if (options.reverseOrder) data.reverse();
    return { body: JSON.stringify({ object: "list", data, model: body.model, usage: { prompt_tokens: 0 } }) };
  }

  const { port, close } = await listenOnLoopback(server);

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A Lucid home whose `lucid.config.json` points the embedder at `server`: for tests where vectors do not matter. */
export function writeFakeEmbedderHome(home: string, server: FakeEmbeddingServer, dimension = 8): string {
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, "lucid.config.json"),
    JSON.stringify({
      embedder: { provider: "openai-compatible", baseURL: server.baseURL, model: "fake", dimension },
    }),
  );
  return home;
}

/**
 * One loopback embedding server for the tests of a file: started before them, closed after. The
 * object it returns reads through to the running server, so it can be passed around (to
 * `writeFakeEmbedderHome`, say) before the server has started.
 *
 * @example
 * const server = useFakeEmbeddingServer();
 * it("…", async () => { const home = writeFakeEmbedderHome(newHome(), server); … });
 */
export function useFakeEmbeddingServer(
  options: FakeEmbeddingServerOptions = { dimension: 8 },
): FakeEmbeddingServer {
  return useLoopbackServer("fake embedding server", () => startFakeEmbeddingServer(options));
}
