/**
 * The discriminating details of a memory: what makes two look-alike sentences different facts.
 * "Runs 5 km" vs "runs 10 km", "staging" vs "production", "sister" vs "brother", "likes" vs
 * "does not like" score 0.9+ on sentence embeddings, so these are read from the words instead.
 *
 * @module
 */

import { straightenQuotes } from "../../../text/quotes.js";
import { ENVIRONMENTS, NUMBER_WORDS, RELATION_PHRASES, RELATIONS, UNITS } from "./lexicon.js";
import { findTimeExpressions, type TimeExpression } from "./time-expressions.js";
import { startsSentence } from "./value-slots.js";

export interface Details {
  /** Quantities and versions, canonical: "5 km", "5432", "14 inch", "8.11", "1.2.3". */
  readonly numbers: readonly string[];
  /** Dates, weekdays and clock times that are part of the fact. */
  readonly times: readonly TimeExpression[];
  /** "As of …" observation anchors: kept on merge, never a reason to refuse one. */
  readonly anchors: readonly TimeExpression[];
  /** Canonical environments ("production", "staging", …). */
  readonly environments: readonly string[];
  /** Canonical relations ("sister", "manager", "spouse", …). */
  readonly relations: readonly string[];
  /** The main statement is negated ("does not like", "no longer", "never", "dislikes"). */
  readonly negated: boolean;
}

// Time expressions are blanked with a character no number may touch, so "2026-03-01" or "8:15"
// never yield stray numbers.
const MASK = "_";
// A number not glued to letters ("B2", "eu-west-1" and "SEV1" are names), with an optional unit.
const NUMBER =
  /(?<![\p{L}\p{N}_.\-/:@#])v?(\d+(?:,\d{3})*(?:\.\d+)*)(?![\p{L}\p{N}_]|\.\d)(?:[ -]?([a-z%]+))?/giu;
const NUMBER_WORD = new RegExp(
  String.raw`\b(${Object.keys(NUMBER_WORDS).join("|")})\b(?:[ -]([a-z]+))?`,
  "giu",
);
/** A currency sign before the amount is its unit: "$85" is "85 dollars". */
const CURRENCY_SIGNS: Readonly<Record<string, string>> = { $: "usd", "€": "eur", "£": "gbp", "¥": "jpy" };
const WORD = /[\p{L}][\p{L}-]*/gu;

// "Vault, not .env files" and "not only" contrast two things; they do not negate the statement.
const CONTRAST = /,\s*(?:and\s+)?not\b|\bnot only\b|\bwhether or not\b|\bif not\b/giu;
const NEGATION =
  /\b(?:not|never|no|no longer|cannot|nobody|nothing|neither|nor|[a-z]+n't|dislikes?|disliked|hates?|hated|avoids?|avoided|stopped|quit|gave up)\b/iu;

const CURRENCY_WORDS: Readonly<Record<string, string>> = {
  $: "dollars",
  "€": "euros",
  "£": "pounds",
  "¥": "yen",
};

/**
 * Amounts written one way: thousands separators dropped and a currency sign written as its word,
 * so "$2,500" and "2500 dollars" have the same words.
 *
 * @example
 * normaliseAmounts("The audit costs $2,500."); // => "The audit costs 2500 dollars."
 */
export function normaliseAmounts(text: string): string {
  return text
    .replace(/(?<=\d),(?=\d{3}(?!\d))/gu, "")
    .replace(
      /([$€£¥])\s?(\d+(?:\.\d+)?)/gu,
      (_, sign: string, amount: string) => `${amount} ${CURRENCY_WORDS[sign]}`,
    );
}

/**
 * The discriminating details of `text`.
 *
 * @example
 * extractDetails("User's sister Marta runs 5 km in staging on Mondays").numbers; // => ["5 km"]
 * extractDetails("User does not like olives").negated; // => true
 */
export function extractDetails(text: string): Details {
  const folded = straightenQuotes(text);
  const lower = folded.toLowerCase();
  const times = findTimeExpressions(folded);
  let masked = folded;
  for (const time of times)
    masked = masked.slice(0, time.start) + MASK.repeat(time.end - time.start) + masked.slice(time.end);
  return {
    numbers: findNumbers(masked),
    times: times.filter((time) => time.kind !== "anchor"),
    anchors: times.filter((time) => time.kind === "anchor"),
    environments: findEnvironments(lower),
    relations: findRelations(lower, folded),
    negated: NEGATION.test(lower.replace(CONTRAST, " ")),
  };
}

function findNumbers(masked: string): string[] {
  const numbers = new Set<string>();
  const add = (value: string, unitWord: string | undefined) => {
    const unit = unitWord === undefined ? undefined : UNITS[unitWord.toLowerCase()];
    numbers.add(unit === undefined ? value : `${value} ${unit}`);
  };
  for (const match of masked.matchAll(NUMBER)) {
    const sign = CURRENCY_SIGNS[masked[(match.index ?? 0) - 1] ?? ""];
    const value = (match[1] ?? "").replaceAll(",", "");
    if (sign !== undefined && (match[2] === undefined || UNITS[match[2].toLowerCase()] === undefined))
      numbers.add(`${value} ${sign}`);
    else add(value, match[2]);
  }
  for (const match of masked.matchAll(NUMBER_WORD)) {
    const next = match[2]?.toLowerCase();
    // "one of", "the one": a pronoun, not a count. A count is followed by what it counts.
    if (next === undefined || next === "of") continue;
    add(String(NUMBER_WORDS[(match[1] ?? "").toLowerCase()]), next);
  }
  return [...numbers].sort();
}

function inName(text: string, index: number, length: number): boolean {
  if (!/\p{Lu}/u.test(text[index] ?? "") || startsSentence(text, index)) return false;
  const before = /(\S+)\s+$/u.exec(text.slice(0, index))?.[1] ?? "";
  const after = /^\s+(\S+)/u.exec(text.slice(index + length))?.[1] ?? "";
  const named = (word: string) => /^\p{Lu}|\d/u.test(word);
  return named(before) || named(after);
}

function findEnvironments(lower: string): string[] {
  const found = new Set<string>();
  for (const match of lower.matchAll(WORD)) {
    const word = match[0];
    const whole = ENVIRONMENTS[word];
    if (whole !== undefined) found.add(whole);
    // Inside host names and identifiers: "db-stg.internal", "api-prod".
    else
      for (const part of word.split("-"))
        if (ENVIRONMENTS[part] !== undefined) found.add(ENVIRONMENTS[part] as string);
  }
  return [...found].sort();
}

/**
 * Relations named in the text. A relation word capitalised inside a sentence beside another
 * capitalised or numbered word is part of a name ("a Brother HL-L2350 printer", "Big Sister
 * Café"), not a relative; "called Mom" still is one.
 */
function findRelations(lower: string, original: string): string[] {
  const found = new Set<string>();
  let rest = lower.replace(/\p{L}+/gu, (word, index: number) =>
    inName(original, index, word.length) ? " ".repeat(word.length) : word,
  );

  for (const [pattern, canonical] of RELATION_PHRASES) {
    rest = rest.replace(pattern, (...args: string[]) => {
      if (canonical !== "") found.add(canonical.replace("$1", args[1] ?? ""));
      return " ";
    });
  }
  for (const match of rest.matchAll(WORD)) {
    const word = match[0];
    const relation = RELATIONS[word] ?? (word.endsWith("s") ? RELATIONS[word.slice(0, -1)] : undefined);
    if (relation !== undefined) found.add(relation);
  }
  return [...found].sort();
}
