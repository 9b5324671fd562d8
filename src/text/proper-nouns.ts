/**
 * The part-of-speech pass of entity extraction: runs of proper nouns ("Caroline", "New York",
 * "Jean-Luc"), tagged by wink-nlp's English model.
 *
 * Known limit: the tagger leans on capitalisation, so a common noun opening a sentence ("Team
 * standup moved", "Server crashed") comes out as a name. The public API has no lexicon lookup to
 * tell "Team" from "Caroline" there, and dropping sentence-initial words would lose "Caroline went
 * to…", the most common shape of a memory about a person.
 *
 * @module
 */

import type { EntitySpan } from "./entities.js";
import { STOP_WORDS } from "./stop-words.js";
import { tagger } from "./wink.js";

/**
 * Capitalised words the tagger marks as proper nouns that are not entities in memory text. They
 * are dropped from either end of a run ("Yesterday Caroline" → "Caroline", "Dr Jane Doe" →
 * "Jane Doe") and never stand alone. "User" and "Assistant" start most extracted memories;
 * the rest are greetings, sentence-initial time words and honorifics.
 */
const EDGE_WORDS: ReadonlySet<string> = new Set(
  (
    "user assistant bot human yesterday today tomorrow tonight hi hello hey thanks dear please " +
    "ok okay yes no sure mr mrs ms miss dr prof sir favourite favorite"
  ).split(" "),
);

/**
 * Dates say when, not who or what: "on 7 May" or "every Tuesday" would otherwise link every
 * memory from that month or weekday. Inside a longer name they stay ("Theresa May", "Black Friday").
 */
const CALENDAR_WORDS: ReadonlySet<string> = new Set(
  (
    "january february march april may june july august september october november december " +
    "jan feb mar apr jun jul aug sep sept oct nov dec " +
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun"
  ).split(" "),
);

// Common nouns and adjectives written capitalised join a run that has a proper noun in it:
// the tagger reads "New York" as NOUN + PROPN.
const JOINING_TAGS: ReadonlySet<string> = new Set(["PROPN", "NOUN", "ADJ"]);
const CAPITALISED = /^\p{Lu}/u;
const HAS_UPPER = /\p{Lu}/u;
// wink-nlp's tokenizer is quadratic in the length of a run without spaces ("A-A-A-…" of 32 KB
// takes seconds). Names are never that long, so such runs are blanked (same length, offsets kept).
const LONG_RUN = /\S{100,}/gu;
const HYPHEN = /^[-\u2010\u2011]$/u;

interface Token {
  readonly value: string;
  readonly tag: string;
  readonly start: number;
  readonly end: number;
  /** Whitespace before the token in the text. */
  readonly gap: string;
}

/**
 * Proper-noun runs in `text` that do not overlap any of `claimed` (spans an earlier pass owns).
 *
 * @example
 * findProperNouns("Caroline moved to New York", []).map((span) => span.name); // => ["Caroline", "New York"]
 */
export function findProperNouns(text: string, claimed: readonly EntitySpan[]): EntitySpan[] {
  // Proper nouns are written capitalised; text without a capital letter has none, and skipping
  // the tagger for it is the fast path for lower-case queries.
  if (!HAS_UPPER.test(text)) return [];
  const taken = new Uint8Array(text.length);
  for (const span of claimed) taken.fill(1, span.start, span.end);

  const tokens = tokenise(text.replace(LONG_RUN, (run) => " ".repeat(run.length)));
  // One-letter words ("I", "A", the "X" in "X and Y") never start or extend a name.
  const nameWord = tokens.map(
    (token) =>
      token.value.length >= 2 &&
      CAPITALISED.test(token.value) &&
      JOINING_TAGS.has(token.tag) &&
      taken.subarray(token.start, token.end).every((flag) => flag === 0),
  );

  const names: EntitySpan[] = [];
  let run: Token[] = [];
  const flush = () => {
    const span = toName(run, text);
    if (span !== undefined) names.push(span);
    run = [];
  };
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i] as Token;
    // A line break ends a name even without punctuation: lists and headings rarely have any.
    if (token.gap.includes("\n")) flush();
    if (nameWord[i] === true || (run.length > 0 && joinsNames(tokens, i, nameWord))) {
      run.push(token);
      continue;
    }
    // "Long-term", "Senior-level": a capitalised word hyphenated to a lower-case one is half of
    // an ordinary compound (usually sentence-initial), not a name.
    const next = tokens[i + 1];
    if (HYPHEN.test(token.value) && token.gap === "" && next?.gap === "" && LOWER.test(next.value)) run.pop();
    flush();
  }
  flush();
  return names;
}

