import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isLucidError } from "../../src/errors.js";
import { type FilterNode, filterNode } from "../../src/filters/filter.js";
import { parseFilters } from "../../src/filters/parse-filters.js";
import { compileSqliteFilter } from "../../src/store/sqlite/sqlite-filter.js";
import { FILTER_CASES, FIXTURE_ROWS } from "./filter-contract.js";

const SCHEMA = `
  create table memories(
    seq integer primary key, id text not null unique, text text not null, hash text not null,
    user_id text, agent_id text, app_id text, run_id text, category text,
    metadata text not null default '{}',
    created_at text not null, updated_at text not null,
    expires_at text)`;

let db: Database.Database;

beforeAll(() => {
  db = new Database(":memory:");
  db.exec(SCHEMA);
  const insert = db.prepare(`
    insert into memories(id, text, hash, user_id, agent_id, app_id, run_id, category, metadata, created_at, updated_at)
    values (@id, @id, @id, @user_id, @agent_id, @app_id, @run_id, @category, @metadata, @created_at, @updated_at)`);
  for (const row of FIXTURE_ROWS) insert.run({ ...row, metadata: JSON.stringify(row.metadata) });
});

afterAll(() => db.close());

function select(node: FilterNode, alias = "m"): string[] {
  const { sql, params } = compileSqliteFilter(node, alias);
  const rows = db
    .prepare(`select ${alias}.id as id from memories ${alias} where ${sql} order by ${alias}.seq`)
    .all(...params);
  return (rows as { id: string }[]).map((row) => row.id);
}

describe("compileSqliteFilter on a real SQLite", () => {
  it.each(FILTER_CASES)("$name", ({ filters, ids }) => {
    expect(select(parseFilters(filters))).toEqual([...ids].sort());
  });

  it("leaves the table intact after injection attempts", () => {
    expect(db.prepare("select count(*) as n from memories").get()).toEqual({ n: FIXTURE_ROWS.length });
  });

  it("inlines no value, only placeholders", () => {
    const { sql, params } = compileSqliteFilter(
      parseFilters({ user_id: "alice' --", note: { icontains: "x'y" }, tags: { in: ["a", 2] } }),
    );
    expect(sql).not.toContain("alice");
    expect(sql).not.toContain("x'y");
    expect(params).toEqual(["alice' --", "x'y", "x'y", "a", 2]);
  });

  it("binds booleans as nothing and epoch numbers as ISO strings", () => {
    const { params } = compileSqliteFilter(
      filterNode.and([
        filterNode.condition("pinned", "eq", true),
        filterNode.condition("created_at", "gte", Date.UTC(2026, 10, 30)),
      ]),
    );
    expect(params).toEqual(["2026-11-30T00:00:00.000Z"]);
  });

  it("compiles empty AND / OR to constants, always parenthesised", () => {
    expect(compileSqliteFilter(filterNode.and([]))).toEqual({ sql: "(1)", params: [] });
    expect(compileSqliteFilter(filterNode.or([]))).toEqual({ sql: "(0)", params: [] });
    expect(select(filterNode.not(filterNode.or([])))).toHaveLength(FIXTURE_ROWS.length);
    expect(compileSqliteFilter(parseFilters({ user_id: "a" })).sql).toMatch(/^\(.*\)$/);
  });

  it("uses the given table alias", () => {
    const { sql } = compileSqliteFilter(parseFilters({ user_id: "alice", importance: 1 }), "mem");
    expect(sql).toContain("mem.user_id");
    expect(sql).toContain("json_extract(mem.metadata, '$.\"importance\"')");
    expect(select(parseFilters({ user_id: "alice", category: "fact" }), "mem")).toEqual(["m02", "m08"]);
  });

  it("rejects an alias that is not an identifier", () => {
    expect(() => compileSqliteFilter(filterNode.and([]), "m; drop table memories")).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });

  it("rejects bad field names in hand-built nodes instead of inlining them", () => {
    for (const field of [`x') or 1=1 --`, `a"b`, "a..b", ""]) {
      const attempts = [filterNode.condition(field, "eq", 1), filterNode.exists(field)];
      for (const node of attempts) {
        let error: unknown;
        try {
          compileSqliteFilter(node);
        } catch (caught) {
          error = caught;
        }
        expect(isLucidError(error, "INVALID_FILTER")).toBe(true);
      }
    }
  });

  it("rejects operands a hand-built node got wrong", () => {
    const bad = [
      filterNode.condition("tags", "in", "coffee"),
      filterNode.condition("importance", "gt", true),
      filterNode.condition("importance", "gt", null),
      filterNode.condition("user_id", "eq", 42),
      filterNode.condition("note", "icontains", 3),
      filterNode.condition("created_at", "gte", Number.NaN),
    ];
    for (const node of bad) expect(() => compileSqliteFilter(node), JSON.stringify(node)).toThrow(/./);
  });

  it("runs OR chains far longer than SQLite's expression depth", () => {
    const ids = Array.from({ length: 3000 }, (_, index) => filterNode.condition("count", "eq", index));
    expect(select(filterNode.or(ids))).toEqual(["m04"]);
  });

  it("runs the deepest nesting the parser accepts, and refuses one level more", () => {
    const nest = (levels: number) => {
      let filters: Record<string, unknown> = { user_id: "alice" };
      for (let level = 0; level < levels; level += 1) {
        filters = level % 2 === 0 ? { NOT: [filters] } : { OR: [filters, { id: "none" }] };
      }
      return filters;
    };
    expect(select(parseFilters(nest(64)))).toEqual(["m01", "m02", "m03", "m08", "m10"]);
    expect(() => parseFilters(nest(65))).toThrow(expect.objectContaining({ code: "INVALID_FILTER" }));
  });
});
