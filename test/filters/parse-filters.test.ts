import { describe, expect, it } from "vitest";
import { isLucidError, type LucidError } from "../../src/errors.js";
import { FILTER_OPERATORS, type FilterNode, filterNode } from "../../src/filters/filter.js";
import { parseFilters } from "../../src/filters/parse-filters.js";

const { and, or, not, condition, exists } = filterNode;

function failure(input: unknown): LucidError {
  try {
    parseFilters(input);
  } catch (error) {
    if (isLucidError(error)) return error;
    throw error;
  }
  throw new Error(`parseFilters accepted ${JSON.stringify(input)}`);
}

/** An array with empty slots, which `map` / `every` would skip. */
function holey(length: number, items: Record<number, unknown>): unknown[] {
  return Object.assign(new Array<unknown>(length), items);
}

function isDeepFrozen(node: unknown): boolean {
  if (typeof node !== "object" || node === null) return true;
  return Object.isFrozen(node) && Object.values(node).every(isDeepFrozen);
}

describe("parseFilters: valid forms", () => {
  it.each<[string, Record<string, unknown>, FilterNode]>([
    ["plain value = eq", { category: "preference" }, and([condition("category", "eq", "preference")])],
    [
      "number, boolean and null values",
      { n: 2, b: false, z: null },
      and([condition("n", "eq", 2), condition("b", "eq", false), condition("z", "eq", null)]),
    ],
    ["array value = in", { category: ["a", "b"] }, and([condition("category", "in", ["a", "b"])])],
    ['"*" = exists', { source: "*" }, and([exists("source")])],
    ['{ eq: "*" } is a literal "*"', { source: { eq: "*" } }, and([condition("source", "eq", "*")])],
    [
      "every operator in one object applies",
      { importance: { gte: 0.5, lte: 0.9 } },
      and([condition("importance", "gte", 0.5), condition("importance", "lte", 0.9)]),
    ],
    [
      "camelCase scope aliases",
      { userId: "u", agentId: "a", appId: "p", runId: "r" },
      and([
        condition("user_id", "eq", "u"),
        condition("agent_id", "eq", "a"),
        condition("app_id", "eq", "p"),
        condition("run_id", "eq", "r"),
      ]),
    ],
    [
      "AND is flattened, keeping both conditions on one key",
      { AND: [{ user_id: "a" }, { user_id: "b" }] },
      and([condition("user_id", "eq", "a"), condition("user_id", "eq", "b")]),
    ],
    [
      "OR",
      { OR: [{ a: 1 }, { b: 2, c: 3 }] },
      and([or([condition("a", "eq", 1), and([condition("b", "eq", 2), condition("c", "eq", 3)])])]),
    ],
    ["a one-item OR is its item", { OR: [{ a: 1 }] }, and([condition("a", "eq", 1)])],
    [
      "NOT = none of them",
      { NOT: [{ a: 1 }, { b: 2 }] },
      and([not(or([condition("a", "eq", 1), condition("b", "eq", 2)]))]),
    ],
    ["NOT of one", { NOT: [{ a: 1 }] }, and([not(condition("a", "eq", 1))])],
    [
      "$and / $or / $not",
      { $and: [{ a: 1 }], $or: [{ b: 1 }, { c: 1 }], $not: [{ d: 1 }] },
      and([
        condition("a", "eq", 1),
        or([condition("b", "eq", 1), condition("c", "eq", 1)]),
        not(condition("d", "eq", 1)),
      ]),
    ],
    [
      "nesting",
      { user_id: "u", OR: [{ NOT: [{ AND: [{ x: { in: [] } }, { y: "*" }] }] }, { z: { icontains: "q" } }] },
      and([
        condition("user_id", "eq", "u"),
        or([not(and([condition("x", "in", []), exists("y")])), condition("z", "icontains", "q")]),
      ]),
    ],
    [
      "dotted and dashed fields",
      { "prefs.color": "blue", "a-b.c_d.0": 1 },
      and([condition("prefs.color", "eq", "blue"), condition("a-b.c_d.0", "eq", 1)]),
    ],
    [
      "epoch ms on timestamps become ISO",
      { created_at: { gte: Date.UTC(2026, 10, 30) }, updated_at: [0] },
      and([
        condition("created_at", "gte", "2026-11-30T00:00:00.000Z"),
        condition("updated_at", "in", ["1970-01-01T00:00:00.000Z"]),
      ]),
    ],
    [
      "Dates become ISO",
      { created_at: { lt: new Date(Date.UTC(2026, 0, 1)) } },
      and([condition("created_at", "lt", "2026-01-01T00:00:00.000Z")]),
    ],
    [
      "every operator",
      Object.fromEntries(FILTER_OPERATORS.map((op) => [op, { [op]: op.endsWith("in") ? ["v"] : "v" }])),
      and(FILTER_OPERATORS.map((op) => condition(op, op, op.endsWith("in") ? ["v"] : "v"))),
    ],
    ["empty object matches everything", {}, and([])],
  ])("%s", (_, input, expected) => {
    expect(parseFilters(input)).toEqual(expected);
  });

  it("returns a deeply frozen tree", () => {
    const node = parseFilters({ a: [1, 2], b: { gte: 1 }, OR: [{ c: 1 }, { NOT: [{ d: "*" }] }] });
    expect(isDeepFrozen(node)).toBe(true);
  });

  it("never mutates its input, and accepts frozen input", () => {
    const input = {
      userId: "u",
      importance: { gte: 0.5, lte: 0.9 },
      AND: [{ a: [1] }],
      created_at: { gt: 0 },
    };
    const copy = structuredClone(input);
    parseFilters(input);
    expect(input).toEqual(copy);
    expect(() => parseFilters(Object.freeze({ OR: Object.freeze([Object.freeze({ a: 1 })]) }))).not.toThrow();
  });

  it("accepts objects without a prototype", () => {
    const input = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    expect(parseFilters(input)).toEqual(and([condition("a", "eq", 1)]));
  });
});

