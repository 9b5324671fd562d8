/**
 * Template swaps: the same sentence with one or two words replaced ("Jordan's dentist appointment is
 * on Monday" / "Jordan's physio appointment is on Monday"; "aisle seats on long flights" / "window
 * seats on short flights"; "works remotely" / "works from the office"). Paraphrases reorder, add
 * and drop words; a sentence that only swaps words in place says the same thing about something
 * else. Swapped verbs are the exception: "goes to" / "attends", "is training for" / "plans to run"
 * say the same thing in other words, so a swap counts only when one of its places swaps words
 * that are not verbs on either side (the part-of-speech tagger decides).
 *
 * @module
 */

import { verbsIn } from "../../../text/proper-nouns.js";
import { foldWord } from "../../../text/stem.js";
import { STOP_WORDS } from "../../../text/stop-words.js";
import { foldShortForm } from "./value-slots.js";

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'-]*/gu;
/** At most this many swapped places, each at most this many words long. */
const MAX_SWAPS = 2;
const MAX_SWAP_WORDS = 2;
/** The unchanged words must be most of the sentence, or it is a rewrite, not a swap. */
const MIN_SHARED_SHARE = 0.5;
// Sentences longer than this are compared by their other details only: the alignment is quadratic.
const MAX_WORDS = 40;

/**
 * The swapped words ("dentist → physio"), or undefined when the two are not one template.
 *
 * @example
 * findSubstitution("Jordan is allergic to penicillin", "Jordan is allergic to pollen");
 * // => ["penicillin → pollen"]
 * findSubstitution("User prefers tabs", "User likes tabs"); // => undefined (synonyms)
 */
export function findSubstitution(a: string, b: string): string[] | undefined {
  const x = tokens(a);
  const y = tokens(b);
  if (x.length === 0 || y.length === 0 || x.length > MAX_WORDS || y.length > MAX_WORDS) return undefined;
  // "is lactose intolerant" / "has lactose intolerance": swapping function words changes no fact.
  const hunks = diff(x, y).filter((hunk) => hunk.from.some(isContent) || hunk.to.some(isContent));
  if (hunks.length === 0 || hunks.length > MAX_SWAPS) return undefined;
  const swapped = hunks.reduce((sum, hunk) => sum + Math.max(hunk.from.length, hunk.to.length), 0);
  if ((Math.max(x.length, y.length) - swapped) / Math.max(x.length, y.length) < MIN_SHARED_SHARE)
    return undefined;
  // Content words only: "remotely" → "from the office" swaps one word for one, with a preposition.
  const contentCount = (words: readonly string[]) => words.filter(isContent).length;
  const isSwap = (hunk: Hunk) =>
    hunk.from.some(isContent) &&
    hunk.to.some(isContent) &&
    contentCount(hunk.from) <= MAX_SWAP_WORDS &&
    contentCount(hunk.to) <= MAX_SWAP_WORDS;
  if (!hunks.every(isSwap)) return undefined;
  const verbsA = verbsIn(a);
  const verbsB = verbsIn(b);
  const noVerb = (words: readonly string[], verbs: ReadonlySet<string>) =>
    words.filter(isContent).every((word) => !verbs.has(word));
  if (!hunks.some((hunk) => noVerb(hunk.fromText, verbsA) && noVerb(hunk.toText, verbsB))) return undefined;
  return hunks.map((hunk) => `${hunk.fromText.join(" ")} → ${hunk.toText.join(" ")}`);
}

function isContent(word: string): boolean {
  return !STOP_WORDS.has(word);
}

interface Token {
  readonly text: string;
  /** Compared form: stemmed, synonyms folded. */
  readonly key: string;
}

interface Hunk {
  readonly from: readonly string[];
  readonly to: readonly string[];
  readonly fromText: readonly string[];
  readonly toText: readonly string[];
}

function tokens(text: string): Token[] {
  return (text.toLowerCase().match(WORD) ?? []).map((word) => {
    const bare = word.replace(/'s$/u, "");
    // "k8s" and "kubernetes" are one word written two ways, not a swap.
    return { text: bare, key: STOP_WORDS.has(bare) ? bare : foldWord(foldShortForm(bare)) };
  });
}

/** The changed runs between two token lists, from their longest common subsequence. */
function diff(x: readonly Token[], y: readonly Token[]): Hunk[] {
  const rows = x.length + 1;
  const cols = y.length + 1;
  const lcs = new Uint16Array(rows * cols);
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) {
      lcs[i * cols + j] =
        x[i]?.key === y[j]?.key
          ? (lcs[(i + 1) * cols + j + 1] as number) + 1
          : Math.max(lcs[(i + 1) * cols + j] as number, lcs[i * cols + j + 1] as number);
    }
  }
  const hunks: Hunk[] = [];
  let from: Token[] = [];
  let to: Token[] = [];
  const flush = () => {
    if (from.length + to.length > 0) {
      hunks.push({
        from: from.map((t) => t.key),
        to: to.map((t) => t.key),
        fromText: from.map((t) => t.text),
        toText: to.map((t) => t.text),
      });
    }
    from = [];
    to = [];
  };
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i]?.key === y[j]?.key) {
      flush();
      i++;
      j++;
    } else if (
      j >= y.length ||
      (i < x.length && (lcs[(i + 1) * cols + j] as number) >= (lcs[i * cols + j + 1] as number))
    ) {
      from.push(x[i] as Token);
      i++;
    } else {
      to.push(y[j] as Token);
      j++;
    }
  }
  flush();
  return hunks;
}
