/**
 * Everything the duplicate and contradiction analysers read from one memory's text, computed once
 * per snapshot and shared by both.
 *
 * @module
 */

import { type Entity, extractEntities } from "../../../text/entities.js";
import { toThirdPerson as rewritePerson } from "../../../text/person.js";
import { contentTerms } from "../../../text/stem.js";
import type { DreamSnapshot, SnapshotMemory } from "../../snapshot.js";
import { type Claim, extractClaims } from "./claims.js";
import { type Details, extractDetails, normaliseAmounts } from "./details.js";
import { changeCue, expandShortForms, foldShortForm, valueWords } from "./value-slots.js";

const toThirdPerson = (text: string): string => rewritePerson(text).text;

export interface MemoryFeatures {
  readonly memory: SnapshotMemory;
  /** The text in the third person, as every comparison reads it. */
  readonly text: string;
  /** Stemmed content words of the third-person text. */
  readonly terms: ReadonlySet<string>;
  /** Lower-cased words of the text, unstemmed, to check whether a name is mentioned at all. */
  readonly words: ReadonlySet<string>;
  readonly details: Details;
  readonly claims: readonly Claim[];
  /** Entity mentions; computed on first use, since the tagger is the one costly step (~50 µs). */
  readonly entities: readonly Entity[];
  /** Value-like words (`value-slots.ts`), time expressions left out: "Render", "fly.io", "vs code". */
  readonly values: readonly string[];
  /** The word saying the fact changed ("switched", "no longer", "is now"), if any. */
  readonly change: string | undefined;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}.'-]*/gu;

/**
 * The features of one memory.
 *
 * @example
 * const features = memoryFeatures(memory);
 * features.details.numbers; // => ["5 km"] for "User runs 5 km every morning"
 */
export function memoryFeatures(memory: SnapshotMemory): MemoryFeatures {
  const text = toThirdPerson(memory.text);
  const details = extractDetails(text);
  let entities: readonly Entity[] | undefined;
  let claims: readonly Claim[] | undefined;
  let values: readonly string[] | undefined;
  return {
    memory,
    text,
    terms: contentTerms(normaliseAmounts(expandShortForms(canonicalTimes(text, details)))),
    words: wordsOf(text),
    details,
    get claims() {
      claims ??= extractClaims(text, details);
      return claims;
    },
    get entities() {
      entities ??= extractEntities(memory.text);
      return entities;
    },
    get values() {
      values ??= valueWords(withoutTimes(text, details));
      return values;
    },
    change: changeCue(text),
  };
}

/**
 * The text with each time expression as one word ("on Mondays" and "on Monday" share "tmon") and
 * without "As of" anchors: an observation date says nothing about the fact, and its digits would
 * make any two memories anchored the same day look alike.
 */
function canonicalTimes(text: string, details: Details): string {
  let out = text;
  const times = [...details.anchors, ...details.times].sort((a, b) => b.start - a.start);
  for (const time of times) {
    const words = time.kind === "anchor" ? [] : timeWords(time.key);
    out = `${out.slice(0, time.start)} ${words.join(" ")} ${out.slice(time.end)}`;
  }
  return out;
}

/** The text with its time expressions blanked: "March" and "Mon" are dates, not values. */
function withoutTimes(text: string, details: Details): string {
  let out = text;
  for (const time of [...details.anchors, ...details.times])
    out = out.slice(0, time.start) + " ".repeat(time.end - time.start) + out.slice(time.end);
  return out;
}

/**
 * Whether a compared term is one of the time words below ("t2026", "t0314", "tmon", "tweekday",
 * stemmed "tweekda"), not a word of the text.
 */
export function isTimeTerm(term: string): boolean {
  return /^t(?:\d+|mon|tue|wed|thu|fri|sat|sun|weekda|weekday|weekend)$/u.test(term);
}

/** One word per granularity, so compatible dates share one: "2026-09" → "t2026 t202609". */
function timeWords(key: string): string[] {
  const date = /^(\d{4}|-)(?:-(\d{2}))?(?:-(\d{2}))?$/u.exec(key);
  if (date === null) return [`t${key.replace(/[^\p{L}\p{N}]/gu, "")}`];
  const [, year, month, day] = date;
  const words: string[] = [];
  if (year !== "-") words.push(`t${year}`);
  if (year !== "-" && month !== undefined) words.push(`t${year}${month}`);
  if (month !== undefined && day !== undefined) words.push(`t${month}${day}`);
  return words;
}

