/**
 * Compiles a `FilterNode` to a SQLite WHERE fragment over the `memories` table.
 *
 * How SQLite meets the contract in `filters/filter.ts`:
 *
 * - Columns compare directly (`m.user_id = ?`); created_at / updated_at numbers become ISO strings.
 * - A metadata field `a.b` is `json_extract(m.metadata, '$."a"."b"')`, each segment quoted so `-`
 *   and digits stay object keys. `json_extract` turns `true` / `false` into 1 / 0 and arrays into
 *   their JSON text, so JSON types are told apart with `json_type(...)` ('text', 'integer', 'real',
 *   'true', 'false', 'array', …). Booleans are matched by their `json_type` alone and are never
 *   bound (better-sqlite3 cannot bind them), so `true` never equals the number 1.
 * - `contains` / `icontains` switch on the JSON type: `instr` (case-sensitive) on a string,
 *   `json_each` on an array. `icontains` uses `lower()` on both sides, which folds ASCII only.
 * - A condition on an absent field yields NULL or 0. Negations (`ne`, `nin`, `not`) are written
 *   `(x) is not 1`, which is true for both, so they match absent fields as the contract says.
 * - Every fragment is parenthesised; an empty `and` is `(1)`, an empty `or` `(0)`.
 * - Values are always bound parameters. Only validated field names and fixed JSON paths are inlined.
 *
 * @module
 */

import { LucidError } from "../../errors.js";
import type { ColumnField, FilterCondition, FilterNode, FilterScalar } from "../../filters/filter.js";
import { assertFieldName, columnValue, isColumnField, metadataPath } from "../../filters/filter-fields.js";
import { operandError, required, scalarOf, scalars } from "../../filters/filter-operands.js";

/** What better-sqlite3 can bind. */
export type SqliteParam = string | number | bigint | null;

/** Long AND/OR chains are grouped so SQLite's expression depth (1000) grows with log n, not n. */
const CHAIN_GROUP = 32;

const NUMBER_TYPES = "('integer', 'real')";

const COMPARISONS = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

/** Appends a parameter and returns its placeholder; called in the order placeholders are written. */
type Bind = (value: SqliteParam) => string;

interface Compiler {
  readonly alias: string;
  readonly bind: Bind;
}

/** SQL expressions for one metadata field. */
interface JsonField {
  /** The field's SQL value (NULL when absent or JSON null). */
  readonly value: string;
  /** Its JSON type name, NULL when absent. */
  readonly type: string;
  /** A `json_each` source over it. */
  readonly each: string;
}

/**
 * A parenthesised WHERE fragment selecting the memories `node` matches, with its parameters in order.
 * `alias` is the `memories` table's alias in the surrounding query.
 *
 * @example
 * const { sql, params } = compileSqliteFilter(parseFilters({ user_id: "alice", importance: { gte: 0.5 } }));
 * db.prepare(`select m.id from memories m where ${sql}`).all(...params);
 */
export function compileSqliteFilter(node: FilterNode, alias = "m"): { sql: string; params: SqliteParam[] } {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(alias)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `table alias ${JSON.stringify(alias)} is not a plain SQL identifier`,
    );
  }
  const params: SqliteParam[] = [];
  const bind: Bind = (value) => {
    params.push(value);
    return "?";
  };
  return { sql: compileNode(node, { alias, bind }), params };
}

function compileNode(node: FilterNode, compiler: Compiler): string {
  switch (node.kind) {
    case "and":
      return chain(
        node.children.map((child) => compileNode(child, compiler)),
        "and",
        "(1)",
      );
    case "or":
      return chain(
        node.children.map((child) => compileNode(child, compiler)),
        "or",
        "(0)",
      );
    case "not":
      return negate(compileNode(node.child, compiler));
    case "exists":
      assertFieldName(node.field);
      return isColumnField(node.field)
        ? `(${compiler.alias}.${node.field} is not null)`
        : `(${jsonField(compiler.alias, node.field).value} is not null)`;
    case "condition":
      assertFieldName(node.field);
      return isColumnField(node.field)
        ? compileColumn(node, node.field, compiler)
        : compileJson(node, jsonField(compiler.alias, node.field), compiler.bind);
  }
}

function chain(parts: string[], op: "and" | "or", empty: string): string {
  if (parts.length === 0) return empty;
  if (parts.length === 1) return parts[0] ?? empty;
  if (parts.length <= CHAIN_GROUP) return `(${parts.join(` ${op} `)})`;
  const groups: string[] = [];
  for (let start = 0; start < parts.length; start += CHAIN_GROUP) {
    groups.push(chain(parts.slice(start, start + CHAIN_GROUP), op, empty));
  }
  return chain(groups, op, empty);
}

/** True when `sql` is 0 or NULL: a non-match on an absent field becomes a match. */
function negate(sql: string): string {
  return `(${sql} is not 1)`;
}

