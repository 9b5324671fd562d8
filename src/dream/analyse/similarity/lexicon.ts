/**
 * Word lists for the details that tell two look-alike memories apart: environments, relations,
 * units and number words. Each maps the spellings people use to one canonical value.
 *
 * @module
 */

/**
 * Deployment environments and their abbreviations. "live" and "test" are left out: "lives in
 * Porto" and "unit tests" are far more common in memory text than the environments.
 */
export const ENVIRONMENTS: Readonly<Record<string, string>> = {
  production: "production",
  prod: "production",
  prd: "production",
  staging: "staging",
  stage: "staging",
  stg: "staging",
  development: "development",
  dev: "development",
  local: "local",
  locally: "local",
  localhost: "local",
  qa: "qa",
  uat: "uat",
  sandbox: "sandbox",
  preprod: "preprod",
  "pre-production": "preprod",
  canary: "canary",
};

/**
 * Kinship and work relations. A memory about "User's sister" is not about "User's brother", and
 * usually not about the user at all, so a relation that differs or is missing on one side refuses
 * a merge. Multi-word and verb forms ("mother-in-law", "reports to", "married to") are matched
 * before single words; see `RELATION_PHRASES`.
 */
export const RELATIONS: Readonly<Record<string, string>> = {
  mother: "mother",
  mom: "mother",
  mum: "mother",
  father: "father",
  dad: "father",
  sister: "sister",
  brother: "brother",
  sibling: "sibling",
  son: "son",
  daughter: "daughter",
  child: "child",
  kid: "child",
  parent: "parent",
  wife: "wife",
  husband: "husband",
  spouse: "spouse",
  partner: "partner",
  girlfriend: "girlfriend",
  boyfriend: "boyfriend",
  fiance: "fiance",
  fiancee: "fiance",
  aunt: "aunt",
  uncle: "uncle",
  cousin: "cousin",
  niece: "niece",
  nephew: "nephew",
  grandmother: "grandmother",
  grandma: "grandmother",
  grandfather: "grandfather",
  grandpa: "grandfather",
  grandson: "grandchild",
  granddaughter: "grandchild",
  friend: "friend",
  roommate: "roommate",
  flatmate: "roommate",
  neighbour: "neighbour",
  neighbor: "neighbour",
  colleague: "colleague",
  coworker: "colleague",
  "co-worker": "colleague",
  manager: "manager",
  boss: "manager",
  manages: "manager",
  report: "report",
  mentor: "mentor",
  mentee: "mentee",
};

/**
 * Phrases whose relation differs from their words' ("reports to X" makes X a manager); an empty
 * relation removes the phrase ("package manager" is software, not a person).
 */
export const RELATION_PHRASES: readonly (readonly [RegExp, string])[] = [
  [
    /\b(?:package|password|window|task|secrets?|version|display|session|file|account|product|project) managers?\b/giu,
    "",
  ],
  [/\b(mother|father|brother|sister|son|daughter)-in-law\b/giu, "$1-in-law"],
  [/\bstep-?(mother|father|brother|sister|son|daughter)\b/giu, "step$1"],
  [/\breports? to\b/giu, "manager"],
  [/\bmarried to\b/giu, "spouse"],
  [/\bdirect reports?\b/giu, "report"],
];

/** Canonical units. A unit is the word after a number ("5 km", "15 minutes", "14-inch"). */
export const UNITS: Readonly<Record<string, string>> = {
  km: "km",
  kms: "km",
  kilometre: "km",
  kilometres: "km",
  kilometer: "km",
  kilometers: "km",
  k: "km",
  mi: "mile",
  mile: "mile",
  miles: "mile",
  m: "m",
  metre: "m",
  metres: "m",
  meter: "m",
  meters: "m",
  min: "minute",
  mins: "minute",
  minute: "minute",
  minutes: "minute",
  h: "hour",
  hr: "hour",
  hrs: "hour",
  hour: "hour",
  hours: "hour",
  s: "second",
  sec: "second",
  secs: "second",
  second: "second",
  seconds: "second",
  ms: "ms",
  day: "day",
  days: "day",
  week: "week",
  weeks: "week",
  month: "month",
  months: "month",
  year: "year",
  years: "year",
  gb: "gb",
  tb: "tb",
  mb: "mb",
  kg: "kg",
  lb: "lb",
  lbs: "lb",
  inch: "inch",
  inches: "inch",
  "%": "percent",
  percent: "percent",
  eur: "eur",
  euro: "eur",
  euros: "eur",
  usd: "usd",
  dollars: "usd",
};

/** Number words, as digits: "five business days" and "5 business days" are the same detail. */
export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  hundred: 100,
};
