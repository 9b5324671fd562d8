import { describe, expect, it } from "vitest";
import { extractJson, jsonInstruction, readJsonAnswer } from "../../src/llm/json-output.js";
import type { JsonOutput } from "../../src/llm/llm.js";

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

/** Accepts `{ count: number }` and returns the count doubled, so a test can see `parse` ran. */
const doubled: JsonOutput<number> = {
  name: "count",
  schema: { type: "object", properties: { count: { type: "number" } }, required: ["count"] },
  parse(value) {
    const count = (value as { count?: unknown } | null)?.count;
    if (typeof count !== "number") throw new Error(`count must be a number, got ${JSON.stringify(count)}`);
    return count * 2;
  },
};

describe("extractJson", () => {
  it.each([
    ["pure JSON", '{"a": 1}', { a: 1 }],
    ["JSON with surrounding whitespace", "\n  [1, 2]\n", [1, 2]],
    ["JSON after a byte-order mark", '\uFEFF{"a": 1}', { a: 1 }],
    ["a ```json fence", 'Sure:\n```json\n{"a": 1}\n```\nDone.', { a: 1 }],
    ["a bare ``` fence", '```\n{"a": [true]}\n```', { a: [true] }],
    ["a fence on one line", '```json {"a": 1}```', { a: 1 }],
    ["an object in prose", 'The answer is {"a": {"b": 2}} as requested.', { a: { b: 2 } }],
    ["an array in prose", 'Facts: ["x", "y"]. That\'s all.', ["x", "y"]],
    ["braces inside strings", 'Result: {"text": "a } and a { and ]"} end', { text: "a } and a { and ]" }],
    ["escaped quotes inside strings", 'Here {"q": "she said \\"}\\" twice"} ok', { q: 'she said "}" twice' }],
    ["a bracket before the JSON that is not JSON", '[note] {"a": 1}', { a: 1 }],
    ["an unclosed brace before the JSON", 'Well { hmm. {"a": 1}', { a: 1 }],
  ])("accepts %s", (_case, text, expected) => {
    expect(extractJson(text)).toEqual(expected);
  });

  it("takes the first JSON value when there are several", () => {
    expect(extractJson('First {"n": 1}, then {"n": 2}.')).toEqual({ n: 1 });
  });

  it.each([
    ["prose only", "I could not decide."],
    ["an unbalanced object", '{"a": 1'],
    ["an object that is not JSON", "{a: 1}"],
    ["an empty answer", "   "],
  ])("turns %s into LLM_BAD_OUTPUT", (_case, text) => {
    expect(catchError(() => extractJson(text))).toMatchObject({ code: "LLM_BAD_OUTPUT" });
  });

  it("quotes only a short excerpt of a long bad answer", () => {
    const error = catchError(() => extractJson(`nope ${"x".repeat(5000)}`)) as Error;

    expect(error.message).toContain("nope");
    expect(error.message.length).toBeLessThan(500);
  });
});

describe("readJsonAnswer", () => {
  it("returns what the output's parse returns", () => {
    expect(readJsonAnswer('```json\n{"count": 21}\n```', doubled, "test:model")).toBe(42);
  });

  it("turns a parse failure into LLM_BAD_OUTPUT naming the source, the schema and the reason", () => {
    const error = catchError(() => readJsonAnswer('{"count": "many"}', doubled, "test:model"));

    expect(error).toMatchObject({
      code: "LLM_BAD_OUTPUT",
      details: { source: "test:model", schema: "count" },
    });
    expect((error as Error).message).toContain("count must be a number");
    expect((error as Error).message).toContain("test:model");
  });

  it("turns an answer without JSON into LLM_BAD_OUTPUT naming the source", () => {
    const error = catchError(() => readJsonAnswer("no idea", doubled, "test:model"));

    expect(error).toMatchObject({ code: "LLM_BAD_OUTPUT" });
    expect((error as Error).message).toContain("test:model");
  });
});

describe("jsonInstruction", () => {
  it("asks for JSON and carries the schema", () => {
    const instruction = jsonInstruction(doubled);

    expect(instruction).toContain("JSON");
    expect(instruction).toContain(JSON.stringify(doubled.schema));
  });
});
