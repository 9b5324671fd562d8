/**
 * Time expressions in memory text: "As of 2026-03-01" anchors, dates, years, weekdays and clock
 * times, each with a comparable key so "14 March" and "March 14" agree and "2026" is compatible
 * with "September 2026".
 *
 * @module
 */

export const TIME_KINDS = [
  /** "As of 2026-03-01": when the fact was observed, not a detail of the fact. */
  "anchor",
  /** A calendar date, month or year ("since 2021", "on 2026-04-12", "in September 2025"). */
  "date",
  /** A weekday, weekdays or weekends ("on Mondays", "every weekday"). */
  "weekday",
  /** A clock time ("at 8:15", "02:00 UTC"). */
  "clock",
] as const;

export type TimeKind = (typeof TIME_KINDS)[number];

export interface TimeExpression {
  readonly kind: TimeKind;
  /** As written ("As of 2026-03-01", "March 14", "Mondays"). */
  readonly text: string;
  /** Comparable form: "2026-03-01", "2026-09", "2026", "--03-14", "mon", "weekday", "8:15". */
  readonly key: string;
  readonly start: number;
  readonly end: number;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"] as const;
const MONTH = `(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`;
const WEEKDAY = `(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)day`;
const YEAR = String.raw`(?:19|20)\d{2}`;
const ISO = String.raw`${YEAR}-\d{2}-\d{2}`;

const MAY_HAVE_TIME = new RegExp(
  `\\d|\\b${MONTH}|day|weekend|\\b(?:mon|tue|wed|thu|fri|sat|sun)\\b|noon|midday|midnight`,
  "iu",
);

interface Pattern {
  readonly kind: TimeKind;
  readonly pattern: RegExp;
  readonly key: (match: RegExpExecArray) => string;
}

const rx = (source: string) => new RegExp(source, "giu");
const pad = (n: number) => String(n).padStart(2, "0");
const month = (name: string) =>
  pad(MONTHS.indexOf(name.slice(0, 3).toLowerCase() as (typeof MONTHS)[number]) + 1);

// Order matters: each pattern's matches are masked before the next runs, so "As of 2026-03-01"
// is one anchor, not also a date, and "14 March 2025" is one date, not also a year.
const PATTERNS: readonly Pattern[] = [
  {
    kind: "anchor",
    pattern: rx(String.raw`\bas of (${ISO}|${MONTH} ${YEAR}|${YEAR})\b`),
    key: (m) => dateKey(m[1] ?? ""),
  },
  { kind: "date", pattern: rx(String.raw`\b${ISO}\b`), key: (m) => m[0] },
  {
    kind: "date",
    pattern: rx(String.raw`\b(\d{1,2})(?:st|nd|rd|th)? (?:of )?(${MONTH})\b(?:,? (${YEAR}))?`),
    key: (m) => `${m[3] ?? "-"}-${month(m[2] ?? "")}-${pad(Number(m[1]))}`,
  },
  {
    kind: "date",
    pattern: rx(String.raw`\b(${MONTH}) (\d{1,2})(?:st|nd|rd|th)?\b(?:,? (${YEAR}))?(?!:)`),
    key: (m) => `${m[3] ?? "-"}-${month(m[1] ?? "")}-${pad(Number(m[2]))}`,
  },
  { kind: "date", pattern: rx(String.raw`\b(${MONTH}) (${YEAR})\b`), key: (m) => dateKey(m[0]) },
  // A bare year, unless it is part of a longer token ("v2019", "2019.1") or a percentage.
  { kind: "date", pattern: rx(String.raw`(?<![\w.\-:/])${YEAR}(?![\w\-:/%]|\.\d| %)`), key: (m) => m[0] },
  {
    kind: "weekday",
    pattern: rx(String.raw`\b(${WEEKDAY}|weekday|weekend)s?\b`),
    key: (m) =>
      (m[1] ?? "")
        .toLowerCase()
        .slice(0, 3)
        .replace(/^wee$/u, weekPart(m[1] ?? "")),
  },
  // Weekdays written short, capitalised so that "sat down" and "the sun" stay words: "Tue–Sat".
  {
    kind: "weekday",
    pattern: /\b(Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun)\b\.?/gu,
    key: (m) => (m[1] ?? "").toLowerCase().slice(0, 3),
  },
  {
    kind: "clock",
    pattern: rx(String.raw`(?<![\w.:])(\d{1,2}):(\d{2})(?![\w:]|\.\d)(?: ?([ap])\.?m\b\.?)?`),
    key: (m) => clockKey(m[1], m[2], m[3]),
  },
  // "8pm", "7 a.m.": the same moment as "20:00" and "07:00".
  {
    kind: "clock",
    pattern: rx(String.raw`(?<![\w.:])(\d{1,2}) ?([ap])\.?m\b\.?`),
    key: (m) => clockKey(m[1], "00", m[2]),
  },
  {
    kind: "clock",
    pattern: rx(String.raw`\b(noon|midday|midnight)\b`),
    key: (m) => (m[1]?.toLowerCase() === "midnight" ? "0:00" : "12:00"),
  },
];

/** "8", "00", "p" → "20:00"; "12", "30", "a" → "0:30"; "07", "00", none → "7:00". */
function clockKey(hour: string | undefined, minutes: string | undefined, half: string | undefined): string {
  const h = Number(hour);
  const meridiem = half?.toLowerCase();
  const h24 = meridiem === undefined ? h : (h % 12) + (meridiem === "p" ? 12 : 0);
  return `${h24}:${minutes ?? "00"}`;
}

function weekPart(word: string): string {
  return word.toLowerCase().startsWith("weekend") ? "weekend" : "weekday";
}

/** "2026-03-01" → itself; "September 2026" → "2026-09"; "2026" → "2026". */
function dateKey(text: string): string {
  const iso = /^\d{4}-\d{2}-\d{2}$/u.exec(text);
  if (iso !== null) return text;
  const monthYear = rx(`^(${MONTH}) (${YEAR})$`).exec(text);
  if (monthYear !== null) return `${monthYear[2]}-${month(monthYear[1] ?? "")}`;
  return text;
}

/**
 * The time expressions in `text`, in order of appearance.
 *
 * @example
 * findTimeExpressions("As of 2026-03-01, standup moved to Mondays at 9:30").map((t) => t.key);
 * // => ["2026-03-01", "mon", "9:30"]
 */
export function findTimeExpressions(text: string): TimeExpression[] {
  // Most memories name no time at all; one cheap test spares them the eight patterns.
  if (!MAY_HAVE_TIME.test(text)) return [];
  const found: TimeExpression[] = [];
  let masked = text;
  for (const { kind, pattern, key } of PATTERNS) {
    for (const match of masked.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      found.push({ kind, text: text.slice(start, end), key: key(match as RegExpExecArray), start, end });
      masked = masked.slice(0, start) + "\u0000".repeat(end - start) + masked.slice(end);
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/**
 * Whether two time keys can describe the same moment: equal, or one a coarser form of the other
 * ("2026" and "2026-09", "--03-14" and "2025-03-14").
 *
 * @example
 * compatibleTimes("2026", "2026-09"); // => true
 * compatibleTimes("mon", "thu"); // => false
 */
export function compatibleTimes(a: string, b: string): boolean {
  if (a === b) return true;
  if (/^\d{4}/u.test(a) && /^\d{4}/u.test(b)) return a.startsWith(b) || b.startsWith(a);
  if (a.startsWith("-") && /^\d{4}/u.test(b)) return b.endsWith(a.slice(1));
  if (b.startsWith("-") && /^\d{4}/u.test(a)) return a.endsWith(b.slice(1));
  return false;
}
