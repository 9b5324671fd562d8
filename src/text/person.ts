/**
 * First person to third: "I prefer tabs" → "User prefers tabs", as Mem0's dream protocol asks
 * of every memory (a memory is read later by an agent that did not hear who "I" was).
 *
 * Rules, in order of how often they matter:
 * - `I` / `I'm` / `I've` / `I'll` / `I'd` become "User" at the start of a sentence and "the user"
 *   elsewhere, and the verb that follows (past any adverbs: "I really like") agrees with it;
 * - a second verb joined by "and"/"but"/"or" is conjugated too when it is a common verb;
 * - `my`/`mine` become "their"/"theirs" once the sentence's subject has become the user ("User
 *   keeps their bike"), else "the user's" ("User's" at a sentence start); `me` becomes "the user",
 *   `myself` "themselves";
 * - "Alice and I prefer" keeps its plural verb ("My name is Ana and I live" does not: two clauses);
 *   "World War I" and "Type I" are not pronouns;
 * - nothing inside quotation marks or backticks changes: those are someone's exact words.
 * "We"/"our" are left alone: whether they mean the user's team or family is not in the text.
 *
 * @module
 */

import { COMMON_VERBS, isLikelyVerb, PRE_VERB_ADVERBS, thirdPersonVerb } from "./english-verbs.js";

export interface PersonRewrite {
  readonly text: string;
  /** The first-person words that were replaced, in order (lower-cased). */
  readonly replaced: readonly string[];
}

const TOKEN = /[\p{L}\p{N}]+(?:['\u2019][\p{L}]+)*|[^\p{L}\p{N}]+/gu;
const QUOTED = /"[^"\n]*"|\u201C[^\u201D\n]*\u201D|`[^`\n]*`/gu;
const CONJUNCTIONS = new Set(["and", "but", "or"]);
const COORDINATORS = new Set(["and", "or", "nor"]);

interface Token {
  text: string;
  readonly word: boolean;
  /** Inside quotes or backticks: never changed. */
  readonly quoted: boolean;
}

/**
 * Rewrites first-person references to the user in the third person.
 *
 * @example
 * toThirdPerson("I prefer tabs and use Vim for my dotfiles.").text;
 * // => "User prefers tabs and uses Vim for their dotfiles."
 * toThirdPerson("I'm allergic to peanuts").text; // => "User is allergic to peanuts"
 */
export function toThirdPerson(text: string): PersonRewrite {
  const tokens = tokenise(text);
  const replaced: string[] = [];
  // Whether this sentence's "I" has become the user: "my" after it reads "their".
  let userIsSubject = false;
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] as Token;
    if (!token.word || token.quoted) continue;
    const start = atSentenceStart(tokens, index);
    if (start) userIsSubject = false;
    const lower = token.text.toLowerCase().replace(/\u2019/gu, "'");
    const subject = start ? "User" : "the user";
    if (isSubjectPronoun(tokens, index, lower)) {
      replaced.push(lower);
      const plural = inCompoundSubject(tokens, index);
      token.text = contraction(lower, subject, tokens, index) ?? subject;
      if (lower === "i" && !plural) conjugateFollowing(tokens, index);
      // "Alice and I … my" could be either of them: only a user alone owns "their".
      if (!plural) userIsSubject = true;
    } else if (lower === "my" || lower === "mine") {
      replaced.push(lower);
      token.text = userIsSubject ? (lower === "my" ? "their" : "theirs") : start ? "User's" : "the user's";
    } else if (lower === "me" && token.text !== "ME") {
      replaced.push(lower);
      token.text = start ? "The user" : "the user";
    } else if (lower === "myself") {
      replaced.push(lower);
      token.text = "themselves";
    }
  }
  return { text: tokens.map((token) => token.text).join(""), replaced };
}

function tokenise(text: string): Token[] {
  const quoted: [number, number][] = [...text.matchAll(QUOTED)].map((m) => [m.index, m.index + m[0].length]);
  return [...text.matchAll(TOKEN)].map((match) => ({
    text: match[0],
    word: /^[\p{L}\p{N}]/u.test(match[0]),
    quoted: quoted.some(([from, to]) => match.index >= from && match.index < to),
  }));
}

/** `I` as a pronoun: a capital I (or a lone lower-case i typed in a hurry) not named by the word before it. */
function isSubjectPronoun(tokens: readonly Token[], index: number, lower: string): boolean {
  const token = tokens[index] as Token;
  if (!/^i(?:'m|'ve|'ll|'d)?$/u.test(lower)) return false;
  if (lower === "i" && token.text === "i" && /^\./u.test(tokens[index + 1]?.text ?? "")) return false; // i.e.
  const after = tokens[index + 1]?.text ?? "";
  if (after !== "" && !/^(?:\s|[,;:!?)]|\.(?:\s|$))/u.test(after)) return false; // I/O, I-95
  const before = previousWord(tokens, index);
  // "World War I", "Type I", "Part I": a capitalised word right before it. At a sentence start
  // ("Yesterday I went", "Type I diabetes") only a verb after it makes it a pronoun.
  const gap = tokens[index - 1]?.text ?? "";
  if (before === undefined || !/^\p{Lu}/u.test(before) || gap !== " ") return true;
  if (!atSentenceStart(tokens, index - 2)) return false;
  const next = nextWordIndex(tokens, index);
  return lower !== "i" || (next !== undefined && isLikelyVerb((tokens[next] as Token).text));
}

