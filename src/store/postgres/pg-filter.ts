/**
 * Compiles a `FilterNode` to a PostgreSQL WHERE fragment over the `memories` table.
 *
 * How PostgreSQL meets the contract in `filters/filter.ts`:
 *
 * - Columns compare directly (`m.user_id = $1`); created_at / updated_at numbers become ISO strings,
 *   compared byte by byte (the columns' "C" collation), as SQLite does.
 * - A metadata field `a.b` is the SQL/JSON path `strict $."a"."b"` over `m.metadata_doc`, bound as a
 *   parameter: neither a value nor a key is written into the SQL text. JSON types are told apart with
 *   `jsonb_typeof` ('string', 'number', 'boolean', 'array', 'object', 'null'), so `true` never
 *   equals the number 1; numbers compare as numerics (1 = 1.0).
 * - `contains` / `icontains` switch on the JSON type: `strpos` (case-sensitive) on a string, the
 *   array's elements on an array. `icontains` folds with `lower()` under the "C" collation, which
 *   folds ASCII letters only, as SQLite's `lower()` does, so both backends match the same rows.
 * - A condition on an absent field (or JSON null) is NULL or false; negations (`ne`, `nin`, `not`)
 *   are written `(x) is not true`, so they match absent fields as the contract says. `exists` is
 *   true for a present, non-null value.
 *
 * @module
 */

import { LucidError } from "../../errors.js";
import type { ColumnField, FilterCondition, FilterNode, FilterScalar } from "../../filters/filter.js";
import { assertFieldName, columnValue, isColumnField, metadataPath } from "../../filters/filter-fields.js";
import { operandError, required, scalarOf, scalars } from "../../filters/filter-operands.js";
import type { Params } from "./pg-params.js";

const COMPARISONS = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

interface Compiler {
  readonly alias: string;
  readonly params: Params;
}

/**
 * A parenthesised WHERE fragment selecting the memories `node` matches; its values join `params`.
 *
 * @example
 * const params = new Params();
 * const where = compilePgFilter(parseFilters({ user_id: "alice", importance: { gte: 0.5 } }), params);
 * await sql.rows(`select m.id from memories m where ${where}`, params.values);
 */
export function compilePgFilter(node: FilterNode, params: Params, alias = "m"): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(alias)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `table alias ${JSON.stringify(alias)} is not a plain SQL identifier`,
    );
  }
  return compileNode(node, { alias, params });
}

function compileNode(node: FilterNode, compiler: Compiler): string {
  switch (node.kind) {
    case "and":
      return chain(
        node.children.map((child) => compileNode(child, compiler)),
        "and",
        "true",
      );
    case "or":
      return chain(
        node.children.map((child) => compileNode(child, compiler)),
        "or",
        "false",
      );
    case "not":
      return negate(compileNode(node.child, compiler));
    case "exists":
      assertFieldName(node.field);
      return isColumnField(node.field)
        ? `(${compiler.alias}.${node.field} is not null)`
        : `(coalesce(jsonb_typeof(${jsonField(compiler, node.field)}), 'null') <> 'null')`;
    case "condition":
      assertFieldName(node.field);
      if (isColumnField(node.field)) return compileColumn(node, node.field, compiler);
      // An empty list needs no field: binding its path would leave a parameter the text never uses.
      if ((node.op === "in" || node.op === "nin") && scalars(node).length === 0) {
        return node.op === "in" ? "(false)" : "(true)";
      }
      return compileJson(node, jsonField(compiler, node.field), compiler.params);
  }
}

function chain(parts: string[], op: "and" | "or", empty: string): string {
  if (parts.length === 0) return `(${empty})`;
  if (parts.length === 1) return parts[0] ?? `(${empty})`;
  return `(${parts.join(` ${op} `)})`;
}

/** True when `sql` is false or NULL: a non-match on an absent field becomes a match. */
function negate(sql: string): string {
  return `(${sql} is not true)`;
}