// Lower-case words inside multi-word names: "University of Michigan", "Leonardo da Vinci".
const CONNECTORS: ReadonlySet<string> = new Set(["of", "de", "da", "del", "van", "von", "der"]);
const LOWER = /^\p{Ll}/u;

/** Whether token `i`, not itself a name word, links the run before it to a name word after it. */
function joinsNames(tokens: readonly Token[], i: number, nameWord: readonly boolean[]): boolean {
  const token = tokens[i];
  const next = tokens[i + 1];
  if (token === undefined || next === undefined || nameWord[i + 1] !== true) return false;
  // "Jean-Luc", "Coca-Cola": the tagger splits on the hyphen; rejoin when nothing is spaced.
  if (HYPHEN.test(token.value)) return token.gap === "" && next.gap === "";
  return CONNECTORS.has(token.value) && token.gap !== "" && next.gap !== "";
}

/**
 * The words of `text`, lower case, that the tagger reads as verbs (VERB or AUX) in it.
 *
 * @example
 * verbsIn("Li Wei is training for the Berlin Marathon"); // => Set { "is", "training" }
 */
export function verbsIn(text: string): Set<string> {
  const verbs = new Set<string>();
  for (const token of tokenise(text.replace(LONG_RUN, (run) => " ".repeat(run.length))))
    if (token.tag === "VERB" || token.tag === "AUX") verbs.add(token.value.toLowerCase());
  return verbs;
}

function tokenise(text: string): Token[] {
  const nlp = tagger();
  const doc = nlp.readDoc(text);
  const values = doc.tokens().out();
  const tags = doc.tokens().out(nlp.its.pos) as string[];
  const spaces = doc.tokens().out(nlp.its.precedingSpaces) as string[];
  const tokens: Token[] = [];
  let cursor = 0;
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i] ?? "";
    // wink-nlp gives values, not offsets; tokens are substrings in order, so find each after the
    // last. If one ever is not (a normalised token), it is placed at the cursor and takes no room.
    const found = text.indexOf(value, cursor);
    const start = found === -1 ? cursor : found;
    const end = found === -1 ? cursor : found + value.length;
    tokens.push({ value, tag: tags[i] ?? "X", start, end, gap: spaces[i] ?? "" });
    cursor = end;
  }
  return tokens;
}

function toName(run: readonly Token[], text: string): EntitySpan | undefined {
  let first = 0;
  let last = run.length - 1;
  while (first <= last && isEdge(run[first])) first += 1;
  while (last >= first && isEdge(run[last])) last -= 1;
  const kept = run.slice(first, last + 1);
  const head = kept[0];
  const tail = kept[kept.length - 1];
  if (head === undefined || tail === undefined || !kept.some((token) => token.tag === "PROPN")) {
    return undefined;
  }
  if (kept.length === 1) {
    const word = head.value.toLowerCase();
    if (isCalendarWord(word) || STOP_WORDS.has(word)) return undefined;
  }
  return { type: "name", name: text.slice(head.start, tail.end), start: head.start, end: tail.end };
}

/** "May", "Sept.", "Mondays" (but not "Mars": only weekdays take a plural). */
function isCalendarWord(word: string): boolean {
  const bare = word.replace(/\.$/u, "");
  return CALENDAR_WORDS.has(bare) || (bare.endsWith("days") && CALENDAR_WORDS.has(bare.slice(0, -1)));
}

/** A token a name may not start or end with: an edge word, a hyphen or a connector. */
function isEdge(token: Token | undefined): boolean {
  if (token === undefined) return false;
  return !CAPITALISED.test(token.value) || EDGE_WORDS.has(token.value.toLowerCase().replace(/\.$/u, ""));
}
