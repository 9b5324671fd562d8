/**
 * An LLM client for Anthropic's Messages API (`POST /v1/messages`), or a gateway speaking it.
 *
 * @module
 */

import { LucidError } from "../../errors.js";
import {
  cutAtMaxTokens,
  isRecord,
  malformedAnswer,
  parseAnswerBody,
  requireNonEmpty,
  tokenCount,
} from "../answer-json.js";
import {
  type HeaderValue,
  postJson,
  type RetryOptions,
  readHeaderValue,
  readHeaderValues,
  resolveRetryPolicy,
  withoutSecrets,
} from "../http-call.js";
import { jsonInstruction, readJsonAnswer } from "../json-output.js";
import type { CompleteRequest, CompleteResult, Llm, LlmUsage } from "../llm.js";

/** The Messages API version this client speaks; Anthropic requires the header on every request. */
const ANTHROPIC_VERSION = "2023-06-01";

export interface AnthropicLlmOptions extends RetryOptions {
  /** API root including the version segment. Default `"https://api.anthropic.com/v1"`. */
  baseURL?: string;
  /** Model name sent with each request, e.g. `"claude-3-5-haiku-latest"`. */
  model: string;
  /** Sent as `x-api-key`. A function is read at each request (a key only needed once a call is made). */
  apiKey: HeaderValue;
  /** Extra request headers (e.g. `anthropic-beta`); functions as for `apiKey`. */
  headers?: Record<string, HeaderValue>;
}

/**
 * Creates a client that calls `${baseURL}/messages`.
 *
 * @example
 * const llm = createAnthropicLlm({ model: "claude-3-5-haiku-latest", apiKey: () => process.env.ANTHROPIC_API_KEY ?? "" });
 * const { text } = await llm.complete({
 *   system: "Answer in one word.",
 *   messages: [{ role: "user", content: "Capital of France?" }],
 *   maxTokens: 10,
 *   temperature: 0,
 * });
 */
export function createAnthropicLlm(options: AnthropicLlmOptions): Llm {
  const model = requireNonEmpty("model", options.model);
  const baseURL = requireNonEmpty("baseURL", options.baseURL ?? "https://api.anthropic.com/v1");
  const url = `${baseURL.replace(/\/+$/, "")}/messages`;
  if (typeof options.apiKey === "string") requireNonEmpty("apiKey", options.apiKey);
  const policy = resolveRetryPolicy(options);
  const id = `anthropic:${model}`;

  return {
    id,
    async complete<T>(request: CompleteRequest<T>): Promise<CompleteResult<T>> {
      const apiKey = readHeaderValue(options.apiKey);
      const extra = readHeaderValues(options.headers ?? {});
      const { body, attempts } = await postJson({
        url,
        policy,
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          "anthropic-version": ANTHROPIC_VERSION,
          ...extra,
          "x-api-key": apiKey,
        },
        body: JSON.stringify(requestBody(model, request)),
        secrets: [apiKey, ...Object.values(extra)],
      });
      // Redacted before it is parsed: whatever a reader quotes in an error is already clean.
      const clean = withoutSecrets(body, [apiKey, ...Object.values(extra)]);
      const { text, usage, served } = readMessage(clean, request, url);
      const json = request.json === undefined ? undefined : readJsonAnswer(text, request.json, id);
      return { text, json, usage, model: served ?? model, requests: attempts };
    },
  };
}

function requestBody(model: string, request: CompleteRequest<unknown>): object {
  // The Messages API has no JSON mode: the schema goes in the prompt and the answer is read leniently.
  const system = [request.system, request.json === undefined ? "" : jsonInstruction(request.json)]
    .filter((part) => part !== "")
    .join("\n\n");
  return {
    model,
    ...(system === "" ? {} : { system }),
    messages: request.messages.map(({ role, content }) => ({ role, content })),
    max_tokens: request.maxTokens,
    temperature: request.temperature,
  };
}

interface Message {
  text: string;
  usage: LlmUsage;
  /** The model the server names, if it does. */
  served: string | undefined;
}

/** Reads `{ content: [{ type: "text", text }], stop_reason, usage, model }`, trusting none of it. */
function readMessage(body: string, request: CompleteRequest<unknown>, url: string): Message {
  const malformed = (problem: string): LucidError => malformedAnswer(url, problem);
  const parsed = parseAnswerBody(body, url);
  if (!isRecord(parsed)) throw malformed("not a JSON object");
  // Errors normally come with a 4xx/5xx status, which postJson handles; a 2xx carrying one is a
  // gateway's doing, and still a failure of the server, not of the model's answer.
  if (parsed.type === "error") {
    const error = isRecord(parsed.error) ? parsed.error : {};
    const reason = typeof error.message === "string" ? error.message.slice(0, 300) : "no message";
    throw new LucidError("LLM_UNAVAILABLE", `The LLM server at ${url} answered an error: ${reason}.`, {
      details: { url },
    });
  }
  if (!Array.isArray(parsed.content)) throw malformed('no "content" array');
  // Only "text" blocks are the answer ("thinking" and others are not).
  const text = parsed.content
    .map((block) =>
      isRecord(block) && block.type === "text" && typeof block.text === "string" ? block.text : "",
    )
    .join("");
  if (request.json !== undefined && parsed.stop_reason === "max_tokens") {
    throw cutAtMaxTokens(url, request.maxTokens);
  }
  const usage = isRecord(parsed.usage) ? parsed.usage : {};
  return {
    text,
    usage: { inputTokens: tokenCount(usage.input_tokens), outputTokens: tokenCount(usage.output_tokens) },
    served: typeof parsed.model === "string" && parsed.model !== "" ? parsed.model : undefined,
  };
}
