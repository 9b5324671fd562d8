/**
 * Time in English text, as retrieval needs it: does a question ask for a time, which calendar dates
 * does it name, and does a memory state a time at all. Deliberately small: the closed class of
 * English temporal words (months, weekdays, relative days, units, "ago"/"since"/"last"…) and numeric
 * years and dates, not a date parser — a match is a prior for ranking, never a filter.
 *
 * @module
 */

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
] as const;

const MONTH_ABBREVIATIONS = MONTHS.map((month) => month.slice(0, 3));

/** A calendar date a query names; a missing part matches anything. */
export interface DateMention {
  readonly year?: number;
  /** 1–12. */
  readonly month?: number;
  readonly day?: number;
}

/** "When…", "how long…", "what year / month / day / date / time…", "how many years / days…", "since when". */
const TIME_QUESTION =
  /\b(?:when|how\s+long|since\s+when|what\s+(?:year|month|day|date|time|week|season)|which\s+(?:year|month|day|date|week|season)|how\s+many\s+(?:years|months|weeks|days|hours|times))\b/iu;

export function asksForTime(query: string): boolean {
  return TIME_QUESTION.test(query);
}

const MONTH_NAME = `(${MONTHS.join("|")}|${MONTH_ABBREVIATIONS.join("|")})\\.?`;
const YEAR = "((?:19|20)\\d{2})";
const DAY = "(\\d{1,2})(?:st|nd|rd|th)?";

const DAY_MONTH_YEAR = new RegExp(`\\b${DAY}\\s+(?:of\\s+)?${MONTH_NAME}(?:,?\\s+${YEAR})?\\b`, "giu");
const MONTH_DAY_YEAR = new RegExp(`\\b${MONTH_NAME}\\s+${DAY}(?:,?\\s+${YEAR})?\\b`, "giu");
const MONTH_YEAR = new RegExp(`\\b${MONTH_NAME}(?:,?\\s+(?:of\\s+)?${YEAR})?\\b`, "giu");
const LONE_YEAR = new RegExp(`\\b${YEAR}\\b`, "gu");
const ISO_DATE = /\b((?:19|20)\d{2})-(\d{2})(?:-(\d{2}))?\b/gu;

const monthNumber = (name: string): number => {
  const key = name.toLowerCase().replace(/\.$/u, "").slice(0, 3);
  return MONTH_ABBREVIATIONS.indexOf(key) + 1;
};

/**
 * The dates a text names: "7 May 2023", "May 7th", "in May", "May, 2023", "2023", "2023-05-07".
 * "may" the verb is only taken as the month beside a day or a year, or after "in" ("in May").
 */
export function datesNamed(text: string): DateMention[] {
  const mentions: DateMention[] = [];
  const claimed: [number, number][] = [];
  const free = (start: number, end: number) => claimed.every(([from, to]) => end <= from || start >= to);
  const take = (match: RegExpExecArray, mention: DateMention) => {
    const end = match.index + match[0].length;
    if (!free(match.index, end)) return;
    claimed.push([match.index, end]);
    mentions.push(mention);
  };
  const year = (value: string | undefined) => (value === undefined ? {} : { year: Number(value) });
  for (const match of text.matchAll(ISO_DATE)) {
    const [, y, m, d] = match;
    take(match, { year: Number(y), month: Number(m), ...(d === undefined ? {} : { day: Number(d) }) });
  }
  for (const match of text.matchAll(DAY_MONTH_YEAR))
    take(match, { day: Number(match[1]), month: monthNumber(match[2] ?? ""), ...year(match[3]) });
  for (const match of text.matchAll(MONTH_DAY_YEAR))
    take(match, { month: monthNumber(match[1] ?? ""), day: Number(match[2]), ...year(match[3]) });
  for (const match of text.matchAll(MONTH_YEAR)) {
    const name = match[1] ?? "";
    const inMay = /\b(?:in|during|early|late|mid)\s+$/iu.test(text.slice(0, match.index));
    if (name.toLowerCase() === "may" && match[2] === undefined && !inMay) continue;
    if (name.length === 3 && match[2] === undefined && name.toLowerCase() !== "may") {
      // "mar", "jun"… alone are too often other words; with a year they are months.
      continue;
    }
    take(match, { month: monthNumber(name), ...year(match[2]) });
  }
  for (const match of text.matchAll(LONE_YEAR)) take(match, { year: Number(match[1]) });
  return mentions.filter((mention) => mention.month === undefined || mention.month > 0);
}

/** Whether an ISO-8601 instant falls within one of the mentions (UTC calendar). */
export function withinDates(iso: string, mentions: readonly DateMention[]): boolean {
  if (mentions.length === 0) return false;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return false;
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + 1;
  const day = date.getUTCDate();
  return mentions.some(
    (mention) =>
      (mention.year === undefined || mention.year === year) &&
      (mention.month === undefined || mention.month === month) &&
      (mention.day === undefined || mention.day === day),
  );
}

const WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|weekday";
const UNITS = "seconds?|minutes?|hours?|days?|weeks?|months?|years?|decades?|nights?|mornings?|evenings?";
const SEASONS = "spring|summer|autumn|fall|winter|christmas|easter|thanksgiving|holidays?";

/** Words and shapes that state a time: relative days, "last week", "two years ago", "since 2019", "in May"… */
const STATES_TIME = new RegExp(
  [
    "\\b(?:yesterday|today|tonight|tomorrow|recently|lately|nowadays|currently|earlier|soon|ago|since|until|till)\\b",
    `\\b(?:last|next|this|past|coming|every|each|few|couple\\s+of|one|two|three|four|five|six|seven|eight|nine|ten|\\d+)\\s+(?:${UNITS}|${WEEKDAYS}|${SEASONS})\\b`,
    `\\b(?:on|last|next|this|every)\\s+(?:${WEEKDAYS})s?\\b`,
    `\\b(?:in|this|last|next|during|over\\s+the)\\s+(?:the\\s+)?(?:${SEASONS})\\b`,
    // "may" is a month only in a date's shape: "in May", "May 7", "7 May".
    `\\b(?:${MONTHS.filter((month) => month !== "may").join("|")})\\b`,
    "\\b(?:in\\s+may|may\\s+\\d{1,2}|\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?may)\\b",
    "\\b(?:19|20)\\d{2}\\b",
    "\\b\\d{1,2}(?::\\d{2})?\\s?(?:am|pm)\\b",
  ].join("|"),
  "iu",
);

export function statesTime(text: string): boolean {
  return STATES_TIME.test(text);
}