/**
 * Whether `features`' text mentions a name: every word of the name appears in it, so "Priya" and
 * "Priya Raman" agree, and a capitalised common word the tagger took for a name ("Payments
 * standup…") is still found in "the payments team".
 *
 * @example
 * mentions(memoryFeatures(memory), "github.com/liwei/dotfiles"); // => true if the text has that URL
 */
export function mentions(features: MemoryFeatures, name: string): boolean {
  let words = NAME_WORDS.get(name);
  if (words === undefined) {
    words = (name.toLowerCase().match(WORD) ?? [])
      .flatMap(splitWord)
      .map((word) => [word, foldShortForm(word)] as const);
    if (NAME_WORDS.size >= NAME_WORDS_LIMIT) NAME_WORDS.clear();
    NAME_WORDS.set(name, words);
  }
  // Each word as written or in its long form: "Postgres" is mentioned by "PostgreSQL".
  return words.every(([word, long]) => features.words.has(word) || features.words.has(long));
}

// Names recur across a scope's memories; their words are split once.
const NAME_WORDS = new Map<string, readonly (readonly [string, string])[]>();
const NAME_WORDS_LIMIT = 50_000;

/**
 * The lower-cased words of a text, split as names are ("D&D" → d, d; "`features_prod`" →
 * features, prod), each also in its long form ("postgres" → postgresql, "st" → street), so a name
 * is found however either side writes it.
 */
function wordsOf(text: string): Set<string> {
  const words = new Set<string>();
  for (const word of (text.toLowerCase().match(WORD) ?? []).flatMap(splitWord)) {
    words.add(word);
    words.add(foldShortForm(word));
  }
  return words;
}

/** "fly.io" stays, and also yields "fly" and "io"; "billing-api" also yields "billing" and "api". */
function splitWord(word: string): string[] {
  const bare = word.replace(/['.]+$/u, "").replace(/'s$/u, "");
  const parts = bare.split(/[.\-']/u).filter(Boolean);
  return parts.length > 1 ? [bare, ...parts] : [bare];
}

// One cache per snapshot: both analysers of a dream share it, and it goes when the snapshot does.
const CACHE = new WeakMap<DreamSnapshot, Map<string, MemoryFeatures>>();

/**
 * A lookup of features by memory id for `snapshot`, memoised for the snapshot's lifetime.
 *
 * @example
 * const featuresOf = snapshotFeatures(snapshot);
 * featuresOf("d1a")?.claims;
 */
export function snapshotFeatures(snapshot: DreamSnapshot): (id: string) => MemoryFeatures | undefined {
  let cache = CACHE.get(snapshot);
  if (cache === undefined) {
    cache = new Map();
    CACHE.set(snapshot, cache);
  }
  const features = cache;
  return (id) => {
    const cached = features.get(id);
    if (cached !== undefined) return cached;
    const memory = snapshot.byId(id);
    if (memory === undefined) return undefined;
    const computed = memoryFeatures(memory);
    features.set(id, computed);
    return computed;
  };
}

const WEIGHTS = new WeakMap<DreamSnapshot, (term: string) => number>();

/**
 * Inverse document frequency of content words across the snapshot, ln(1 + N / df): "user" or the
 * person a scope is about appear in most memories and say little about which fact a memory states.
 *
 * @example
 * const weight = snapshotTermWeights(snapshot);
 * weight("user") < weight("penicillin"); // => true in a scope where most memories mention the user
 */
export function snapshotTermWeights(snapshot: DreamSnapshot): (term: string) => number {
  const cached = WEIGHTS.get(snapshot);
  if (cached !== undefined) return cached;
  const featuresOf = snapshotFeatures(snapshot);
  const frequency = new Map<string, number>();
  for (const memory of snapshot.memories) {
    for (const term of featuresOf(memory.id)?.terms ?? [])
      frequency.set(term, (frequency.get(term) ?? 0) + 1);
  }
  const total = Math.max(1, snapshot.memories.length);
  const weight = (term: string) => Math.log(1 + total / (frequency.get(term) ?? 1));
  WEIGHTS.set(snapshot, weight);
  return weight;
}
