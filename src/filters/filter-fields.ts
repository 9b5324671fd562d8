/**
 * Field names and column values: the rules the parser enforces and every compiler relies on,
 * because a field name is the only part of a filter a compiler inlines into its query.
 *
 * @module
 */

import { SCOPE_KEYS } from "../core/scope.js";
import { LucidError } from "../errors.js";
import { COLUMN_FIELDS, type ColumnField, type FilterOperator, type FilterScalar } from "./filter.js";
import { describeValue } from "./filter-errors.js";
import { timestampBound } from "./timestamp-bound.js";

/** Segments of letters, digits, `_` and `-`, joined by `.`: safe to quote into any query language. */
const FIELD_NAME = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;

const TIMESTAMP_FIELDS: readonly string[] = ["created_at", "updated_at"];

/**
 * True when `field` is a usable field name.
 *
 * @example
 * isValidFieldName("prefs.color"); // true
 * isValidFieldName("x') or 1=1 --"); // false
 */
export function isValidFieldName(field: string): boolean {
  return FIELD_NAME.test(field);
}

/**
 * Throws `INVALID_FILTER` unless `field` is a usable field name.
 *
 * @example
 * assertFieldName("importance");
 */
export function assertFieldName(field: string, path = field): void {
  if (isValidFieldName(field)) return;
  throw new LucidError(
    "INVALID_FILTER",
    `${path}: ${describeValue(field)} is not a valid filter field; use letters, digits, "_" and "-", ` +
      `with "." between nested metadata keys, e.g. { "prefs.color": "blue" }`,
    { details: { path, field } },
  );
}

/**
 * True for fields stored as columns rather than inside metadata.
 *
 * @example
 * isColumnField("user_id"); // true
 * isColumnField("importance"); // false
 */
export function isColumnField(field: string): field is ColumnField {
  return (COLUMN_FIELDS as readonly string[]).includes(field);
}

/**
 * The metadata key path of a (non-column) field.
 *
 * @example
 * metadataPath("prefs.color"); // ["prefs", "color"]
 */
export function metadataPath(field: string): string[] {
  return field.split(".");
}

/**
 * A value for a text column: strings and null as they are; for `created_at` / `updated_at`, the
 * bound `op` sets, in the stored form (`timestamp-bound.ts`): an instant as that instant, a period
 * by the end that keeps it whole. Anything else (`"nope"`, `true`) is `INVALID_FILTER`, never a
 * range that silently matches all or nothing.
 *
 * @example
 * columnValue("created_at", Date.UTC(2026, 10, 30), "gte"); // "2026-11-30T00:00:00.000Z"
 * columnValue("created_at", "2026-03", "lt"); // "2026-03-01T00:00:00.000Z"
 * columnValue("user_id", "alice", "eq"); // "alice"
 */
export function columnValue(
  field: ColumnField,
  value: FilterScalar,
  op: FilterOperator,
  path: string = field,
): string | null {
  if (value === null) return null;
  // A blank scope id names no scope: in the vector index it would match "every memory without this
  // key", so it is refused, not read as a scope.
  if (typeof value === "string" && value.trim() === "" && (SCOPE_KEYS as readonly string[]).includes(field)) {
    throw new LucidError(
      "INVALID_FILTER",
      `${path}: ${field} must be a non-empty id, got ${describeValue(value)}; e.g. { ${field}: "alice" }, or leave the key out`,
      { details: { path, field } },
    );
  }
  if (typeof value === "string" && !TIMESTAMP_FIELDS.includes(field)) return value;
  if (TIMESTAMP_FIELDS.includes(field)) return timestampBound(value, op, path, field);
  throw new LucidError(
    "INVALID_FILTER",
    `${path}: ${field} holds text, got ${describeValue(value)}; pass a string, e.g. { ${field}: "${String(value)}" }`,
    { details: { path, field } },
  );
}
