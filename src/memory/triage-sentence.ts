/**
 * One sentence of a user message read by its grammar (wink-nlp's tags): a question, a request,
 * chatter, a hedge or the state of the moment is dropped with its reason; a statement is kept with
 * its category. The rules are `triage.ts`'s.
 *
 * @module
 */

import { isDomainTerm } from "../text/domain-terms.js";
import type { TaggedSentence, TaggedWord } from "../text/sentences.js";
import type { TriageDropReason } from "./triage.js";
import {
  BEING,
  CHOOSING,
  CLAUSE_OPENERS,
  DECIDING,
  FILLER_PHRASES,
  FILLERS,
  HEDGE_PHRASES,
  HEDGES,
  KNOWING,
  LIKING,
  MOMENT,
  MOMENT_PHRASES,
  OBJECT_DETERMINERS,
  OBLIGATION,
  PASSING_STATES,
  PEOPLE,
  PROCESS_VERBS,
  PROJECT_WORDS,
  QUESTION_WORDS,
  SELF_FACTS,
  SETTINGS,
  SMALL_TALK_ADJECTIVES,
  SMALL_TALK_NOUNS,
  STANDING,
  STANDING_PHRASES,
  WONDERING,
} from "./triage-cues.js";

export type Verdict = { reason: TriageDropReason } | { text: string; category: string | null };

export function readSentence(sentence: TaggedSentence): Verdict {
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
