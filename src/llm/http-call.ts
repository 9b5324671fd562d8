/**
 * The one HTTP exchange both LLM clients make: POST a JSON body with a timeout per attempt, retry
 * the failures that pass (rate limits, overloads, resets, timeouts) with backoff, and turn the rest
 * into errors that say what to check, without ever quoting a secret.
 *
 * @module
 */

import { setTimeout as delay } from "node:timers/promises";
import { LucidError } from "../errors.js";

/** Waits `ms` milliseconds. Tests inject one that records the waits instead of sleeping. */
export type Sleep = (ms: number) => Promise<void>;

/** A header value, or a function read at each request (a key only needed once a call is made). */
export type HeaderValue = string | (() => string);

/** How hard a client tries: options every LLM client accepts. */
export interface RetryOptions {
  /** Per-attempt timeout in milliseconds, including reading the body. Default 60 000. */
  timeoutMs?: number;
  /** Attempts after the first, for failures that may pass (429, 5xx, resets, timeouts). Default 2. */
  maxRetries?: number;
  /** Longest `Retry-After` worth waiting for; a server asking for more fails the call at once. Default 30 000. */
  maxRetryAfterMs?: number;
  /** Default: a real timer. */
  sleep?: Sleep;
}

/** {@link RetryOptions} checked, with the defaults filled in. */
export interface RetryPolicy {
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly maxRetryAfterMs: number;
  readonly sleep: Sleep;
}

export interface HttpCall {
  url: string;
  headers: Record<string, string>;
  /** The request, already serialised as JSON. */
  body: string;
  policy: RetryPolicy;
  /** Values never quoted in an error message: the API key, auth header values. */
  secrets: readonly string[];
  /** Non-2xx answers the caller handles itself instead of failing (the OpenAI client's JSON-mode downgrade). */
  accept?: (status: number, body: string) => boolean;
}

export interface HttpCallResult {
  status: number;
  body: string;
  /** Attempts made, the successful one included. */
  attempts: number;
}

/** Statuses that usually pass: rate limits, gateway hiccups, and 529, Anthropic's "overloaded". */
const RETRY_STATUSES = new Set([429, 500, 502, 503, 504, 529]);
/** The statuses whose `Retry-After` RFC 9110 defines. */
const RETRY_AFTER_STATUSES = new Set([429, 503]);
/** Exponential backoff: 500 ms, 1 s, 2 s… capped at 20 s. */
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 20_000;
/** Longest part of an error body quoted in a message: enough for the server's reason, not a page of HTML. */
const BODY_EXCERPT_LENGTH = 300;

/**
 * Checks retry options and fills in the defaults, once, when a client is created.
 *
 * @example
 * const policy = resolveRetryPolicy({ timeoutMs: 10_000 }); // maxRetries 2, maxRetryAfterMs 30 000
 */
export function resolveRetryPolicy(options: RetryOptions): RetryPolicy {
  return {
    timeoutMs: requireInteger("timeoutMs", options.timeoutMs ?? 60_000, 1),
    maxRetries: requireInteger("maxRetries", options.maxRetries ?? 2, 0),
    maxRetryAfterMs: requireInteger("maxRetryAfterMs", options.maxRetryAfterMs ?? 30_000, 0),
    sleep: options.sleep ?? ((ms) => delay(ms)),
  };
}

/**
 * Reads each header value, calling the functions.
 *
 * @example
 * readHeaderValues({ "x-org": "lucid", "api-key": () => process.env.KEY ?? "" });
 */
export function readHeaderValues(headers: Readonly<Record<string, HeaderValue>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, readHeaderValue(value)]));
}

/**
 * One header value: the string, or what the function returns now.
 *
 * @example
 * const apiKey = readHeaderValue(() => process.env.OPENAI_API_KEY ?? "");
 */
export function readHeaderValue(value: HeaderValue): string {
  return typeof value === "function" ? value() : value;
}

/**
 * POSTs `call.body` to `call.url` and returns the 2xx answer (or one `accept` takes). Fails with
 * `LLM_TIMEOUT`, `LLM_UNAVAILABLE` (unreachable, or still failing after `maxRetries`) or
 * `LLM_REJECTED` (a 4xx, never retried: sending it again would not help).
 *
 * @example
 * const { body } = await postJson({
 *   url: "http://127.0.0.1:11434/v1/chat/completions",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ model: "llama3.2", messages: [{ role: "user", content: "Hi" }] }),
 *   policy: resolveRetryPolicy({}),
 *   secrets: [],
 * });
 */
export async function postJson(call: HttpCall): Promise<HttpCallResult> {
  const { url, policy } = call;
  for (let attempt = 1; ; attempt++) {
    const last = attempt > policy.maxRetries;
    let answer: { status: number; body: string; retryAfter: string | null };
    try {
      answer = await send(call);
    } catch (error) {
      if (last || !isTransient(error)) throw networkError({ url, policy, error, attempts: attempt });
      await policy.sleep(backoffMs(attempt));
      continue;
    }
    const { status, body } = answer;
    if ((status >= 200 && status <= 299) || call.accept?.(status, body)) {
      return { status, body, attempts: attempt };
    }
    const failure = { url, status, excerpt: excerptOf(body, call.secrets), attempts: attempt };
    if (!RETRY_STATUSES.has(status)) throw httpError(failure);
    const askedMs = RETRY_AFTER_STATUSES.has(status) ? retryAfterMs(answer.retryAfter) : undefined;
    if (askedMs !== undefined && askedMs > policy.maxRetryAfterMs) throw waitTooLong(failure, askedMs);
    if (last) throw httpError(failure);
    await policy.sleep(askedMs ?? backoffMs(attempt));
  }
}

