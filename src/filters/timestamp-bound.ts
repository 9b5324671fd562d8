/**
 * A bound on `created_at` / `updated_at`, as the stored form (ISO-8601 UTC with milliseconds), so a
 * filter compares instants, never spellings. An exact instant — epoch milliseconds, a `Date`, or a
 * date-time with an offset (`Z`, `+02:00`) — is that instant. A date or date-time without an offset
 * names a period in UTC — `"2026"`, `"2026-03"`, `"2026-03-05"`, `"2026-03-05T10"`, … down to the
 * second — and each operator takes the end of it that keeps the period whole: `gte` and `lt` its
 * first instant, `gt` and `lte` its last, so `{ gt: "2026-03" }` is "after March" and
 * `{ lte: "2026-03" }` "up to the end of March". An equality (`eq`, `ne`, `in`, `nin`) needs an
 * exact instant: a period is refused there, as a range it would silently fail to match.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import type { FilterOperator, FilterScalar } from "./filter.js";
import { describeValue } from "./filter-errors.js";

/** A date, or a date and time down to any unit, without an offset: a period in UTC. */
const PERIOD =
  /^(?<year>\d{4})(?:-(?<month>\d{2})(?:-(?<day>\d{2})(?:[T ](?<hour>\d{2})(?::(?<minute>\d{2})(?::(?<second>\d{2})(?:\.(?<fraction>\d{1,9}))?)?)?)?)?)?$/;
/** A date-time with an offset: one instant. */
const INSTANT = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

interface Period {
  readonly start: number;
  /** The first instant after it. */
  readonly next: number;
}

/**
 * The bound `value` sets for `op`, in the stored form; INVALID_FILTER naming `path` when it is no
 * date, or a period where an instant is needed.
 *
 * @example
 * timestampBound("2026-03", "gt", "created_at"); // "2026-03-31T23:59:59.999Z"
 * timestampBound("2026-03-01T02:00:00+02:00", "eq", "created_at"); // "2026-03-01T00:00:00.000Z"
 */
export function timestampBound(value: FilterScalar, op: FilterOperator, path: string, field: string): string {
  const exact = exactInstant(value);
  if (exact !== undefined) return new Date(exact).toISOString();
  const period = typeof value === "string" ? periodOf(value.trim().toUpperCase()) : undefined;
  if (period === undefined) {
    throw new LucidError(
      "INVALID_FILTER",
      `${path}: ${field} takes an ISO-8601 date or date-time (a period such as "2026-03", or an instant such as "2026-03-05T10:00:00Z"), or epoch milliseconds, got ${describeValue(value)}; ` +
        `e.g. { ${field}: { gte: "2026-03-01", lt: "2026-04-01" } }`,
      { details: { path, field } },
    );
  }
  if (op === "gte" || op === "lt") return new Date(period.start).toISOString();
  if (op === "gt" || op === "lte") return new Date(period.next - 1).toISOString();
  throw new LucidError(
    "INVALID_FILTER",
    `${path}: ${op} needs an exact instant, and ${describeValue(value)} names a period; ` +
      `for the whole period use a range, e.g. { ${field}: { gte: ${JSON.stringify(value)}, lte: ${JSON.stringify(value)} } }`,
    { details: { path, field } },
  );
}

/** Epoch milliseconds of an exact instant; undefined for a period or anything that is no date. */
function exactInstant(value: FilterScalar): number | undefined {
  if (typeof value === "number") return Number.isNaN(new Date(value).getTime()) ? undefined : value;
  if (typeof value !== "string") return undefined;
  const text = value.trim().toUpperCase();
  if (!INSTANT.test(text)) return undefined;
  const ms = new Date(text.replace(" ", "T")).getTime();
  return Number.isNaN(ms) ? undefined : ms;
}

/** The period a date or date-time without an offset names, checked (no 2026-02-30). */
function periodOf(text: string): Period | undefined {
  const parts = PERIOD.exec(text)?.groups;
  if (parts === undefined) return undefined;
  const number = (name: string, fallback: number) =>
    parts[name] === undefined ? fallback : Number(parts[name]);
  const fields = [
    number("year", 0),
    number("month", 1) - 1,
    number("day", 1),
    number("hour", 0),
    number("minute", 0),
    number("second", 0),
    parts.fraction === undefined ? 0 : Number(`0.${parts.fraction}`) * 1000,
  ] as const;
  const start = Date.UTC(fields[0], fields[1], fields[2], fields[3], fields[4], fields[5], fields[6]);
  const date = new Date(start);
  // Date.UTC carries an overflow into the next unit (month 13, day 30 of February): refused instead.
  if (
    date.getUTCFullYear() !== fields[0] ||
    date.getUTCMonth() !== fields[1] ||
    date.getUTCDate() !== fields[2] ||
    date.getUTCHours() !== fields[3] ||
    date.getUTCMinutes() !== fields[4] ||
    date.getUTCSeconds() !== fields[5]
  ) {
    return undefined;
  }
  // The finest unit given is the period's length; a fraction of a second is an instant's.
  const finest = ["fraction", "second", "minute", "hour", "day", "month"].find(
    (name) => parts[name] !== undefined,
  );
  const next = new Date(start);
  if (finest === "fraction") return { start: Math.floor(start), next: Math.floor(start) + 1 };
  if (finest === "second") next.setUTCSeconds(next.getUTCSeconds() + 1);
  else if (finest === "minute") next.setUTCMinutes(next.getUTCMinutes() + 1);
  else if (finest === "hour") next.setUTCHours(next.getUTCHours() + 1);
  else if (finest === "day") next.setUTCDate(next.getUTCDate() + 1);
  else if (finest === "month") next.setUTCMonth(next.getUTCMonth() + 1);
  else next.setUTCFullYear(next.getUTCFullYear() + 1);
  return { start, next: next.getTime() };
}