describe("parseFilters: errors", () => {
  it.each<[string, unknown]>([
    ["null", null],
    ["undefined", undefined],
    ["a string", "user_id=alice"],
    ["an array", [{ user_id: "a" }]],
    ["a Map", new Map([["user_id", "a"]])],
    ["a non-object inside OR", { OR: ["a"] }],
    ["an empty AND", { AND: [] }],
    ["an empty OR", { OR: [] }],
    ["an empty NOT", { NOT: [] }],
    ["AND that is an object", { AND: { a: 1 } }],
    ["a sparse OR", { OR: holey(2, { 1: { a: 1 } }) }],
    ["in with a non-array", { category: { in: "food" } }],
    ["nin with a non-array", { category: { nin: 3 } }],
    ["an object inside an in list", { category: [{ a: 1 }] }],
    ["a hole inside an in list", { n: { in: holey(3, { 0: 1, 2: 3 }) } }],
    ["a nested array", { n: [[1]] }],
    ["gt with an object", { importance: { gt: { value: 1 } } }],
    ["gt with a boolean", { importance: { gt: true } }],
    ["gt with null", { importance: { gte: null } }],
    ["eq with a list", { category: { eq: ["a"] } }],
    ["contains null", { tags: { contains: null } }],
    ["icontains a number", { note: { icontains: 3 } }],
    ["an operator object with no operators", { importance: {} }],
    ["an undefined value", { user_id: undefined }],
    ["an undefined operand", { importance: { gte: undefined } }],
    ["NaN", { importance: NaN }],
    ["Infinity", { importance: { lt: Number.POSITIVE_INFINITY } }],
    ["a bigint", { n: 1n }],
    ["a function", { n: () => 1 }],
    ["an invalid Date", { created_at: new Date("nope") }],
    ["a number for a text column", { user_id: 42 }],
    ["a boolean for category", { category: { ne: true } }],
    ["a number range on a text column", { id: { gt: 3 } }],
    ["a boolean timestamp", { created_at: true }],
    ["an out-of-range epoch", { created_at: { gt: 1e20 } }],
    ["a timestamp that is no date", { created_at: { gte: "nope" } }],
    ["a timestamp in another format", { updated_at: { lt: "30/11/2026" } }],
    ["a timestamp in a list that is no date", { created_at: { in: ["2026-01-01T00:00:00Z", "soon"] } }],
    ["a period where an instant is needed", { created_at: "2026-03" }],
    ["a day in an in list", { updated_at: { in: ["2026-03-02"] } }],
    ["a date that does not exist", { created_at: { gte: "2026-02-30" } }],
    ["a month 13", { created_at: { lt: "2026-13" } }],
    ["a field with a quote", { "a'b": 1 }],
    ["a field with a space", { "a b": 1 }],
    ["a field with SQL", { "x') or 1=1 --": 1 }],
    ["an empty field", { "": 1 }],
    ["an empty path segment", { "a..b": 1 }],
    ["a leading dot", { ".a": 1 }],
    ["a JSON path", { "$.a": 1 }],
    ["unknown $ key", { $nor: [{ a: 1 }] }],
  ])("%s → INVALID_FILTER", (_, input) => {
    const error = failure(input);
    expect(error.code).toBe("INVALID_FILTER");
    expect(error.details?.path).toEqual(expect.any(String));
  });

  it("shows a correct example in malformed-input messages", () => {
    expect(failure({ category: { in: "food" } }).message).toContain(
      '{ category: { in: ["food", "travel"] } }',
    );
    expect(failure({ OR: [] }).message).toContain("{ OR: [");
    expect(failure(null).message).toContain('{ user_id: "alice"');
  });

  it("names where the problem is", () => {
    expect(failure({ AND: [{ a: 1 }, { importance: { gt: {} } }] }).details?.path).toBe(
      "filters.AND[1].importance.gt",
    );
  });

  it("refuses cyclic input with a typed error", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.AND = [cyclic];
    expect(failure(cyclic).code).toBe("INVALID_FILTER");
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["like", { category: { like: "x" } }, "like"],
    ["one bad among good ones", { importance: { gte: 1, between: [1, 2] } }, "between"],
    ["Mongo-style $gte", { importance: { $gte: 1 } }, "$gte"],
    ["a nested object without operators", { prefs: { color: "blue" } }, "color"],
  ])("%s → UNKNOWN_FILTER_OPERATOR", (_, input, operator) => {
    const error = failure(input);
    expect(error.code).toBe("UNKNOWN_FILTER_OPERATOR");
    expect(error.details?.operator).toBe(operator);
    expect(error.message).toContain(JSON.stringify(operator));
    for (const valid of FILTER_OPERATORS) expect(error.message).toContain(valid);
  });
});