async function send(call: HttpCall): Promise<{ status: number; body: string; retryAfter: string | null }> {
  // A fresh signal per attempt, and it covers reading the body: a server that sends headers and
  // then stalls times out too.
  const signal = AbortSignal.timeout(call.policy.timeoutMs);
  const response = await fetch(call.url, { method: "POST", headers: call.headers, body: call.body, signal });
  const body = await response.text();
  return { status: response.status, body, retryAfter: response.headers.get("retry-after") };
}

/** The wait before retry number `retry` (1-based). */
function backoffMs(retry: number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (retry - 1));
  // Up to 25 % less, so clients that failed together do not all come back at the same instant.
  return Math.round(ceiling * (1 - Math.random() * 0.25));
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined if absent or unreadable. */
function retryAfterMs(value: string | null): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

const RESET_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ECONNABORTED",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);

/**
 * A timeout, a connection the server closed under the request (often a kept-alive socket it closed
 * while idle), or a refusal (a local server still starting). Not a DNS failure: that will not pass.
 */
function isTransient(error: unknown): boolean {
  if (timedOut(error)) return true;
  const cause = causeOf(error);
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code === "string" && RESET_CODES.has(code)) return true;
  return cause instanceof Error && /other side closed|socket hang up/i.test(cause.message);
}

function timedOut(error: unknown): boolean {
  return error instanceof Error && error.name === "TimeoutError";
}

/** undici reports "fetch failed" and keeps the useful part (ECONNREFUSED, ENOTFOUND…) in `cause`. */
function causeOf(error: unknown): unknown {
  return error instanceof Error && error.cause instanceof Error ? error.cause : error;
}

interface NetworkFailure {
  url: string;
  policy: RetryPolicy;
  error: unknown;
  attempts: number;
}

function networkError({ url, policy, error, attempts }: NetworkFailure): LucidError {
  const tries = attempts === 1 ? "" : ` (${attempts} attempts)`;
  if (timedOut(error)) {
    return new LucidError(
      "LLM_TIMEOUT",
      `The request to the LLM server at ${url} timed out after ${policy.timeoutMs} ms${tries}. Check that ` +
        "the server is responsive, or raise `timeoutMs` (a large model on a CPU can take minutes).",
      { cause: error, details: { url, timeoutMs: policy.timeoutMs, attempts } },
    );
  }
  const cause = causeOf(error);
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new LucidError(
    "LLM_UNAVAILABLE",
    `Could not reach the LLM server at ${url} (${reason})${tries}. Check that it is running and that ` +
      "`baseURL` is right.",
    { cause: error, details: { url, attempts } },
  );
}

interface HttpFailure {
  url: string;
  status: number;
  /** The body, shortened and with every secret removed. */
  excerpt: string;
  attempts: number;
}

function httpError({ url, status, excerpt, attempts }: HttpFailure): LucidError {
  const said = excerpt ? `: ${excerpt}` : "";
  if (status >= 400 && status <= 499 && status !== 429) {
    return new LucidError(
      "LLM_REJECTED",
      `The LLM server at ${url} rejected the request with HTTP ${status}${said}. ${hintFor(status)}`,
      { details: { url, status, attempts } },
    );
  }
  const tries = attempts === 1 ? "" : ` (${attempts} attempts)`;
  return new LucidError(
    "LLM_UNAVAILABLE",
    `The LLM server at ${url} answered HTTP ${status}${tries}${said}. ${hintFor(status)}`,
    { details: { url, status, attempts } },
  );
}

function waitTooLong(failure: HttpFailure, askedMs: number): LucidError {
  const { url, status, excerpt, attempts } = failure;
  const seconds = Math.ceil(askedMs / 1000);
  return new LucidError(
    "LLM_UNAVAILABLE",
    `The LLM server at ${url} answered HTTP ${status} and asked to wait ${seconds} s before retrying, ` +
      `longer than \`maxRetryAfterMs\` allows${excerpt ? `: ${excerpt}` : ""}. Try again later.`,
    { details: { url, status, retryAfterMs: askedMs, attempts } },
  );
}

function hintFor(status: number): string {
  if (status === 401 || status === 403) return "Check `apiKey` (and any auth `headers`).";
  if (status === 404) return "Check `baseURL` (usually ending in /v1) and that `model` exists on the server.";
  if (status === 429) return "The server is rate-limiting; retry later, or raise `maxRetries`.";
  if (status === 529) return "The server is overloaded; retry later.";
  if (status >= 500) return "The server failed; check its status or logs, and retry later.";
  return "Check `model`, the request's size against the model's context, and the server's documentation.";
}

/**
 * `text` with every secret replaced by `[redacted]`, before anything quotes or cuts it: a server
 * that echoes the key into a 200 answer must not put it, or any part of it, in an error message.
 *
 * @example
 * withoutSecrets(`garbage ${apiKey}`, [apiKey]); // => "garbage [redacted]"
 */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  let clean = text;
  for (const secret of secrets) if (secret !== "") clean = clean.split(secret).join("[redacted]");
  return clean;
}

/** The body on one line, secrets removed before shortening (so no half of one survives the cut). */
function excerptOf(body: string, secrets: readonly string[]): string {
  // Some servers echo the key they rejected; never let it reach a log.
  const excerpt = withoutSecrets(body, secrets).replace(/\s+/g, " ").trim();
  return excerpt.length > BODY_EXCERPT_LENGTH ? `${excerpt.slice(0, BODY_EXCERPT_LENGTH)}…` : excerpt;
}

function requireInteger(name: string, value: unknown, min: number): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= min) return value;
  throw new LucidError(
    "INVALID_ARGUMENT",
    `${name} must be an integer of at least ${min}, got ${String(value)}.`,
    { details: { [name]: value } },
  );
}