function compileColumn(node: FilterCondition, field: ColumnField, { alias, params }: Compiler): string {
  const column = `${alias}.${field}`;
  const text = (value: FilterScalar) => `${params.add(columnValue(field, value, node.op))}::text`;
  switch (node.op) {
    case "eq":
    case "ne": {
      const value = columnValue(field, scalarOf(node), node.op);
      const eq = value === null ? `(${column} is null)` : `(${column} = ${params.add(value)}::text)`;
      return node.op === "eq" ? eq : negate(eq);
    }
    case "in":
    case "nin": {
      const values = scalars(node).map((value) => columnValue(field, value, node.op));
      const present = values.filter((value) => value !== null);
      const parts = present.length === 0 ? [] : [`(${column} = any(${params.add(present)}::text[]))`];
      if (present.length < values.length) parts.push(`(${column} is null)`);
      const anyOf = chain(parts, "or", "false");
      return node.op === "in" ? anyOf : negate(anyOf);
    }
    case "gt":
    case "gte":
    case "lt":
    case "lte":
      return `(${column} ${COMPARISONS[node.op]} ${text(required(node))})`;
    case "contains":
      return `(strpos(${column}, ${text(required(node))}) > 0)`;
    case "icontains":
      return `(strpos(lower(${column}), lower(${text(required(node))} collate "C")) > 0)`;
  }
}

/**
 * The field's jsonb value (NULL when absent), its path bound as a strict SQL/JSON path with every
 * segment a quoted key: `tags.0` is the key "0", as SQLite reads it, never an array's first element
 * (which `#>` would make of it). Segments are letters, digits, `_` and `-` (`assertFieldName`).
 */
function jsonField({ alias, params }: Compiler, field: string): string {
  const path = `strict $${metadataPath(field)
    .map((segment) => `."${segment}"`)
    .join("")}`;
  return `jsonb_path_query_first(${alias}.metadata_doc, ${params.add(path)}::jsonpath, '{}', true)`;
}

/** A scalar as a jsonb parameter: JSON equality keeps types apart and numbers numeric. */
function jsonValue(value: string | number | boolean, params: Params): string {
  return `${params.add(JSON.stringify(value))}::jsonb`;
}

function isJsonNull(field: string): string {
  return `(coalesce(jsonb_typeof(${field}), 'null') = 'null')`;
}

function jsonIn(field: string, values: readonly FilterScalar[], params: Params): string {
  const present = values.filter((value): value is string | number | boolean => value !== null);
  const parts =
    present.length === 0
      ? []
      : [`(${field} = any(${params.add(present.map((value) => JSON.stringify(value)))}::jsonb[]))`];
  if (present.length < values.length) parts.push(isJsonNull(field));
  return chain(parts, "or", "false");
}

function compileJson(node: FilterCondition, field: string, params: Params): string {
  switch (node.op) {
    case "eq":
    case "ne": {
      const value = scalarOf(node);
      const eq = value === null ? isJsonNull(field) : `(${field} = ${jsonValue(value, params)})`;
      return node.op === "eq" ? eq : negate(eq);
    }
    case "in":
      return jsonIn(field, scalars(node), params);
    case "nin":
      return negate(jsonIn(field, scalars(node), params));
    case "gt":
    case "gte":
    case "lt":
    case "lte": {
      const value = required(node);
      if (typeof value === "boolean") throw operandError(node, "a number or a string");
      const op = COMPARISONS[node.op];
      // CASE, not AND: PostgreSQL may evaluate either side of an AND first, and a string cast to numeric fails.
      return typeof value === "number"
        ? `(case when jsonb_typeof(${field}) = 'number' then (${field})::numeric ${op} ${params.add(value)}::numeric end)`
        : `(jsonb_typeof(${field}) = 'string' and (${field} #>> '{}') collate "C" ${op} ${params.add(value)}::text)`;
    }
    case "contains": {
      const value = required(node);
      const element = `exists (select 1 from jsonb_array_elements(${field}) e where e = ${jsonValue(value, params)})`;
      const substring =
        typeof value === "string"
          ? ` when 'string' then strpos(${field} #>> '{}', ${params.add(value)}::text) > 0`
          : "";
      return `(case jsonb_typeof(${field})${substring} when 'array' then ${element} else false end)`;
    }
    case "icontains": {
      const value = required(node);
      if (typeof value !== "string") throw operandError(node, "a string");
      const needle = params.add(value);
      const substring = `strpos(lower((${field} #>> '{}') collate "C"), lower(${needle}::text collate "C")) > 0`;
      const element = `exists (select 1 from jsonb_array_elements(${field}) e
        where jsonb_typeof(e) = 'string' and lower((e #>> '{}') collate "C") = lower(${needle}::text collate "C"))`;
      return `(case jsonb_typeof(${field}) when 'string' then ${substring} when 'array' then ${element} else false end)`;
    }
  }
}
