/**
 * Sentences with their words tagged (universal parts of speech: NOUN, PROPN, VERB, AUX, PRON…),
 * from wink-nlp's sentence splitter and tagger.
 *
 * @module
 */

import type { ItemSentence } from "wink-nlp";
import { tagger } from "./wink.js";

export interface TaggedWord {
  readonly value: string;
  readonly lower: string;
  readonly tag: string;
}

export interface TaggedSentence {
  readonly text: string;
  readonly words: readonly TaggedWord[];
}

// The tokenizer is quadratic in a run without spaces; such runs (hashes, minified code) are no
// sentence's words, so they are blanked before tagging and the sentence keeps its own text.
const LONG_RUN = /\S{100,}/gu;

/**
 * Sentences as wink-nlp splits them, except that a split inside a word ("tsconfig.json",
 * "db.staging.internal", "v1.2.3": a dot with a letter or digit right after it) is undone.
 *
 * @example
 * taggedSentences("Thanks! My sister is a nurse.").map((s) => s.text); // => ["Thanks!", "My sister is a nurse."]
 * taggedSentences("Open tsconfig.json now.").map((s) => s.text); // => ["Open tsconfig.json now."]
 */
export function taggedSentences(text: string): TaggedSentence[] {
  const nlp = tagger();
  const source = text.replace(LONG_RUN, (run) => " ".repeat(run.length));
  const doc = nlp.readDoc(source);
  // Offsets into `text` (the blanking keeps lengths), so a joined sentence is the text between.
  const spans: { start: number; end: number; words: TaggedWord[] }[] = [];
  let cursor = 0;
  doc.sentences().each((sentence: ItemSentence) => {
    const values = sentence.tokens().out() as string[];
    const tags = sentence.tokens().out(nlp.its.pos) as string[];
    const words = values.map((value, index) => ({
      value,
      lower: value.toLowerCase().replace(/\u2019/gu, "'"),
      tag: tags[index] ?? "X",
    }));
    const own = (sentence.out() as string).trim();
    if (own === "") return;
    const found = source.indexOf(own, cursor);
    const start = found === -1 ? cursor : found;
    const end = found === -1 ? cursor : found + own.length;
    cursor = end;
    const previous = spans.at(-1);
    const splitInsideWord =
      previous !== undefined && source[previous.end - 1] === "." && previous.end === start;
    if (splitInsideWord && /^[\p{L}\p{N}]/u.test(source.slice(start, start + 1))) {
      previous.end = end;
      previous.words.push(...words);
    } else spans.push({ start, end, words });
  });
  const sentences = spans.map((span) => ({
    text: text.slice(span.start, span.end).trim(),
    words: span.words,
  }));
  return sentences;
}
