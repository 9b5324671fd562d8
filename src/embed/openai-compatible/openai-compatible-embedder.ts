/**
 * An embedder for any server speaking OpenAI's `POST /embeddings`: OpenAI itself, Ollama, LM Studio,
 * vLLM, llama.cpp, LiteLLM, Azure-style gateways…
 *
 * @module
 */

import { LucidError } from "../../errors.js";
import { embedInBatches } from "../embed-in-batches.js";
import type { Embedder } from "../embedder.js";
import { requirePositiveInteger } from "../positive-integer.js";
import { parseEmbeddingsResponse } from "./parse-embeddings-response.js";

export interface OpenAICompatibleEmbedderOptions {
  /** API root including the version segment, e.g. `"https://api.openai.com/v1"` or `"http://127.0.0.1:11434/v1"`. */
  baseURL: string;
  /** Model name sent with each request, e.g. `"text-embedding-3-small"` or `"nomic-embed-text"`. */
  model: string;
  /**
   * Sent as `Authorization: Bearer <apiKey>`. Omit for local servers that need none. A function is
   * read at each request (a key from a config reference that is only needed when embedding).
   */
  apiKey?: string | (() => string);
  /** Asks the server to shorten vectors to this length (OpenAI `text-embedding-3-*` support it). */
  dimensions?: number;
  /** Length of the vectors the server returns. Defaults to `dimensions`; one of the two is required. */
  dimension?: number;
  /** Texts per request. Default 128, well under OpenAI's limit of 2048 inputs per request. */
  batchSize?: number;
  /** Per-request timeout in milliseconds, including reading the body. Default 60 000. */
  timeoutMs?: number;
  /** Extra request headers (e.g. `api-key` for Azure, or an organisation header); functions as for `apiKey`. */
  headers?: Record<string, string | (() => string)>;
}

/** Longest part of an error body quoted in a message: enough for the server's reason, not a page of HTML. */
const BODY_EXCERPT_LENGTH = 300;

/**
 * Creates an embedder that calls `${baseURL}/embeddings`. Pass `dimension` (or `dimensions`): the
 * store must know the vector length before the first call.
 *
 * @example
 * const embedder = createOpenAICompatibleEmbedder({
 *   baseURL: "http://127.0.0.1:11434/v1",
 *   model: "nomic-embed-text",
 *   dimension: 768,
 * });
 * const [vector] = await embedder.embed(["The user has a dog named Poppy"], "add");
 */
export function createOpenAICompatibleEmbedder(options: OpenAICompatibleEmbedderOptions): Embedder {
  const { dimensions, headers = {} } = options;
  const model = requireNonEmpty("model", options.model);
  const url = `${requireNonEmpty("baseURL", options.baseURL).replace(/\/+$/, "")}/embeddings`;
  const dimension = resolveDimension(options);
  const batchSize = requirePositiveInteger("batchSize", options.batchSize ?? 128);
  const timeoutMs = requirePositiveInteger("timeoutMs", options.timeoutMs ?? 60_000);
  const readValue = (value: string | (() => string)) => (typeof value === "function" ? value() : value);
  const requestHeaders = (apiKey: string | undefined): Record<string, string> => ({
    "content-type": "application/json",
    accept: "application/json",
    ...Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, readValue(value)])),
    ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
  });

  async function embedBatch(input: readonly string[]): Promise<Float32Array[]> {
    const request = JSON.stringify({ model, input, dimensions, encoding_format: "float" });
    const apiKey = options.apiKey === undefined ? undefined : readValue(options.apiKey);
    const sent = requestHeaders(apiKey);
    const signal = AbortSignal.timeout(timeoutMs);
    let status = 0;
    let body = "";
    for (let attempt = 1; ; attempt++) {
      try {
        const response = await fetch(url, { method: "POST", headers: sent, body: request, signal });
        status = response.status;
        body = await response.text();
        break;
      } catch (error) {
        // A kept-alive connection the server closed while idle (Node's and uvicorn's default: 5 s)
        // fails the request that reuses it. Embedding is idempotent: send it again, on a new connection.
        if (attempt >= RESET_ATTEMPTS || !connectionWasReset(error))
          throw networkError(url, timeoutMs, error);
      }
    }
    if (status < 200 || status > 299) throw httpError({ url, status, body, secret: apiKey });
    return parseEmbeddingsResponse(body, { count: input.length, dimension, url });
  }

  return {
    id: `openai-compatible:${model}`,
    dimension,
    async embed(texts) {
      return embedInBatches(texts, batchSize, embedBatch);
    },
  };
}

