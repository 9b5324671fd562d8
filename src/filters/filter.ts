/**
 * The filter language as data: what `filters` in `search` / `getAll` become after validation.
 *
 * User input (Mem0's filter objects) is parsed once by `parseFilters` into this tree; each store
 * backend compiles the tree to its own query language. Nodes are frozen and `kind`-tagged.
 *
 * ## Semantics: the contract every backend meets
 *
 * A `field` is a column (`COLUMN_FIELDS`) or a metadata key; a dotted field (`prefs.color`) walks
 * nested metadata objects, one object key per segment. A field is *absent* when a key on the path
 * is missing or the value is JSON `null`.
 *
 * - Values compare with their JSON types, like `===`: `"5"` ≠ `5`, `true` ≠ `1`, and a field
 *   holding an array or an object equals no scalar (use `contains` for arrays).
 * - `eq v`: the field holds `v`. `eq null`: the field is absent.
 * - `ne v`: not `eq v` — so `ne` matches memories where the field is absent.
 * - `gt gte lt lte v`: `v` is a number and the field holds a number, or `v` is a string and the
 *   field holds a string (compared in code-point order). Never matches an absent field or another type.
 * - `in list`: `eq` one of the elements; `in []` matches nothing. `nin list`: not `in list`, so it
 *   matches absent fields; `nin []` matches everything.
 * - `contains v`: the field holds an array with an element `eq v`, or (`v` a string) the field holds
 *   a string with `v` as a case-sensitive substring.
 * - `icontains v` (a string): a string field contains `v` ignoring case, or an array field has a
 *   string element equal to `v` ignoring case. Case folding is guaranteed for ASCII letters only
 *   (SQLite's `lower()`); a backend may fold more.
 * - `exists` (Mem0's `"*"`): the field is present and not null.
 * - `and` / `or` / `not` use two-valued logic: a condition that does not match (even on an absent
 *   field) matches under `not`. An empty `and` matches everything, an empty `or` nothing.
 * - Columns hold text. Scope keys, `id` and `category` take strings (`null` = not set);
 *   `created_at` / `updated_at` hold ISO-8601 UTC strings (`2026-11-30T00:00:00.000Z`), compared as
 *   strings, so a prefix such as `"2026-11"` works as a range bound. Numbers given for them are
 *   epoch milliseconds and are converted to that form.
 *
 * @module
 */

import { SCOPE_KEYS } from "../core/scope.js";

/** Mem0-style filters as a caller gives them: scope keys, metadata keys, operators, `AND OR NOT`. */
export type Filters = Record<string, unknown>;

export const FILTER_OPERATORS = [
  "eq",
  "ne",
  "gt",
  "gte",
  "lt",
  "lte",
  "in",
  "nin",
  "contains",
  "icontains",
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** A JSON scalar a condition compares against. */
export type FilterScalar = string | number | boolean | null;

/** A condition's operand: a list for `in` / `nin`, a scalar otherwise. */
export type FilterValue = FilterScalar | readonly FilterScalar[];

export interface FilterAnd {
  readonly kind: "and";
  readonly children: readonly FilterNode[];
}

export interface FilterOr {
  readonly kind: "or";
  readonly children: readonly FilterNode[];
}

export interface FilterNot {
  readonly kind: "not";
  readonly child: FilterNode;
}

/** `field` is a top-level key of a memory: a scope key, a column, or a metadata key (dotted for nesting). */
export interface FilterCondition {
  readonly kind: "condition";
  readonly field: string;
  readonly op: FilterOperator;
  readonly value: FilterValue;
}

/** Mem0's `"*"` value: the field is present, whatever its value. */
export interface FilterExists {
  readonly kind: "exists";
  readonly field: string;
}

export type FilterNode = FilterAnd | FilterOr | FilterNot | FilterCondition | FilterExists;

/** Fields that are columns of a memory rather than metadata keys. */
export const COLUMN_FIELDS = [...SCOPE_KEYS, "id", "category", "created_at", "updated_at"] as const;
export type ColumnField = (typeof COLUMN_FIELDS)[number];

/**
 * Builders for frozen nodes. They do not validate: `parseFilters` is the gate for user input, and
 * compilers re-check what they inline.
 *
 * @example
 * const node = filterNode.and([filterNode.condition("user_id", "eq", "alice"), filterNode.exists("source")]);
 */
export const filterNode = Object.freeze({
  and: (children: readonly FilterNode[]): FilterAnd =>
    Object.freeze({ kind: "and", children: Object.freeze([...children]) }),
  or: (children: readonly FilterNode[]): FilterOr =>
    Object.freeze({ kind: "or", children: Object.freeze([...children]) }),
  not: (child: FilterNode): FilterNot => Object.freeze({ kind: "not", child }),
  condition: (field: string, op: FilterOperator, value: FilterValue): FilterCondition =>
    Object.freeze({
      kind: "condition",
      field,
      op,
      value: Array.isArray(value) ? Object.freeze([...value]) : (value as FilterScalar),
    }),
  exists: (field: string): FilterExists => Object.freeze({ kind: "exists", field }),
});

export const MATCH_ALL: FilterNode = filterNode.and([]);
