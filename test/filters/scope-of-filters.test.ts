import { describe, expect, it } from "vitest";
import { requireScope } from "../../src/core/scope.js";
import { isLucidError } from "../../src/errors.js";
import { filterNode } from "../../src/filters/filter.js";
import { parseFilters } from "../../src/filters/parse-filters.js";
import { scopeFilter, scopeOf } from "../../src/filters/scope-of-filters.js";

describe("scopeOf", () => {
  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    [
      "top-level equalities",
      { user_id: "alice", agentId: "bot", category: "x" },
      { user_id: "alice", agent_id: "bot" },
    ],
    ["eq operator", { run_id: { eq: "r1" } }, { run_id: "r1" }],
    [
      "inside AND",
      { AND: [{ user_id: "alice" }, { AND: [{ app_id: "notes" }] }] },
      { user_id: "alice", app_id: "notes" },
    ],
    ["not inside OR", { OR: [{ user_id: "alice" }, { user_id: "bob" }] }, {}],
    ["not inside NOT", { NOT: [{ user_id: "alice" }] }, {}],
    [
      "not from in / ne / exists / null",
      { user_id: ["alice"], agent_id: { ne: "a" }, app_id: "*", run_id: null },
      {},
    ],
    ["first of two values", { AND: [{ user_id: "alice" }, { user_id: "bob" }] }, { user_id: "alice" }],
    ["none", { category: "preference" }, {}],
  ])("%s", (_, filters, expected) => {
    expect(scopeOf(parseFilters(filters))).toEqual(expected);
  });

  it("reads a bare condition and returns a frozen object", () => {
    const scope = scopeOf(filterNode.condition("user_id", "eq", "alice"));
    expect(scope).toEqual({ user_id: "alice" });
    expect(Object.isFrozen(scope)).toBe(true);
  });
});

describe("requireScope of a filter's scope", () => {
  it("returns the scope when there is one", () => {
    expect(requireScope(scopeOf(parseFilters({ agent_id: "bot" })), "search")).toEqual({ agent_id: "bot" });
  });

  it("throws SCOPE_REQUIRED naming the operation and an example", () => {
    let error: unknown;
    try {
      requireScope(scopeOf(parseFilters({ OR: [{ user_id: "alice" }, { user_id: "bob" }] })), "search");
    } catch (caught) {
      error = caught;
    }
    expect(isLucidError(error, "SCOPE_REQUIRED")).toBe(true);
    expect((error as Error).message).toContain("search needs a scope");
    expect((error as Error).message).toContain('{ filters: { user_id: "alice" } }');
  });
});

describe("scopeFilter", () => {
  it("is the inverse of scopeOf, with keys in a fixed order", () => {
    const node = scopeFilter({ app_id: "billing", user_id: "alice" });
    expect(node).toEqual({
      kind: "and",
      children: [
        { kind: "condition", field: "user_id", op: "eq", value: "alice" },
        { kind: "condition", field: "app_id", op: "eq", value: "billing" },
      ],
    });
    expect(scopeOf(node)).toEqual({ user_id: "alice", app_id: "billing" });
  });
});
