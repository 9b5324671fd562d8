/**
 * Claims: what a memory asserts about one attribute of one subject ("billing-api" · "deploy
 * target" · "fly.io"). Two memories with the same subject and attribute but incompatible values
 * contradict each other; the same attribute of two different subjects is two facts, never one.
 *
 * The rules (`claim-rules.ts`) are a small explicit set of sentence templates, not a parser: a
 * memory no template reads has no claims, and then neither contradicts nor blocks anything.
 *
 * @module
 */

import { toThirdPerson as rewritePerson } from "../../../text/person.js";
import { straightenQuotes } from "../../../text/quotes.js";
import { contentTerms } from "../../../text/stem.js";
import { CLAIM_RULES } from "./claim-rules.js";
import type { ClaimRuleId } from "./claim-template.js";
import { dietsConflict } from "./claim-vocabulary.js";
import { type Details, extractDetails } from "./details.js";
import { ENVIRONMENTS } from "./lexicon.js";

const toThirdPerson = (text: string): string => rewritePerson(text).text;

import { findTimeExpressions } from "./time-expressions.js";

export interface Claim {
  /** Which rule read it (see `claim-rules.ts`). */
  readonly rule: ClaimRuleId;
  /** "deploy target", "preferred editor", "manager", "postgresql version", "city of residence"… */
  readonly attribute: string;
  /** The attribute as written for people ("PostgreSQL version"). */
  readonly label: string;
  /** Comparable subject: stemmed content words, sorted ("payment team", "user", "billing-api"). */
  readonly subject: string;
  /** The subject as written, for topics ("the payments team"). */
  readonly subjectText: string;
  /** Comparable value: lower case, aliases folded ("vs code", "aws", "20"). */
  readonly value: string;
  /** The value as written ("VS Code"). */
  readonly valueText: string;
  /** Environments the sentence names; statements about staging and production never collide. */
  readonly environments: readonly string[];
  /**
   * Content words of the phrases qualifying the claim ("for the legacy-portal project", a leading
   * "For work,"), times and environments excluded: two claims qualified differently can both hold.
   */
  readonly qualifier: readonly string[];
}

// Observation anchors and leading adverbials are not the subject: "As of 2026-03-01, billing-api
// deploys to Fly.io", "For JavaScript projects, the user's package manager is pnpm".
const ANCHOR_PREFIX = /^as of [^,]{1,40},\s*/iu;
const LEADING_ADVERBIAL =
  /^(?:in|on|at|for|since|from|after|before|during|every|each|today|now|currently|nowadays|these days)\b[^,]{0,60},\s*/iu;

/**
 * Longest text read for claims. A template reads one short statement; a memory this long holds
 * several facts (the rewrites analyser flags it as too long), and reading a subject out of it
 * would be guesswork.
 */
const MAX_CLAIM_LENGTH = 400;

/**
 * The claims `text` makes (its `details` may be passed when already known). A negated statement
 * ("does not use Vim") makes none: it says what the value is not, which no single-valued rule can
 * compare.
 *
 * @example
 * extractClaims("As of 2026-03-01, billing-api deploys to Fly.io in production");
 * // => [{ rule: "deploy-target", attribute: "deploy target", subject: "billing-api",
 * //       value: "fly.io", valueText: "Fly.io", environments: ["production"], … }]
 */
export function extractClaims(text: string, details: Details = extractDetails(text)): Claim[] {
  if (details.negated || text.length > MAX_CLAIM_LENGTH) return [];
  const anchored = toThirdPerson(straightenQuotes(text))
    .trim()
    .replace(/[.!?;]+$/u, "")
    .replace(ANCHOR_PREFIX, "");
  const leading = LEADING_ADVERBIAL.exec(anchored)?.[0] ?? "";
  const sentence = anchored.slice(leading.length);
  const claims: Claim[] = [];
  const seen = new Set<string>();
  for (const rule of CLAIM_RULES) {
    if (!rule.trigger.test(sentence)) continue;
    for (const { rest, ...read } of rule.read(sentence)) {
      const claim: Claim = {
        rule: rule.id,
        environments: details.environments,
        ...read,
        label: read.label ?? read.attribute,
        qualifier: qualifierTerms(`${leading} ${rest}`),
      };
      const key = `${claimKey(claim)}\u0000${claim.value}`;
      if (seen.has(key)) continue;
      seen.add(key);
      claims.push(claim);
    }
  }
  return claims;
}

/** Content words of a qualifying phrase, without its times and environments. */
function qualifierTerms(phrase: string): string[] {
  let text = phrase;
  for (const time of findTimeExpressions(phrase).reverse())
    text = text.slice(0, time.start) + text.slice(time.end);
  return [...contentTerms(text)]
    .filter((term) => ENVIRONMENTS[term] === undefined && !/^\d+$/u.test(term))
    .sort();
}

/**
 * Whether two claims' qualifiers allow both to hold: when both are qualified, and differently
 * ("for the legacy-portal project" / "for the new-portal project"), they are about different things.
 *
 * @example
 * qualifiersDiffer(["legaci", "portal", "project"], ["new", "portal", "project"]); // => true
 */
export function qualifiersDiffer(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || b.length === 0) return false;
  return !wordsNest(a.join(" "), b.join(" "));
}

/**
 * The key two claims must share to be about the same thing: attribute, subject and environments.
 *
 * @example
 * claimKey(extractClaims("billing-api deploys to AWS")[0]!); // => "deploy target|billing-api|"
 */
export function claimKey(claim: Claim): string {
  return `${claim.attribute}|${claim.subject}|${claim.environments.join(",")}`;
}

/**
 * Whether two values of the same claim key cannot both be true. Values agree when equal or when
 * one's words contain the other's ("AWS" and "AWS ECS", "Priya" and "Priya Raman"); diets follow
 * their own table (a vegan is also vegetarian).
 *
 * @example
 * valuesConflict("deploy-target", "fly.io", "aws"); // => true
 * valuesConflict("diet", "vegan", "vegetarian"); // => false
 */
export function valuesConflict(rule: ClaimRuleId, a: string, b: string): boolean {
  if (rule === "diet") return dietsConflict(a, b);
  return !wordsNest(a, b);
}

/**
 * Whether two subjects may name the same thing: one's words contain the other's ("postgresql" and
 * "local postgresql instance"). "payment team" and "search team" may not.
 *
 * @example
 * subjectsCompatible("postgresql", "instance local postgresql"); // => true
 * subjectsCompatible("payment team", "search team"); // => false
 */
export function subjectsCompatible(a: string, b: string): boolean {
  return wordsNest(a, b);
}

function wordsNest(a: string, b: string): boolean {
  if (a === b) return true;
  const left = new Set(a.split(" ").filter(Boolean));
  const right = new Set(b.split(" ").filter(Boolean));
  const [small, large] = left.size <= right.size ? [left, right] : [right, left];
  if (small.size === 0) return false;
  for (const word of small) if (!large.has(word)) return false;
  return true;
}
