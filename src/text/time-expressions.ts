/**
 * Time in English text, as retrieval needs it: does a question ask for a time, which calendar dates
 * does it name, and does a memory state a time at all. Deliberately small: the closed class of
 * English temporal words (months, weekdays, relative days, units, "ago"/"since"/"last"…) and numeric
 * years and dates, not a date parser — a match is a prior for ranking, never a filter.
 *
 * @module
 */

/** English month names, lower case, January first. */
export const MONTHS = [
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

const WEEKDAYS = [
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
  "weekend",
  "weekday",
];
const UNITS = [
  "second",
  "minute",
  "hour",
  "day",
  "week",
  "month",
  "year",
  "decade",
  "night",
  "morning",
  "evening",
];
const SEASONS = [
  "spring",
  "summer",
  "autumn",
  "fall",
  "winter",
  "christmas",
  "easter",
  "thanksgiving",
  "holiday",
];
const COUNTS = [
  "few",
  "couple",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
];

/** Words that state a time on their own ("may" is not one: it is usually the verb). */
const TIME_WORDS = new Set([
  ..."yesterday today tonight tomorrow recently lately nowadays currently earlier soon ago since until till".split(
    " ",
  ),
  ...MONTHS.filter((month) => month !== "may"),
  ...WEEKDAYS.flatMap((day) => [day, `${day}s`]),
]);
/** Words that state a time after "last", "next", "this", "every", a number…: "last week", "two years". */
const AFTER_QUALIFIER = new Set([
  ...UNITS.flatMap((unit) => [unit, `${unit}s`]),
  ...SEASONS.flatMap((season) => [season, `${season}s`]),
  ...WEEKDAYS,
]);
const QUALIFIERS = new Set([
  "last",
  "next",
  "this",
  "past",
  "coming",
  "every",
  "each",
  "in",
  "during",
  "of",
  ...COUNTS,
]);
const YEAR_WORD = /^(?:19|20)\d{2}$/u;
const NUMBER_WORD = /^\d+$/u;
const CLOCK_WORD = /^\d{1,2}(?::\d{2})?(?:am|pm)$/u;

/**
 * Whether a text states a time: relative days ("yesterday"), "last week", "two years ago",
 * "since 2019", "in June", "on Fridays", "5 pm"… Word by word, so it costs little per candidate.
 */
export function statesTime(text: string): boolean {
  const words = text.toLowerCase().match(/[\p{L}\p{N}:]+/gu);
  if (words === null) return false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    if (TIME_WORDS.has(word) || YEAR_WORD.test(word) || CLOCK_WORD.test(word)) return true;
    const previous = i > 0 ? (words[i - 1] as string) : "";
    if (AFTER_QUALIFIER.has(word) && (QUALIFIERS.has(previous) || NUMBER_WORD.test(previous))) return true;
    // "5 pm", "in May", "May 7", "7 May"
    if ((word === "am" || word === "pm") && NUMBER_WORD.test(previous)) return true;
    if (word === "may") {
      const next = i + 1 < words.length ? (words[i + 1] as string) : "";
      if (previous === "in" || NUMBER_WORD.test(next) || /^\d{1,2}(?:st|nd|rd|th)?$/u.test(previous))
        return true;
    }
  }
  return false;
}