function resolveDimension(options: OpenAICompatibleEmbedderOptions): number {
  const { dimension, dimensions } = options;
  if (dimension === undefined && dimensions === undefined) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `createOpenAICompatibleEmbedder needs the vector length of "${options.model}" before the first ` +
        "call: pass `dimension` (e.g. 1536 for text-embedding-3-small, 768 for nomic-embed-text).",
    );
  }
  if (dimensions !== undefined) requirePositiveInteger("dimensions", dimensions);
  if (dimension !== undefined && dimensions !== undefined && dimension !== dimensions) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `dimension (${dimension}) and dimensions (${dimensions}) disagree; pass only \`dimensions\` ` +
        "to have the server shorten vectors to that length.",
      { details: { dimension, dimensions } },
    );
  }
  return requirePositiveInteger("dimension", dimension ?? dimensions);
}

function requireNonEmpty(name: string, value: unknown): string {
  if (typeof value === "string" && value.trim().length > 0) return value.trim();
  throw new LucidError(
    "INVALID_ARGUMENT",
    `${name} must be a non-empty string, got ${JSON.stringify(value)}.`,
  );
}

/** Tries of one request whose connection was reset before its answer. */
const RESET_ATTEMPTS = 3;

const RESET_CODES = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]);

/** The server closed the connection under the request (not a timeout, not a server that is down). */
function connectionWasReset(error: unknown): boolean {
  if (error instanceof Error && error.name === "TimeoutError") return false;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code === "string" && RESET_CODES.has(code)) return true;
  return cause instanceof Error && /other side closed|socket hang up/i.test(cause.message);
}

function networkError(url: string, timeoutMs: number, error: unknown): LucidError {
  const timedOut = error instanceof Error && error.name === "TimeoutError";
  // undici reports "fetch failed" and keeps the useful part (ECONNREFUSED, ENOTFOUND…) in `cause`.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const reason = cause instanceof Error ? cause.message : String(cause);
  const message = timedOut
    ? `The embedding request to ${url} timed out after ${timeoutMs} ms. Check that the server is ` +
      "responsive, or raise `timeoutMs` / lower `batchSize`."
    : `Could not reach the embedding server at ${url} (${reason}). Check that it is running and ` +
      "that `baseURL` is right.";
  return new LucidError("EMBEDDER_FAILED", message, { cause: error, details: { url, timedOut } });
}

interface HttpFailure {
  url: string;
  status: number;
  body: string;
  /** Removed from the quoted body. */
  secret: string | undefined;
}

function httpError(failure: HttpFailure): LucidError {
  const { url, status, secret } = failure;
  let excerpt = failure.body.replace(/\s+/g, " ").trim();
  // Some servers echo the key they rejected; never let it reach a log.
  if (secret) excerpt = excerpt.split(secret).join("[redacted]");
  if (excerpt.length > BODY_EXCERPT_LENGTH) excerpt = `${excerpt.slice(0, BODY_EXCERPT_LENGTH)}…`;
  return new LucidError(
    "EMBEDDER_FAILED",
    `The embedding server at ${url} answered HTTP ${status}${excerpt ? `: ${excerpt}` : ""}. ${hintFor(status)}`,
    { details: { url, status } },
  );
}

function hintFor(status: number): string {
  if (status === 401 || status === 403) return "Check `apiKey` (and any auth `headers`).";
  if (status === 404) return "Check `baseURL` (usually ending in /v1) and that `model` exists.";
  if (status === 429) return "The server is rate-limiting; retry later or lower `batchSize`.";
  if (status >= 500) return "The server failed; check its logs, and that `model` is an embedding model.";
  return "Check `model`, `dimensions` and the server's documentation.";
}
