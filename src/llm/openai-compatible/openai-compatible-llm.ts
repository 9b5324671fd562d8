/**
 * An LLM client for any server speaking OpenAI's `POST /chat/completions`: OpenAI itself, Ollama,
 * vLLM, LM Studio, llama.cpp, LiteLLM…
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
  type HttpCallResult,
  postJson,
  type RetryOptions,
  readHeaderValue,
  readHeaderValues,
  resolveRetryPolicy,
  withoutSecrets,
} from "../http-call.js";
import { jsonInstruction, readJsonAnswer } from "../json-output.js";
import type { CompleteRequest, CompleteResult, JsonOutput, Llm } from "../llm.js";

/**
 * How to ask for JSON, strongest first: `json_schema` sends the schema (structured outputs),
 * `json_object` asks for any JSON and puts the schema in the prompt, `none` relies on the prompt alone.
 */
export const JSON_MODES = ["json_schema", "json_object", "none"] as const;
export type JsonMode = (typeof JSON_MODES)[number];

export interface OpenAICompatibleLlmOptions extends RetryOptions {
  /** API root including the version segment, e.g. `"https://api.openai.com/v1"` or `"http://127.0.0.1:11434/v1"`. */
  baseURL: string;
  /** Model name sent with each request, e.g. `"gpt-4o-mini"` or `"llama3.2"`. */
  model: string;
  /** Sent as `Authorization: Bearer <apiKey>`. Omit for local servers that need none; a function is read at each request. */
  apiKey?: HeaderValue;
  /** Extra request headers (e.g. `api-key` for Azure); functions as for `apiKey`. */
  headers?: Record<string, HeaderValue>;
  /**
   * How to ask for JSON. Default `"json_schema"`; a server that answers 400 about `response_format`
   * is asked again with the next weaker mode, which this client then keeps using.
   */
  jsonMode?: JsonMode;
}

/**
 * Creates a client that calls `${baseURL}/chat/completions`.
 *
 * @example
 * const llm = createOpenAICompatibleLlm({ baseURL: "http://127.0.0.1:11434/v1", model: "llama3.2" });
 * const { text } = await llm.complete({
 *   system: "Answer in one word.",
 *   messages: [{ role: "user", content: "Capital of France?" }],
 *   maxTokens: 10,
 *   temperature: 0,
 * });
 */
export function createOpenAICompatibleLlm(options: OpenAICompatibleLlmOptions): Llm {
  const model = requireNonEmpty("model", options.model);
  const url = `${requireNonEmpty("baseURL", options.baseURL).replace(/\/+$/, "")}/chat/completions`;
  const policy = resolveRetryPolicy(options);
  const id = `openai-compatible:${model}`;
  // Adapted, never undone, when the server turns part of a request down: later calls skip the
  // failed attempt.
  let shape: RequestShape = {
    jsonMode: requireJsonMode(options.jsonMode ?? "json_schema"),
    tokens: "max_tokens",
    temperature: true,
  };

  function send(request: CompleteRequest<unknown>, tried: RequestShape): Promise<HttpCallResult> {
    const apiKey = options.apiKey === undefined ? undefined : readHeaderValue(options.apiKey);
    const extra = readHeaderValues(options.headers ?? {});
    return postJson({
      url,
      policy,
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        ...extra,
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      body: JSON.stringify(requestBody(model, request, tried)),
      secrets: [apiKey ?? "", ...Object.values(extra)],
      accept: (status, body) => adapted(tried, request, status, body) !== undefined,
    });
  }

  return {
    id,
    async complete<T>(request: CompleteRequest<T>): Promise<CompleteResult<T>> {
      let tried = shape;
      let answer = await send(request, tried);
      let requests = answer.attempts;
      // Only a refusal this client can adapt to comes back as a non-2xx; each adaptation gives up
      // one part of the request, so the loop ends.
      for (
        let next = adapted(tried, request, answer.status, answer.body);
        next !== undefined;
        next = adapted(tried, request, answer.status, answer.body)
      ) {
        tried = next;
        shape = next;
        answer = await send(request, tried);
        requests += answer.attempts;
      }
      const secrets = [
        ...(options.apiKey === undefined ? [] : [readHeaderValue(options.apiKey)]),
        ...Object.values(readHeaderValues(options.headers ?? {})),
      ];
      // Redacted before it is parsed: whatever a reader quotes in an error is already clean.
      const { text, usage, served } = readCompletion(withoutSecrets(answer.body, secrets), request, url);
      const json = request.json === undefined ? undefined : readJsonAnswer(text, request.json, id);
      return { text, json, usage, model: served ?? model, requests };
    },
  };
}

