/**
 * What both LLM clients read from a server's answer, trusting none of it: the body as JSON, objects,
 * token counts; and the checks of their own options.
 *
 * @module
 */

import { LucidError } from "../errors.js";

/**
 * The error for an answer body that is not what the API returns.
 *
 * @example
 * throw malformedAnswer(url, 'no "choices[0]"');
 */
export function malformedAnswer(url: string, problem: string): LucidError {
  return new LucidError("LLM_BAD_OUTPUT", `Malformed response from ${url}: ${problem}.`, {
    details: { url },
  });
}

/**
 * The error for a JSON answer the server stopped at `maxTokens`: what came is not the whole object.
 *
 * @example
 * if (choice.finish_reason === "length") throw cutAtMaxTokens(url, request.maxTokens);
 */
export function cutAtMaxTokens(url: string, maxTokens: number): LucidError {
  return new LucidError(
    "LLM_BAD_OUTPUT",
    `The answer from ${url} was cut at maxTokens (${maxTokens}) before its JSON was complete. Raise maxTokens.`,
    { details: { url, maxTokens } },
  );
}

/**
 * The body parsed, or `LLM_BAD_OUTPUT` quoting its start (the body is already free of secrets).
 *
 * @example
 * const parsed = parseAnswerBody('{"choices":[]}', url); // => { choices: [] }
 */
export function parseAnswerBody(body: string, url: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw malformedAnswer(url, `not JSON (starts with ${JSON.stringify(body.slice(0, 80))})`);
  }
}

/** @example isRecord({ a: 1 }); // => true */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A token count the server reported, 0 when it did not (or said something that is not one). @example tokenCount(12); // => 12 */
export function tokenCount(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** @example requireNonEmpty("model", " gpt-4o-mini "); // => "gpt-4o-mini" */
export function requireNonEmpty(name: string, value: unknown): string {
  if (typeof value === "string" && value.trim().length > 0) return value.trim();
  throw new LucidError(
    "INVALID_ARGUMENT",
    `${name} must be a non-empty string, got ${JSON.stringify(value)}.`,
  );
}
