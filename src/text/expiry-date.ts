/**
 * Expiry dates as Mem0 reads them: a calendar day (`YYYY-MM-DD`) means "visible through that day",
 * in a time zone (UTC unless configured); a full ISO timestamp with an offset (`Z` or `±hh:mm`) is
 * that instant. Only real dates pass: `2099-02-30`, `2100-02-29` and `12/31/2099` (which `Date`
 * would read in local time, or roll over) are refused with the value named.
 *
 * @module
 */

import { LucidError } from "../errors.js";

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/u;
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))$/iu;

/** Whether `zone` is an IANA time zone this runtime knows ("UTC", "Europe/Paris"). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The instant from which a memory with this expiry date is hidden, as an ISO string.
 *
 * @throws LucidError `INVALID_ARGUMENT` naming the value, for anything but a real calendar day, a
 *   timestamp with an offset, or a valid `Date`.
 * @example
 * expiryInstant("2099-12-31", "expirationDate"); // => "2100-01-01T00:00:00.000Z" (visible all of 31 December)
 * expiryInstant("2099-12-31", "expirationDate", "Europe/Paris"); // => "2099-12-31T23:00:00.000Z"
 */
export function expiryInstant(value: unknown, what: string, timeZone = "UTC"): string {
  return dateInstant(value, what, timeZone, 1);
}

/**
 * The instant a read is evaluated at, for `referenceDate`: a calendar day is its first moment in
 * `timeZone` (what was visible that day is visible), a timestamp with an offset or a `Date` that
 * instant. Same refusals as {@link expiryInstant}.
 *
 * @example
 * referenceInstant("2099-12-31", "referenceDate"); // => "2099-12-31T00:00:00.000Z"
 */
export function referenceInstant(value: unknown, what: string, timeZone = "UTC"): string {
  return dateInstant(value, what, timeZone, 0);
}

/** A calendar day becomes the start of the day `dayOffset` days after it, in `timeZone`. */
function dateInstant(value: unknown, what: string, timeZone: string, dayOffset: number): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw invalid(value, what);
    return value.toISOString();
  }
  if (typeof value !== "string") throw invalid(value, what);
  const text = value.trim();
  const day = DAY.exec(text);
  if (day !== null) {
    const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])];
    if (!isCalendarDay(year, month, date)) throw invalid(value, what);
    return startOfDay(year, month, date + dayOffset, timeZone).toISOString();
  }
  const stamp = TIMESTAMP.exec(text);
  if (stamp !== null) {
    const [year, month, date, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((index) =>
      Number(stamp[index] ?? 0),
    );
    const offsetOk = stamp[7] === undefined || (Number(stamp[7]) <= 14 && Number(stamp[8]) <= 59);
    if (
      isCalendarDay(year as number, month as number, date as number) &&
      (hour as number) <= 23 &&
      (minute as number) <= 59 &&
      (second as number) <= 59 &&
      offsetOk
    ) {
      return new Date(text).toISOString();
    }
  }
  throw invalid(value, what);
}

/**
 * The last day a memory with this expiry instant is visible, in `timeZone`: Mem0's
 * `expiration_date`. A day given as `2099-12-31` comes back as `2099-12-31`.
 *
 * @example
 * expiryDay("2100-01-01T00:00:00.000Z"); // => "2099-12-31"
 */
export function expiryDay(instant: string, timeZone = "UTC"): string {
  return calendarDay(Date.parse(instant) - 1, timeZone);
}

function isCalendarDay(year: number, month: number, date: number): boolean {
  const probe = new Date(Date.UTC(year, month - 1, date));
  return probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === date;
}

/** Midnight at the start of the day in `timeZone` (`date` may overflow into the next month). */
function startOfDay(year: number, month: number, date: number, timeZone: string): Date {
  const wallClock = Date.UTC(year, month - 1, date);
  // The zone's offset at that wall-clock time, found twice so a change of offset that day settles.
  let instant = wallClock - offsetMs(wallClock, timeZone);
  instant = wallClock - offsetMs(instant, timeZone);
  // Where midnight does not exist (Santiago, Havana, Beirut: clocks jump from 00:00 to 01:00), the
  // day starts at its first moment that does: step on until the wall clock shows the day.
  const day = new Date(wallClock).toISOString().slice(0, 10);
  for (let step = 0; step < 8 && calendarDay(instant, timeZone) < day; step++) instant += 15 * 60_000;
  return new Date(instant);
}

/**
 * The calendar day of `instant` on `timeZone`'s wall clock, `YYYY-MM-DD`.
 *
 * @example
 * calendarDay(Date.parse("2026-11-05T23:30:00Z"), "Europe/Paris"); // => "2026-11-06"
 */
export function calendarDay(instant: number, timeZone = "UTC"): string {
  const { year, month, day } = wallClock(instant, timeZone);
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in milliseconds. */
function offsetMs(instant: number, timeZone: string): number {
  const { year, month, day, hour, minute, second } = wallClock(instant, timeZone);
  return Date.UTC(year, month - 1, day, hour, minute, second) - Math.floor(instant / 1000) * 1000;
}

/** One formatter per zone: building one costs far more than formatting with it (recording calls this per search). */
const clocks = new Map<string, Intl.DateTimeFormat>();

function clockOf(timeZone: string): Intl.DateTimeFormat {
  let clock = clocks.get(timeZone);
  if (clock === undefined) {
    clock = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    clocks.set(timeZone, clock);
  }
  return clock;
}

/** What `timeZone`'s clock shows at `instant`. */
function wallClock(instant: number, timeZone: string) {
  const parts = clockOf(timeZone).formatToParts(new Date(instant));
  const part = (type: string) => Number(parts.find((each) => each.type === type)?.value);
  return {
    year: part("year"),
    month: part("month"),
    day: part("day"),
    hour: part("hour"),
    minute: part("minute"),
    second: part("second"),
  };
}

function invalid(value: unknown, what: string): LucidError {
  return new LucidError(
    "INVALID_ARGUMENT",
    `${what} ${JSON.stringify(value instanceof Date ? "Invalid Date" : value)} is not a date Lucid accepts. Use a calendar day such as 2099-12-31 (the memory stays visible through that day) or a timestamp with its offset such as 2099-12-31T18:00:00Z.`,
    { details: { [what]: value instanceof Date ? null : value } },
  );
}