/** The parts of a request some servers refuse, and how this client currently sends them. */
interface RequestShape {
  readonly jsonMode: JsonMode;
  /** OpenAI's reasoning models (o-series, gpt-5) refuse `max_tokens` for `max_completion_tokens`. */
  readonly tokens: "max_tokens" | "max_completion_tokens";
  /** The same models accept only their default temperature. */
  readonly temperature: boolean;
}

/** The shape to try after a 400/422 that names a part of the request, or undefined for any other answer. */
function adapted(
  shape: RequestShape,
  request: CompleteRequest<unknown>,
  status: number,
  body: string,
): RequestShape | undefined {
  if (status !== 400 && status !== 422) return undefined;
  if (
    shape.tokens === "max_tokens" &&
    /max_tokens/.test(body) &&
    /max_completion_tokens|unsupported/i.test(body)
  )
    return { ...shape, tokens: "max_completion_tokens" };
  if (
    shape.temperature &&
    /temperature/i.test(body) &&
    /unsupported|not support|only the default/i.test(body)
  )
    return { ...shape, temperature: false };
  const weaker = JSON_MODES[JSON_MODES.indexOf(shape.jsonMode) + 1];
  if (request.json !== undefined && weaker !== undefined && refusesJsonMode(body))
    return { ...shape, jsonMode: weaker };
  return undefined;
}

function requestBody(model: string, request: CompleteRequest<unknown>, shape: RequestShape): object {
  const { json } = request;
  const mode = shape.jsonMode;
  const system =
    json === undefined || mode === "json_schema"
      ? request.system
      : [request.system, jsonInstruction(json)].filter((part) => part !== "").join("\n\n");
  return {
    model,
    messages: [
      ...(system === "" ? [] : [{ role: "system", content: system }]),
      ...request.messages.map(({ role, content }) => ({ role, content })),
    ],
    [shape.tokens]: request.maxTokens,
    ...(shape.temperature ? { temperature: request.temperature } : {}),
    ...(json === undefined || mode === "none" ? {} : { response_format: responseFormat(json, mode) }),
  };
}

function responseFormat(json: JsonOutput<unknown>, mode: "json_schema" | "json_object"): object {
  if (mode === "json_object") return { type: "json_object" };
  // strict: false because strict mode demands schemas Lucid's need not be written for
  // (every property required, additionalProperties: false); `parse` checks the answer anyway.
  return { type: "json_schema", json_schema: { name: json.name, schema: json.schema, strict: false } };
}

/** How servers without structured outputs answer them (vLLM, older Ollama and llama.cpp, some gateways). */
function refusesJsonMode(body: string): boolean {
  return /response_format|json_schema|json_object/i.test(body);
}

interface Completion {
  text: string;
  usage: { inputTokens: number; outputTokens: number };
  /** The model the server names, if it does. */
  served: string | undefined;
}

/** Reads `{ choices: [{ message: { content }, finish_reason }], usage, model }`, trusting none of it. */
function readCompletion(body: string, request: CompleteRequest<unknown>, url: string): Completion {
  const malformed = (problem: string): LucidError => malformedAnswer(url, problem);
  const parsed = parseAnswerBody(body, url);
  const choice = isRecord(parsed) && Array.isArray(parsed.choices) ? parsed.choices[0] : undefined;
  if (!isRecord(parsed) || !isRecord(choice)) throw malformed('no "choices[0]"');
  const message = choice.message;
  if (!isRecord(message)) throw malformed('no "choices[0].message"');
  const text = contentText(message.content);
  if (text === undefined) {
    // Set when a model declines (OpenAI's structured outputs); the best explanation there is.
    const refusal = typeof message.refusal === "string" ? `; the model refused: ${message.refusal}` : "";
    throw malformed(
      `"choices[0].message.content" is ${JSON.stringify(message.content) ?? "missing"}${refusal}`,
    );
  }
  if (request.json !== undefined && choice.finish_reason === "length") {
    throw cutAtMaxTokens(url, request.maxTokens);
  }
  const usage = isRecord(parsed.usage) ? parsed.usage : {};
  return {
    text,
    usage: {
      inputTokens: tokenCount(usage.prompt_tokens),
      outputTokens: tokenCount(usage.completion_tokens),
    },
    served: typeof parsed.model === "string" && parsed.model !== "" ? parsed.model : undefined,
  };
}

/** A string, or (some servers) an array of `{ type: "text", text }` parts. */
function contentText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content.filter(
    (part): part is { text: string } =>
      isRecord(part) && part.type === "text" && typeof part.text === "string",
  );
  return parts.length === 0 ? undefined : parts.map((part) => part.text).join("");
}

function requireJsonMode(mode: unknown): JsonMode {
  if (JSON_MODES.includes(mode as JsonMode)) return mode as JsonMode;
  throw new LucidError(
    "INVALID_ARGUMENT",
    `jsonMode must be one of ${JSON_MODES.join(", ")}, got ${JSON.stringify(mode)}.`,
    { details: { jsonMode: mode } },
  );
}
