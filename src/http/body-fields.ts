/**
 * Reading one field of a request body or query, checked: a wrong type is `INVALID_ARGUMENT` naming
 * the field and what it takes; absent (or JSON null) is undefined.
 *
 * @module
 */

import { LucidError } from "../errors.js";

type Source = Readonly<Record<string, unknown>>;

function wrong(name: string, needs: string, value: unknown): LucidError {
  return new LucidError("INVALID_ARGUMENT", `${name} must be ${needs}, got ${JSON.stringify(value)}.`, {
    details: { field: name },
  });
}

export function stringField(source: Source, name: string): string | undefined {
  const value = source[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw wrong(name, "a string", value);
  return value;
}

export function booleanField(source: Source, name: string): boolean | undefined {
  const value = source[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "boolean") return value;
  if (value === "true" || value === "false") return value === "true";
  throw wrong(name, "true or false", value);
}

export function numberField(
  source: Source,
  name: string,
  range: { min: number; max?: number; integer?: boolean },
): number | undefined {
  const raw = source[name];
  if (raw === undefined || raw === null || raw === "") return undefined;
  const value = typeof raw === "string" ? Number(raw) : raw;
  const needs = `${range.integer ? "an integer" : "a number"} from ${range.min}${range.max === undefined ? "" : ` to ${range.max}`}`;
  if (typeof value !== "number" || !Number.isFinite(value)) throw wrong(name, needs, raw);
  if (value < range.min || (range.max !== undefined && value > range.max)) throw wrong(name, needs, raw);
  if (range.integer && !Number.isInteger(value)) throw wrong(name, needs, raw);
  return value;
}

export function objectField(source: Source, name: string): Record<string, unknown> | undefined {
  const value = source[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw wrong(name, "an object", value);
  return value as Record<string, unknown>;
}

/** The query string as a plain object (the last value of a repeated name). */
export function queryOf(url: string): Record<string, string> {
  return Object.fromEntries(new URL(url).searchParams.entries());
}

/** Pages past this many memories do not exist in any store; a larger offset is an input error, not a query. */
const MAX_OFFSET = 2 ** 31;

/** `page` and `page_size` of a query: 1-based, 100 a page unless asked, at most 1000. */
export function pageOf(query: Source): { page: number; pageSize: number } {
  const pageSize = numberField(query, "page_size", { min: 1, max: 1000, integer: true }) ?? 100;
  const page =
    numberField(query, "page", { min: 1, max: Math.floor(MAX_OFFSET / pageSize), integer: true }) ?? 1;
  return { page, pageSize };
}
