/**
 * Capture's triage without a model (Mem0's memory-triage gates, `specs/mem0.md` §A.5, made
 * deterministic): which sentences of a conversation are durable facts worth keeping. Only what the
 * user said counts (an assistant's restatement is not evidence; tool output is not a statement).
 * Each sentence of a user message is read by its grammar, with wink-nlp's tags:
 *
 * - questions (a question mark, a question word or an inverted auxiliary first, or "I wonder
 *   whether…"), chatter (nothing about anything: no noun, name or number once greetings and thanks
 *   are set aside), code and tool output are dropped;
 * - a standing instruction ("always…", "never…", "from now on…") is a rule; any other imperative
 *   ("run the tests", "please book it") is a request for this turn and dropped;
 * - hedged or hypothetical statements ("maybe", "might", "if…", "thinking about…") and the state of
 *   the moment ("right now", "yesterday", "the build is running") are dropped;
 * - what remains is a statement, filed under a category by what it is about (a decision, a liking,
 *   who the user is, a person, a setting, a tool, a project); its importance is the category's, and
 *   a statement under the importance threshold is dropped (one about nothing the categories know
 *   has Mem0's 0.5, under the default 0.6).
 *
 * The cue words below name kinds of statement (liking, deciding, kinship), not phrasings of
 * particular facts; the sentence model does the rest.
 *
 * @module
 */

import type { CategoryTable } from "../policy/categories.js";
import { isDomainTerm } from "../text/domain-terms.js";
import { type TaggedSentence, type TaggedWord, taggedSentences } from "../text/sentences.js";
import { redactStatedPassword } from "./stated-password.js";

export type TriageDropReason =
  | "not_user"
  | "code"
  | "tool_output"
  | "question"
  | "chatter"
  | "request"
  | "hypothetical"
  | "transient"
  | "below_threshold";

export interface TriageKept {
  /** The sentence as the user wrote it, leading fillers ("oh, and") removed. */
  readonly text: string;
  /** The sentence as found in the message. */
  readonly source: string;
  readonly category: string | null;
  readonly importance: number;
  /** Index of the message it came from. */
  readonly message: number;
}

export interface TriageDropped {
  readonly text: string;
  readonly reason: TriageDropReason;
  readonly message: number;
}

export interface TriageResult {
  readonly kept: TriageKept[];
  readonly dropped: TriageDropped[];
}

export interface TriageMessage {
  readonly role: string;
  readonly content: string;
}

/** Mem0's triage knob: facts under this importance are not stored. */
export const DEFAULT_IMPORTANCE_THRESHOLD = 0.6;
const UNKNOWN_IMPORTANCE = 0.5;

/**
 * @example
 * triage([{ role: "user", content: "Thanks! My sister Ana is a nurse in Porto. Can you book a table?" }], DEFAULT_CATEGORIES);
 * // => { kept: [{ text: "My sister Ana is a nurse in Porto.", category: "relationship", … }],
 * //      dropped: [{ text: "Thanks!", reason: "chatter" }, { text: "Can you book a table?", reason: "question" }] }
 */
export function triage(
  messages: readonly TriageMessage[],
  categories: CategoryTable,
  threshold = DEFAULT_IMPORTANCE_THRESHOLD,
): TriageResult {
  const kept: TriageKept[] = [];
  const dropped: TriageDropped[] = [];
  for (const [message, { role, content }] of messages.entries()) {
    if (role !== "user") {
      if (content.trim() !== "") dropped.push({ text: content, reason: "not_user", message });
      continue;
    }
    for (const segment of segments(content)) {
      if (segment.kind !== "prose") {
        dropped.push({ text: segment.text, reason: segment.kind, message });
        continue;
      }
      for (const sentence of taggedSentences(segment.text)) {
        const verdict = readSentence(sentence);
        if ("reason" in verdict) {
          dropped.push({ text: sentence.text, reason: verdict.reason, message });
          continue;
        }
        const importance =
          verdict.category === null
            ? UNKNOWN_IMPORTANCE
            : (categories[verdict.category]?.importance ?? UNKNOWN_IMPORTANCE);
        if (importance < threshold) {
          dropped.push({ text: sentence.text, reason: "below_threshold", message });
          continue;
        }
        kept.push({
          text: redactStatedPassword(verdict.text, sentence),
          source: sentence.text,
          category: verdict.category,
          importance,
          message,
        });
      }
    }
  }
  return { kept, dropped };
}