/**
 * "Alice and I prefer": `I` is one of two subjects, and the verb stays plural. Not when a verb
 * comes before the "and" in the sentence: then "and" joins two clauses ("My name is Ana and I
 * live in Porto") and this `I` is a subject of its own.
 */
function inCompoundSubject(tokens: readonly Token[], index: number): boolean {
  if (!COORDINATORS.has(previousWord(tokens, index)?.toLowerCase() ?? "")) return false;
  for (let at = index - 1; at >= 0; at--) {
    const token = tokens[at] as Token;
    if (token.word && at < index - 2 && isFiniteVerb(token.text)) return false;
    if (token.word && atSentenceStart(tokens, at)) break;
  }
  return true;
}

const THIRD_PERSON_AUXILIARIES = new Set(["is", "are", "was", "were", "has", "had", "does", "did", "am"]);

/** A verb of any person: "went", "is", "likes" (a common verb's third-person form). */
function isFiniteVerb(word: string): boolean {
  const lower = word.toLowerCase();
  if (isLikelyVerb(lower) || THIRD_PERSON_AUXILIARIES.has(lower)) return true;
  const stems = [lower.replace(/ies$/u, "y"), lower.replace(/es$/u, ""), lower.replace(/s$/u, "")];
  return lower.endsWith("s") && stems.some((stem) => stem !== lower && COMMON_VERBS.has(stem));
}

function contraction(
  lower: string,
  subject: string,
  tokens: readonly Token[],
  index: number,
): string | undefined {
  if (lower === "i'm") return `${subject} is`;
  if (lower === "i've") return `${subject} has`;
  if (lower === "i'll") return `${subject} will`;
  if (lower !== "i'd") return undefined;
  const next = nextWordIndex(tokens, index);
  const verb = next === undefined ? "" : (tokens[next] as Token).text.toLowerCase();
  // "I'd been", "I'd moved": had; "I'd like": would.
  return /^(?:been|had|gone|done|seen|known|taken|given|ed)$|ed$/u.test(verb)
    ? `${subject} had`
    : `${subject} would`;
}

/**
 * An adverb between `I` and its verb: a common one ("really", "usually"), "no longer" / "no more",
 * or a word of six letters or more in -ly other than -ply ("hardly", "barely"; not "apply", "rely").
 */
function isAdverbBeforeVerb(tokens: readonly Token[], at: number): boolean {
  const word = (tokens[at] as Token).text.toLowerCase();
  if (PRE_VERB_ADVERBS.has(word)) return true;
  if (word === "no") {
    const next = nextWordIndex(tokens, at);
    const after = next === undefined ? "" : (tokens[next] as Token).text.toLowerCase();
    return after === "longer" || after === "more";
  }
  return word.length >= 6 && word.endsWith("ly") && !word.endsWith("ply");
}

/** Conjugates the verb after `I` (skipping adverbs) and any common verb coordinated with it. */
function conjugateFollowing(tokens: Token[], index: number): void {
  let at = nextWordIndex(tokens, index);
  while (at !== undefined && isAdverbBeforeVerb(tokens, at)) {
    const word = (tokens[at] as Token).text.toLowerCase();
    at = nextWordIndex(tokens, at);
    // "no longer", "no more": two words, one adverb.
    if (word === "no" && at !== undefined) at = nextWordIndex(tokens, at);
  }
  if (at === undefined || (tokens[at] as Token).quoted) return;
  if (!/^\s+$/u.test(tokens[index + 1]?.text ?? "")) return; // "I, Alice, approve"
  const verb = tokens[at] as Token;
  if (/^\p{Lu}/u.test(verb.text)) return; // "I, Alice" / a name: not a verb
  if (verb.text.toLowerCase() === "am" && tokens[at + 2]?.text.toLowerCase() === "not") {
    verb.text = "is";
    return;
  }
  verb.text = thirdPersonVerb(verb.text);
  for (let next = nextWordIndex(tokens, at); next !== undefined; next = nextWordIndex(tokens, next)) {
    const gap = tokens[next - 1]?.text ?? "";
    if (/[.!?;]/u.test(gap)) return;
    const word = tokens[next] as Token;
    if (!CONJUNCTIONS.has(word.text.toLowerCase())) continue;
    const following = nextWordIndex(tokens, next);
    const candidate = following === undefined ? undefined : (tokens[following] as Token);
    if (candidate !== undefined && !candidate.quoted && COMMON_VERBS.has(candidate.text)) {
      candidate.text = thirdPersonVerb(candidate.text);
    }
    return;
  }
}

function atSentenceStart(tokens: readonly Token[], index: number): boolean {
  for (let at = index - 1; at >= 0; at--) {
    const token = tokens[at] as Token;
    if (token.word) return false;
    if (/[.!?:\n]/u.test(token.text)) return true;
  }
  return true;
}

function previousWord(tokens: readonly Token[], index: number): string | undefined {
  for (let at = index - 1; at >= 0; at--) if ((tokens[at] as Token).word) return (tokens[at] as Token).text;
  return undefined;
}

function nextWordIndex(tokens: readonly Token[], index: number): number | undefined {
  for (let at = index + 1; at < tokens.length; at++) if ((tokens[at] as Token).word) return at;
  return undefined;
}
