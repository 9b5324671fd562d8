/**
 * Content words for comparing texts: keyword terms, lightly stemmed, with the few words
 * that paraphrases swap freely folded together.
 *
 * Deliberately small. The vector similarity already says "these mean about the same"; the words
 * only have to confirm it and expose a differing detail, so a conservative stemmer that treats
 * "runs", "running" and "ran" alike is enough, and a wrong fold costs a missed merge, not a bad one.
 *
 * @module
 */

import { keywordTerms } from "./keywords.js";

// Irregular forms common in memory text; everything else goes through the suffix rules.
const IRREGULAR: Readonly<Record<string, string>> = {
  ran: "run",
  went: "go",
  gone: "go",
  began: "begin",
  begun: "begin",
  took: "take",
  taken: "take",
  kept: "keep",
  wrote: "write",
  written: "write",
  ate: "eat",
  eaten: "eat",
  met: "meet",
  left: "leave",
  built: "build",
  bought: "buy",
  drove: "drive",
  driven: "drive",
  got: "get",
  made: "make",
  said: "say",
  led: "lead",
  frozen: "freeze",
  froze: "freeze",
  children: "child",
  kids: "child",
  kid: "child",
  people: "person",
  daily: "day",
  nightly: "night",
  weekly: "week",
  monthly: "month",
};

/**
 * Words paraphrases trade for one another in memory text, first word canonical. Only swaps that
 * never change a fact: "likes"/"prefers"/"enjoys", "repo"/"repository", "km"/"kilometres".
 */
const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ["like", "prefer", "love", "enjoy", "favourite", "favorite", "fond"],
  ["run", "jog"],
  ["bike", "cycle"],
  ["repo", "repository"],
  ["km", "kilometre", "kilometer"],
  ["min", "minute", "mins"],
  ["hour", "hr", "hrs"],
  ["photo", "photograph", "picture"],
  ["begin", "start", "commence"],
  ["need", "require"],
  ["use", "utilise", "utilize"],
];

/**
 * Words that carry no fact of their own in a memory ("named Biscuit" = "Biscuit"; "every night"
 * = "nightly"), so a paraphrase that adds or drops them is not a different statement.
 */
const FILLERS: ReadonlySet<string> = new Set([
  "name",
  "call",
  "say",
  "every",
  "each",
  "also",
  "usual",
  "usually",
  "really",
  "actually",
  "currently",
  "now",
  "still",
  "ideally",
  "roughly",
  "about",
  "around",
  "since",
  "until",
  "ago",
  "approximately",
  "per",
]);

const VOWEL = /[aeiouy]/u;

/**
 * A light English stem: plural, -ing, -ed, -ly and a few derivational endings removed, a final
 * "e" dropped so "make" and "making" meet, doubled consonants undone.
 *
 * @example
 * stemWord("running"); // => "run"
 * stemWord("allergic") === stemWord("allergy"); // => true
 */
export function stemWord(word: string): string {
  // Irregular forms become their base form, which then takes the same suffix rules as the rest.
  const base = IRREGULAR[word] ?? word;
  // Numbers, versions and short words are details, not inflections.
  if (base.length <= 3 || /\d/u.test(base)) return base;
  let stem = base;
  if (stem.endsWith("ies") && stem.length > 4) stem = `${stem.slice(0, -3)}y`;
  else if (/(?:ch|sh|x|z|ss)es$/u.test(stem)) stem = stem.slice(0, -2);
  else if (stem.endsWith("s") && !/(?:ss|us|is)$/u.test(stem)) stem = stem.slice(0, -1);
  for (const suffix of ["ing", "ed", "ly"]) {
    const rest = stem.slice(0, -suffix.length);
    if (stem.endsWith(suffix) && rest.length >= 3 && VOWEL.test(rest)) {
      stem = rest;
      break;
    }
  }
  // "intolerance"/"intolerant", "allergic"/"allergy": same root, different part of speech.
  stem = stem.replace(/(?<=\w{5})(?:ance|ence|ant|ent)$/u, "").replace(/(?<=\w{4})(?:ic|y)$/u, "");
  if (/([b-df-hj-np-tv-z])\1$/u.test(stem) && !/(?:ll|ss|zz)$/u.test(stem)) stem = stem.slice(0, -1);
  if (stem.endsWith("e") && stem.length > 3) stem = stem.slice(0, -1);
  return stem;
}

let synonyms: Map<string, string> | undefined;

/**
 * A word's compared form: its stem, or its synonym group's canonical stem.
 *
 * @example
 * foldWord("prefers") === foldWord("likes"); // => true
 */
export function foldWord(word: string): string {
  synonyms ??= new Map(
    SYNONYM_GROUPS.flatMap((group) =>
      group.map((member) => [stemWord(member), stemWord(group[0] ?? member)] as const),
    ),
  );
  const stem = stemWord(word);
  return synonyms.get(stem) ?? stem;
}

/**
 * The comparable content words of a text: keyword terms, stemmed, synonyms folded, fillers dropped.
 *
 * @example
 * [...contentTerms("Maria jogs 5 kilometres each morning")]; // => ["maria", "run", "5", "km", "morn"]
 */
let foldedFillers: ReadonlySet<string> | undefined;

export function contentTerms(text: string): Set<string> {
  const terms = new Set<string>();
  for (const term of keywordTerms(text)) {
    const folded = foldWord(term);
    foldedFillers ??= new Set([...FILLERS].map(foldWord));
    // Folded too: "named" folds to the stem of "name", not to "name" itself.
    if (FILLERS.has(term) || foldedFillers.has(folded)) continue;
    terms.add(folded);
  }
  return terms;
}
