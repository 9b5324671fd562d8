/**
 * One `key: value` pair of a Mem0 filter object, turned into conditions: a plain value is `eq`, an
 * array is `in`, `"*"` is `exists`, and an operator object gives one condition per operator (all of
 * them apply, unlike Mem0's memory store, which checks only the first).
 *
 * @module
 */

import { SCOPE_KEY_OF_OPTION } from "../core/scope.js";
import { LucidError } from "../errors.js";
import {
  FILTER_OPERATORS,
  type FilterNode,
  type FilterOperator,
  type FilterScalar,
  type FilterValue,
  filterNode,
} from "./filter.js";
import { childPath, describeValue, invalidFilter } from "./filter-errors.js";
import { assertFieldName, columnValue, isColumnField } from "./filter-fields.js";

/** Mem0's TypeScript SDK takes camelCase scope keys too. */
const SCOPE_ALIASES: Readonly<Record<string, string>> = SCOPE_KEY_OF_OPTION;

interface OperandRule {
  readonly accepts: (value: FilterValue) => boolean;
  readonly needs: string;
  readonly example: string;
}

const isScalar = (value: FilterValue): value is FilterScalar => !Array.isArray(value);
const isOrderable = (value: FilterValue) => typeof value === "number" || typeof value === "string";
const isList = (value: FilterValue) => Array.isArray(value);

const SCALAR = "a string, number, boolean or null";
const ORDERABLE = "a number or a string";
const LIST = "an array of strings, numbers, booleans or nulls";

const OPERANDS: Readonly<Record<FilterOperator, OperandRule>> = {
  eq: { accepts: isScalar, needs: SCALAR, example: '{ category: { eq: "food" } }' },
  ne: { accepts: isScalar, needs: SCALAR, example: '{ category: { ne: "food" } }' },
  gt: { accepts: isOrderable, needs: ORDERABLE, example: "{ importance: { gt: 0.5 } }" },
  gte: { accepts: isOrderable, needs: ORDERABLE, example: "{ importance: { gte: 0.5, lte: 0.9 } }" },
  lt: { accepts: isOrderable, needs: ORDERABLE, example: "{ importance: { lt: 0.5 } }" },
  lte: { accepts: isOrderable, needs: ORDERABLE, example: "{ importance: { gte: 0.5, lte: 0.9 } }" },
  in: { accepts: isList, needs: LIST, example: '{ category: { in: ["food", "travel"] } }' },
  nin: { accepts: isList, needs: LIST, example: '{ category: { nin: ["food", "travel"] } }' },
  contains: {
    accepts: (value) => isScalar(value) && value !== null,
    needs: "a string, number or boolean",
    example: '{ tags: { contains: "work" } }',
  },
  icontains: {
    accepts: (value) => typeof value === "string",
    needs: "a string",
    example: '{ note: { icontains: "coffee" } }',
  },
};

/** Object literals only: a Map, a Date or a class instance is a value, not a filter object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isOperator(key: string): key is FilterOperator {
  return (FILTER_OPERATORS as readonly string[]).includes(key);
}

/**
 * The conditions for one `key: value` pair of a filter object, `path` naming it in error messages.
 *
 * @example
 * parseFilterField("importance", { gte: 0.5, lte: 0.9 }, "filters.importance"); // two conditions
 */
export function parseFilterField(key: string, value: unknown, path: string): FilterNode[] {
  const field = Object.hasOwn(SCOPE_ALIASES, key) ? (SCOPE_ALIASES[key] ?? key) : key;
  assertFieldName(field, path);
  if (value === "*") return [filterNode.exists(field)];
  if (Array.isArray(value)) return [condition(field, "in", value, path)];
  if (isPlainObject(value)) return parseOperators(field, value, path);
  return [condition(field, "eq", value, path)];
}

function parseOperators(field: string, operators: Record<string, unknown>, path: string): FilterNode[] {
  const keys = Object.keys(operators);
  if (keys.length === 0) {
    throw invalidFilter(
      `${path} is an empty object; give it operators, e.g. { importance: { gte: 0.5 } }`,
      path,
    );
  }
  const unknown = keys.find((key) => !isOperator(key));
  if (unknown !== undefined) throw unknownOperator(unknown, field, path, keys.some(isOperator));
  return keys.map((op) => condition(field, op as FilterOperator, operators[op], childPath(path, op)));
}

function unknownOperator(op: string, field: string, path: string, hasOperators: boolean): LucidError {
  const bare = op.replace(/^\$/, "");
  const hint =
    bare !== op && isOperator(bare)
      ? ` (write "${bare}", without the "$")`
      : hasOperators
        ? ""
        : ` (for a nested metadata key use a dotted field, e.g. { "${field}.${op}": … })`;
  return new LucidError(
    "UNKNOWN_FILTER_OPERATOR",
    `${path}: unknown filter operator ${JSON.stringify(op)}${hint}; valid operators: ${FILTER_OPERATORS.join(", ")}`,
    { details: { path, operator: op, validOperators: [...FILTER_OPERATORS] } },
  );
}

function condition(field: string, op: FilterOperator, raw: unknown, path: string): FilterNode {
  if (raw === undefined)
    throw invalidFilter(`${path} is undefined; give it a value or leave the key out`, path);
  const rule = OPERANDS[op];
  const value = operand(raw);
  if (value === undefined || !rule.accepts(value)) {
    throw invalidFilter(
      `${path}: ${op} needs ${rule.needs}, got ${describeValue(raw)}; e.g. ${rule.example}`,
      path,
    );
  }
  if (!isColumnField(field)) return filterNode.condition(field, op, value);
  const column = isScalar(value)
    ? columnValue(field, value, op, path)
    : value.map((item, index) => columnValue(field, item, op, `${path}[${index}]`));
  return filterNode.condition(field, op, column);
}

/** A JSON-safe operand, or undefined when `raw` is not one (NaN, Infinity, objects, holes…). */
function operand(raw: unknown): FilterValue | undefined {
  if (!Array.isArray(raw)) return scalar(raw);
  const list: FilterScalar[] = [];
  // An index loop, not `every`: a sparse array's holes must fail, not be skipped.
  for (let index = 0; index < raw.length; index += 1) {
    const item = scalar(raw[index]);
    if (item === undefined) return undefined;
    list.push(item);
  }
  return list;
}

function scalar(raw: unknown): FilterScalar | undefined {
  if (typeof raw === "string" || typeof raw === "boolean" || raw === null) return raw;
  if (typeof raw === "number") return Number.isFinite(raw) ? raw : undefined;
  if (raw instanceof Date) return Number.isNaN(raw.getTime()) ? undefined : raw.toISOString();
  return undefined;
}