// ---- segments: prose, code and tool output -------------------------------------------------

type Segment = { kind: "prose" | "code" | "tool_output"; text: string };

const FENCE = /```[\s\S]*?(?:```|$)/gu;

/** A message cut into paragraphs, fenced code and paragraphs that read as program output. */
function segments(content: string): Segment[] {
  const result: Segment[] = [];
  let last = 0;
  for (const match of content.matchAll(FENCE)) {
    result.push(...paragraphs(content.slice(last, match.index)));
    result.push({ kind: "code", text: match[0] });
    last = (match.index ?? 0) + match[0].length;
  }
  result.push(...paragraphs(content.slice(last)));
  return result;
}

function paragraphs(text: string): Segment[] {
  return text
    .split(/\n\s*\n/u)
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => ({ kind: looksLikeOutput(part) ? "tool_output" : "prose", text: part }));
}

// Lines as programs print them: stack frames, prompts, diffs, log stamps, key=value dumps,
// brackets, statements ending in `;` or `{`, tables aligned with runs of spaces.
const OUTPUT_LINE =
  /^\s*(?:at\s+\S+|\$\s|>\s|[+-]{1,3}\s|@@|#\d|\d{2}:\d{2}:\d{2}|\d{4}-\d{2}-\d{2}[T ]\d{2}:|[[{(<|]|(?:error|warn(?:ing)?|info|debug|traceback|exception)\b[:\s[]|\S+=\S+(?:\s+\S+=\S+)+|.*[{};]\s*$|.*\S\s{3,}\S)/iu;

function looksLikeOutput(text: string): boolean {
  const trimmed = text.trim();
  if (/^[[{]/u.test(trimmed)) {
    try {
      JSON.parse(trimmed);
      return true;
    } catch {
      // not JSON: read as text below
    }
  }
  const lines = trimmed.split("\n").filter((line) => line.trim() !== "");
  if (lines.length >= 2 && lines.filter((line) => OUTPUT_LINE.test(line)).length / lines.length >= 0.5) {
    return true;
  }
  const letters = trimmed.match(/[\p{L}\s]/gu)?.length ?? 0;
  return trimmed.length >= 20 && letters / trimmed.length < 0.7;
}

// ---- sentences -------------------------------------------------------------------------------

type Verdict = { reason: TriageDropReason } | { text: string; category: string | null };

const words = (list: string) => new Set(list.split(/\s+/u));

/** Words that open a sentence without saying anything: "oh, and", "btw", "ok so". */
const FILLERS = words(
  "oh ok okay so and also btw anyway anyways well alright right hey hi hello yeah yes yep no nope sure " +
    "actually fyi cool great nice awesome perfect thanks thank um uh hmm ah",
);
const FILLER_PHRASES = [
  ["by", "the", "way"],
  ["just", "so", "you", "know"],
  ["for", "the", "record"],
  ["for", "context"],
  ["for", "reference"],
  ["quick", "note"],
  ["one", "more", "thing"],
];

/** Nouns of greeting, thanks and assent: "good morning", "no worries", "makes sense". */
const SMALL_TALK_NOUNS = words(
  "thanks thank morning night evening afternoon day weekend lol haha hahaha problem worries sense " +
    "point idea job work luck bye cheers welcome pleasure deal thing way lot bit",
);
const SMALL_TALK_ADJECTIVES = words(
  "good great fine ok okay sure done ready glad happy sorry nice cool awesome perfect right correct true wrong clear",
);

const QUESTION_WORDS = words("what why how when where which who whom whose");
const WONDERING = words("wonder wondering curious");
const KNOWING = words("know ask sure idea tell check find");
const CLAUSE_OPENERS = words("if whether what why how when where which who");

const STANDING = words("always never whenever");
const STANDING_PHRASES = [
  ["from", "now", "on"],
  ["going", "forward"],
  ["in", "future"],
  ["in", "the", "future"],
  ["every", "time"],
  ["each", "time"],
  ["by", "default"],
  ["at", "all", "times"],
  ["no", "matter", "what"],
  ["as", "a", "rule"],
];
const OBLIGATION = words("must should");

const HEDGES = words("maybe perhaps possibly probably might someday hopefully wish considering");
const HEDGE_PHRASES = [
  ["thinking", "about"],
  ["thinking", "of"],
  ["not", "sure"],
  ["some", "day"],
  ["one", "day"],
  ["i", "guess"],
  ["would", "be", "nice"],
  ["at", "some", "point"],
];

/** When the statement is about now, not in general: "right now", "yesterday", "this morning". */
// Not "now" or "currently": "I now live in Berlin" and "I currently work at Acme" are news, not moods.
const MOMENT = words("today tonight yesterday brb earlier lately");
const MOMENT_PHRASES = [
  ["right", "now"],
  ["at", "the", "moment"],
  ["for", "now"],
  ["this", "morning"],
  ["this", "afternoon"],
  ["this", "evening"],
  ["this", "week"],
  ["this", "weekend"],
  ["last", "night"],
  ["last", "week"],
  ["be", "right", "back"],
  ["in", "a", "minute"],
];
/** How someone is at the moment. */
const PASSING_STATES = words(
  "tired hungry sleepy busy bored stressed sick exhausted late away back off online offline afk annoyed frustrated",
);
/** What a process is doing: "the build is running". */
const PROCESS_VERBS = words(
  "running building compiling deploying loading downloading installing uploading waiting failing restarting " +
    "crashing hanging rebooting syncing updating processing",
);

const DECIDING = words(
  "decide decided decision agreed agree chose chosen choose picked settled opted switched switching adopted " +
    "standardized standardised committed finalized finalised",
);
/** "let's go with", "we'll use", "we're sticking with": a choice made, verb + particle. */
const CHOOSING = words("go going use using stick sticking keep pick choose switch adopt settle");
const LIKING = words(
  "like likes liked love loves loved prefer prefers preferred enjoy enjoys hate hates hated dislike " +
    "dislikes detest adore favourite favorite fond fan rather",
);
const BEING = words("am 'm was");
const SELF_FACTS = words(
  "live lived work worked born grew speak speaks study studied moved name job role profession " +
    "allergic vegetarian vegan diabetic married single retired",
);
const PEOPLE = words(
  "sister brother wife husband partner girlfriend boyfriend fiance fiancee mom mum mother dad father " +
    "parents son daughter kid kids child children baby friend friends colleague colleagues coworker " +
    "coworkers boss manager teammate teammates neighbour neighbor cousin aunt uncle grandma grandpa " +
    "grandmother grandfather niece nephew dog cat pet roommate landlord client customer team family",
);
const SETTINGS = words(
  "port host hostname url endpoint config configuration configured setting settings env environment " +
    "variable path directory folder ip dns ssh wifi password key token region timezone domain " +
    "address proxy credentials account username email bucket cluster namespace",
);
const PROJECT_WORDS = words(
  "project repo repository app application product launch release deadline milestone sprint roadmap " +
    "client feature website site startup company business",
);

function readSentence(sentence: TaggedSentence): Verdict {
  const all = sentence.words.filter((word) => word.tag !== "PUNCT" && word.tag !== "SPACE");
  const core = withoutFillers(all);
  const lowers = core.map((word) => word.lower);
  const text = trimFillers(sentence.text, all.length - core.length);

  if (core.length === 0) return { reason: "chatter" };
  if (isQuestion(sentence, core, lowers)) return { reason: "question" };
  // "Here's the log:" introduces what follows; it says nothing itself.
  if (/:\s*$/u.test(sentence.text)) return { reason: "chatter" };

  const imperative = isImperative(core);
  const standing = lowers.some((word) => STANDING.has(word)) || hasPhrase(lowers, STANDING_PHRASES);
  // Before the chatter test: "Please always answer in French" is about how, not about a thing.
  if (standing && (imperative || lowers.some((word) => OBLIGATION.has(word))))
    return { text, category: "rule" };
  if (!saysSomething(core)) return { reason: "chatter" };
  if (lowers.some((word) => HEDGES.has(word)) || hasPhrase(lowers, HEDGE_PHRASES) || lowers[0] === "if")
    return { reason: "hypothetical" };
  if (lowers.some((word, index) => word === "could" && lowers[index + 1] !== "you"))
    return { reason: "hypothetical" };

  const deciding = lowers.some((word) => DECIDING.has(word)) || choosesWithParticle(lowers);
  if (imperative) {
    // "Let's go with Vitest" settles something; "let's look at the logs" is this turn's work.
    if (lowers[0] === "let" && deciding) return { text, category: "decision" };
    return { reason: "request" };
  }
  if (asksOfAssistant(lowers)) return { reason: "request" };
  if (deciding) return { text, category: "decision" };
  if (isMomentary(core, lowers)) return { reason: "transient" };
  if (standing && firstPerson(lowers)) return { text, category: "preference" };
  return { text, category: categoryOf(core, lowers) };
}

function withoutFillers(all: readonly TaggedWord[]): TaggedWord[] {
  let start = 0;
  for (;;) {
    const word = all[start];
    if (word === undefined) break;
    const phrase = FILLER_PHRASES.find((each) =>
      each.every((part, index) => all[start + index]?.lower === part),
    );
    if (phrase !== undefined) {
      start += phrase.length;
      continue;
    }
    // "please" is kept: it marks a request, which is read below.
    if (FILLERS.has(word.lower) || (word.tag === "INTJ" && word.lower !== "please")) {
      start += 1;
      continue;
    }
    break;
  }
  return all.slice(start);
}

/** The sentence without its first `count` filler words, capitalised again. */
function trimFillers(text: string, count: number): string {
  if (count === 0) return text;
  let rest = text;
  for (let index = 0; index < count; index++) rest = rest.replace(/^[\s,.;:!–—-]*[^\s,.;:!]+/u, "");
  rest = rest.replace(/^[\s,.;:!–—-]+/u, "");
  return rest === "" ? text : `${rest.charAt(0).toUpperCase()}${rest.slice(1)}`;
}

function isQuestion(
  sentence: TaggedSentence,
  core: readonly TaggedWord[],
  lowers: readonly string[],
): boolean {
  if (/\?\s*["')\]]*\s*$/u.test(sentence.text)) return true;
  const [first, second] = core;
  if (first === undefined) return false;
  if (
    QUESTION_WORDS.has(first.lower) &&
    second !== undefined &&
    (second.tag === "AUX" || second.tag === "VERB")
  )
    return true;
  // "Is there…", "Do we…", "Can you…": an auxiliary before its subject.
  if (first.tag === "AUX" && second !== undefined && ["PRON", "DET", "PROPN", "NOUN"].includes(second.tag))
    return !(first.lower === "do" && (second.lower === "not" || second.lower === "n't"));
  // "I wonder whether…", "I'd like to know if…", "not sure what…".
  if (lowers.some((word) => WONDERING.has(word))) return true;
  return lowers.some(
    (word, index) =>
      KNOWING.has(word) && lowers.slice(index + 1, index + 3).some((next) => CLAUSE_OPENERS.has(next)),
  );
}

/** A noun, name or number that is not small talk, or "I'm vegetarian": the sentence is about something. */
function saysSomething(core: readonly TaggedWord[]): boolean {
  const aboutSomething = core.some(
    (word) =>
      (word.tag === "NOUN" && !SMALL_TALK_NOUNS.has(word.lower)) ||
      word.tag === "PROPN" ||
      word.tag === "NUM",
  );
  if (aboutSomething) return true;
  return core.some(
    (word, index) =>
      word.tag === "ADJ" &&
      !SMALL_TALK_ADJECTIVES.has(word.lower) &&
      !PASSING_STATES.has(word.lower) &&
      core.slice(0, index).some((before) => before.tag === "AUX"),
  );
}

/** Starts with a verb and no subject ("Fix this", "Always use tabs", "Please book it", "Don't push"). */
function isImperative(core: readonly TaggedWord[]): boolean {
  let index = 0;
  while (core[index]?.lower === "please" || core[index]?.tag === "ADV") index += 1;
  const first = core[index];
  if (first === undefined) return false;
  if (first.lower === "do" || first.lower === "don't") {
    const next = core[index + 1];
    return next !== undefined && (next.lower === "n't" || next.lower === "not" || next.tag === "VERB");
  }
  if (first.tag === "VERB") return !/(?:ing|ed)$/u.test(first.lower);
  // The tagger reads a sentence-initial verb it does not expect as a noun ("Review/NOUN this
  // patch"). A sentence with no verb at all whose first word governs a determiner or a pronoun
  // ("… this patch", "… it") can only be an order, with that first word its verb.
  const next = core[index + 1];
  const hasVerb = core.some((word) => word.tag === "VERB" || word.tag === "AUX");
  const object =
    next !== undefined &&
    ((next.tag === "DET" && OBJECT_DETERMINERS.has(next.lower)) ||
      (next.tag === "PRON" && next.lower !== "i"));
  return !hasVerb && !["DET", "PRON", "NUM", "PUNCT"].includes(first.tag) && object;
}

/** Determiners that open a verb's object ("review this patch"); not quantifiers ("no sugar", "every day"). */
const OBJECT_DETERMINERS = words("the a an this that these those my your our his her its their");

/** "I need you to…", "I want you to…", "help me…": the user asking for something now. */
function asksOfAssistant(lowers: readonly string[]): boolean {
  return lowers.some(
    (word, index) =>
      (["need", "want", "like", "needs"].includes(word) && lowers[index + 1] === "you") ||
      (word === "help" && lowers[index + 1] === "me"),
  );
}

function choosesWithParticle(lowers: readonly string[]): boolean {
  return lowers.some((word, index) => {
    if (!CHOOSING.has(word)) return false;
    const next = lowers[index + 1];
    const before = lowers.slice(Math.max(0, index - 2), index);
    const future = before.some((each) => ["'ll", "will", "going", "'re", "are", "let", "'s"].includes(each));
    return (
      (future && (next === "with" || next === "to" || word === "use" || word === "using")) || next === "with"
    );
  });
}

function isMomentary(core: readonly TaggedWord[], lowers: readonly string[]): boolean {
  if (lowers.some((word) => MOMENT.has(word)) || hasPhrase(lowers, MOMENT_PHRASES)) return true;
  if (lowers.some((word) => PASSING_STATES.has(word)) && core.some((word) => word.tag === "AUX")) return true;
  return core.some(
    (word, index) => PROCESS_VERBS.has(word.lower) && core[index - 1]?.tag === "AUX" && !firstPerson(lowers),
  );
}

const firstPerson = (lowers: readonly string[]) =>
  lowers.some((word) => word === "i" || word === "my" || word === "me" || word === "i'm");

function categoryOf(core: readonly TaggedWord[], lowers: readonly string[]): string | null {
  if (
    lowers.some((word) => LIKING.has(word)) ||
    hasPhrase(lowers, [
      ["ca", "n't", "stand"],
      ["can't", "stand"],
    ])
  )
    return "preference";
  const mine = firstPerson(lowers);
  // "My brother Rui is allergic…" is about the brother: a person named before the verb is the subject.
  const verb = core.findIndex((word) => word.tag === "VERB" || word.tag === "AUX");
  const subject = lowers.slice(0, verb === -1 ? lowers.length : verb);
  if (subject.some((word) => PEOPLE.has(word))) return "relationship";
  if (mine && (lowers.some((word) => SELF_FACTS.has(word)) || beingSomething(core))) return "identity";
  if (lowers.some((word) => PEOPLE.has(word))) return "relationship";
  if (lowers.some((word) => SETTINGS.has(word))) return "configuration";
  if (lowers.some((word) => isDomainTerm(word))) return "technical";
  if (lowers.some((word) => PROJECT_WORDS.has(word))) return "project";
  if (mine) return "identity";
  // "Ana is a nurse", "Marco works at the bakery": a named subject.
  if (core[0]?.tag === "PROPN") return "relationship";
  return null;
}

/** "I'm a nurse", "I am left-handed": the user described by a copula. */
function beingSomething(core: readonly TaggedWord[]): boolean {
  return core.some(
    (word, index) =>
      BEING.has(word.lower) &&
      core[index - 1]?.lower === "i" &&
      core
        .slice(index + 1)
        .some((after) => after.tag === "NOUN" || after.tag === "ADJ" || after.tag === "PROPN"),
  );
}

function hasPhrase(lowers: readonly string[], phrases: readonly (readonly string[])[]): boolean {
  return phrases.some((phrase) =>
    lowers.some((_, start) => phrase.every((part, offset) => lowers[start + offset] === part)),
  );
}
