/**
 * Retention values as people write them in Mem0 project files: `90d`, `90 days`, `2 weeks`,
 * `forever`. Mem0's parser (`parse_mem0_config.py`) understands `Nd` and `forever` and silently
 * skips anything else; this one understands more and still never throws.
 *
 * @module
 */

/** Days per unit; a month is 30 days and a year 365, which is what a TTL means in practice. */
const UNIT_DAYS: Readonly<Record<string, number>> = {
  h: 1 / 24,
  hr: 1 / 24,
  hrs: 1 / 24,
  hour: 1 / 24,
  hours: 1 / 24,
  d: 1,
  day: 1,
  days: 1,
  w: 7,
  wk: 7,
  wks: 7,
  week: 7,
  weeks: 7,
  mo: 30,
  mos: 30,
  month: 30,
  months: 30,
  y: 365,
  yr: 365,
  yrs: 365,
  year: 365,
  years: 365,
};

const FOREVER = new Set(["forever", "never", "permanent", "none", "null", "keep", "infinite", "off"]);
const AMOUNT = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/u;

/**
 * Days a retention value stands for: a positive number, `null` for "never expires", or
 * `undefined` when the value is not understood (the caller skips it with a warning). A bare
 * number means days.
 *
 * @example
 * parseRetentionValue("90d");      // => 90
 * parseRetentionValue("2 weeks");  // => 14
 * parseRetentionValue("forever");  // => null
 * parseRetentionValue("soon");     // => undefined
 */
export function parseRetentionValue(value: unknown): number | null | undefined {
  if (value === null) return null;
  if (typeof value === "number") return Number.isFinite(value) && value > 0 ? value : undefined;
  if (typeof value === "object" && !Array.isArray(value)) {
    // Some tools nest the value: { "days": 90 } or { "ttl": "90d" }.
    const nested = value as Record<string, unknown>;
    for (const key of ["days", "ttlDays", "ttl", "retention"]) {
      if (key in nested) return parseRetentionValue(nested[key]);
    }
    return undefined;
  }
  if (typeof value !== "string") return undefined;
  const text = value
    .trim()
    .toLowerCase()
    .replace(/^["']|["']$/gu, "")
    .trim();
  if (FOREVER.has(text)) return null;
  const match = AMOUNT.exec(text);
  if (match === null) return undefined;
  const amount = Number(match[1]);
  const unit = match[2] === "" ? 1 : UNIT_DAYS[match[2] ?? ""];
  if (unit === undefined || !(amount > 0)) return undefined;
  return amount * unit;
}

/**
 * A retention key as a Lucid category name: lower_snake_case (`Session State`, `session-state`
 * → `session_state`), or undefined when it cannot be one.
 *
 * @example
 * retentionCategory("Session-State"); // => "session_state"
 */
export function retentionCategory(key: string): string | undefined {
  const name = key
    .trim()
    .toLowerCase()
    .replace(/^["'`]|["'`]$/gu, "")
    .replace(/[\s-]+/gu, "_");
  return /^[a-z][a-z0-9_]*$/u.test(name) ? name : undefined;
}
