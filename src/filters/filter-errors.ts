/**
 * How filter errors are worded: where in the input the problem is, and a printable view of the bad
 * value that never throws (input may hold cycles, bigints or functions).
 *
 * @module
 */

import { LucidError } from "../errors.js";

/** A `LucidError("INVALID_FILTER")` with the location as a detail. */
export function invalidFilter(message: string, path: string): LucidError {
  return new LucidError("INVALID_FILTER", message, { details: { path } });
}

/** `filters.user_id`, or `filters["prefs.color"]` when the key is not a plain identifier. */
export function childPath(parent: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/** A short, printable description of any value, for error messages. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  if (value instanceof Date) return "a Date";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
