/**
 * Reading JSON out of a model's answer. Models asked for JSON still wrap it in code fences or a
 * sentence, and a server without structured outputs cannot stop them; Lucid takes the first JSON
 * value it can find, then checks it with the request's own `parse`, never trusting the server.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import type { JsonOutput } from "./llm.js";

/** Enough of a bad answer to see what the model did instead, not the whole answer. */
const EXCERPT_LENGTH = 200;
/** Longest `parse` reason quoted: validators can describe every issue at length. */
const REASON_LENGTH = 300;

/**
 * The JSON value in a model's answer: the whole text, else the first fenced block that is JSON,
 * else the first balanced `{…}` or `[…]` in the prose that parses. Fails with `LLM_BAD_OUTPUT`.
 *
 * @example
 * extractJson('Sure! ```json\n{"facts": []}\n```'); // { facts: [] }
 * extractJson('The answer is {"same": true}.'); // { same: true }
 */
export function extractJson(text: string): unknown {
  const found = findJson(text);
  if (found === undefined) throw notJson(text, "The answer");
  return found.value;
}

/**
 * The answer's JSON, checked by `output.parse`: `LLM_BAD_OUTPUT` naming `source` (the client's id)
 * when there is no JSON or it does not match.
 *
 * @example
 * const verdict = readJsonAnswer('{"same": true}', sameOutput, "openai-compatible:gpt-4o-mini");
 */
export function readJsonAnswer<T>(text: string, output: JsonOutput<T>, source: string): T {
  const found = findJson(text);
  if (found === undefined) throw notJson(text, `The answer from ${source}`);
  try {
    return output.parse(found.value);
  } catch (error) {
    let reason = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").trim();
    if (reason.length > REASON_LENGTH) reason = `${reason.slice(0, REASON_LENGTH)}…`;
    throw new LucidError(
      "LLM_BAD_OUTPUT",
      `The answer from ${source} does not match ${output.name}: ${reason}`,
      { cause: error, details: { source, schema: output.name } },
    );
  }
}

/**
 * The sentence that asks for JSON in the prompt, for servers that cannot be given the schema
 * itself (Anthropic, or OpenAI's `json_object` mode, which also requires the word "JSON").
 *
 * @example
 * const system = `${prompt}\n\n${jsonInstruction(output)}`;
 */
export function jsonInstruction(output: JsonOutput<unknown>): string {
  return (
    "Answer with only JSON matching this JSON Schema, with no other text and no code fences:\n" +
    JSON.stringify(output.schema)
  );
}

function findJson(text: string): { value: unknown } | undefined {
  // trim() also drops a leading byte-order mark (U+FEFF is whitespace to ECMAScript), which some
  // servers leave on the answer and JSON.parse rejects.
  const trimmed = text.trim();
  return parse(trimmed) ?? fromFences(trimmed) ?? fromProse(trimmed);
}

function parse(candidate: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(candidate) };
  } catch {
    return undefined;
  }
}

function fromFences(text: string): { value: unknown } | undefined {
  for (const match of text.matchAll(/```[\w-]*[^\S\n]*\n?([\s\S]*?)```/g)) {
    const found = parse((match[1] ?? "").trim());
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Tries each `{` or `[` in turn: "[note] {…}" starts with a bracket that is not the JSON. */
function fromProse(text: string): { value: unknown } | undefined {
  for (let start = nextOpening(text, 0); start !== -1; start = nextOpening(text, start + 1)) {
    const end = balancedEnd(text, start);
    const found = end === undefined ? undefined : parse(text.slice(start, end + 1));
    if (found !== undefined) return found;
  }
  return undefined;
}

function nextOpening(text: string, from: number): number {
  const brace = text.indexOf("{", from);
  const bracket = text.indexOf("[", from);
  if (brace === -1 || bracket === -1) return Math.max(brace, bracket);
  return Math.min(brace, bracket);
}

/** Index of the bracket that closes the one at `start`, skipping brackets inside JSON strings. */
function balancedEnd(text: string, start: number): number | undefined {
  const closers: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{") closers.push("}");
    else if (char === "[") closers.push("]");
    else if (char === "}" || char === "]") {
      if (closers.pop() !== char) return undefined;
      if (closers.length === 0) return i;
    }
  }
  return undefined;
}

function notJson(text: string, subject: string): LucidError {
  const shown = text.replace(/\s+/g, " ").trim();
  if (shown === "") {
    return new LucidError("LLM_BAD_OUTPUT", `${subject} is empty, not the JSON asked for.`);
  }
  const excerpt = shown.length > EXCERPT_LENGTH ? `${shown.slice(0, EXCERPT_LENGTH)}…` : shown;
  return new LucidError(
    "LLM_BAD_OUTPUT",
    `${subject} is not the JSON asked for: ${JSON.stringify(excerpt)}. Retry, or use a model that ` +
      "follows instructions better (or a server that supports structured outputs).",
  );
}