function compileColumn(node: FilterCondition, field: ColumnField, { alias, bind }: Compiler): string {
  const column = `${alias}.${field}`;
  const param = (value: FilterScalar) => bind(columnValue(field, value, node.op));
  switch (node.op) {
    case "eq":
    case "ne": {
      const value = columnValue(field, scalarOf(node), node.op);
      const eq = value === null ? `(${column} is null)` : `(${column} = ${bind(value)})`;
      return node.op === "eq" ? eq : negate(eq);
    }
    case "in":
    case "nin": {
      const values = scalars(node).map((value) => columnValue(field, value, node.op));
      const present = values.filter((value) => value !== null);
      const parts = present.length === 0 ? [] : [`${column} in (${present.map(bind).join(", ")})`];
      if (present.length < values.length) parts.push(`${column} is null`);
      const anyOf = chain(
        parts.map((part) => `(${part})`),
        "or",
        "(0)",
      );
      return node.op === "in" ? anyOf : negate(anyOf);
    }
    case "gt":
    case "gte":
    case "lt":
    case "lte":
      return `(${column} ${COMPARISONS[node.op]} ${param(required(node))})`;
    case "contains":
      return `(instr(${column}, ${param(required(node))}) > 0)`;
    case "icontains":
      return `(instr(lower(${column}), lower(${param(required(node))})) > 0)`;
  }
}

function jsonField(alias: string, field: string): JsonField {
  const path = `'$${metadataPath(field)
    .map((segment) => `."${segment}"`)
    .join("")}'`;
  const source = `${alias}.metadata, ${path}`;
  return { value: `json_extract(${source})`, type: `json_type(${source})`, each: `json_each(${source})` };
}

/** `field` holds `value`, JSON types included; 0 or NULL otherwise. */
function jsonEquals(field: JsonField, value: FilterScalar, bind: Bind): string {
  if (value === null) return `(${field.value} is null)`;
  if (typeof value === "boolean") return `(${field.type} = '${value}')`;
  if (typeof value === "number")
    return `(${field.type} in ${NUMBER_TYPES} and ${field.value} = ${bind(value)})`;
  return `(${field.type} = 'text' and ${field.value} = ${bind(value)})`;
}

/** `field` is one of `values`; strings and numbers each become one `in (…)` test. */
function jsonIn(field: JsonField, values: readonly FilterScalar[], bind: Bind): string {
  const strings = values.filter((value) => typeof value === "string");
  const numbers = values.filter((value) => typeof value === "number");
  const others = [
    ...new Set(values.filter((value) => typeof value !== "string" && typeof value !== "number")),
  ];
  const parts: string[] = [];
  if (strings.length > 0)
    parts.push(`(${field.type} = 'text' and ${field.value} in (${strings.map(bind).join(", ")}))`);
  if (numbers.length > 0) {
    parts.push(`(${field.type} in ${NUMBER_TYPES} and ${field.value} in (${numbers.map(bind).join(", ")}))`);
  }
  for (const value of others) parts.push(jsonEquals(field, value, bind));
  return chain(parts, "or", "(0)");
}

/** A `json_each` element test: the same typing as `jsonEquals`, on `e.type` / `e.value`. */
function elementEquals(value: string | number | boolean, bind: Bind): string {
  if (typeof value === "boolean") return `e.type = '${value}'`;
  if (typeof value === "number") return `e.type in ${NUMBER_TYPES} and e.value = ${bind(value)}`;
  return `e.type = 'text' and e.value = ${bind(value)}`;
}

function compileJson(node: FilterCondition, field: JsonField, bind: Bind): string {
  switch (node.op) {
    case "eq":
      return jsonEquals(field, scalarOf(node), bind);
    case "ne":
      return negate(jsonEquals(field, scalarOf(node), bind));
    case "in":
      return jsonIn(field, scalars(node), bind);
    case "nin":
      return negate(jsonIn(field, scalars(node), bind));
    case "gt":
    case "gte":
    case "lt":
    case "lte": {
      const value = required(node);
      if (typeof value === "boolean") throw operandError(node, "a number or a string");
      const type = typeof value === "number" ? `in ${NUMBER_TYPES}` : "= 'text'";
      return `(${field.type} ${type} and ${field.value} ${COMPARISONS[node.op]} ${bind(value)})`;
    }
    case "contains": {
      const value = required(node);
      // The CASE binds in the order its branches are written, which is the order of `bind` calls here.
      const substring =
        typeof value === "string" ? ` when 'text' then instr(${field.value}, ${bind(value)}) > 0` : "";
      const element = `exists (select 1 from ${field.each} as e where ${elementEquals(value, bind)})`;
      return `(case ${field.type}${substring} when 'array' then ${element} else 0 end)`;
    }
    case "icontains": {
      const value = required(node);
      if (typeof value !== "string") throw operandError(node, "a string");
      const substring = `instr(lower(${field.value}), lower(${bind(value)})) > 0`;
      const element = `exists (select 1 from ${field.each} as e where e.type = 'text' and lower(e.value) = lower(${bind(value)}))`;
      return `(case ${field.type} when 'text' then ${substring} when 'array' then ${element} else 0 end)`;
    }
  }
}
