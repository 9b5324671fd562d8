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
 * @example
 * taggedSentences("Thanks! My sister is a nurse.").map((s) => s.text); // => ["Thanks!", "My sister is a nurse."]
 */
export function taggedSentences(text: string): TaggedSentence[] {
  const nlp = tagger();
  const doc = nlp.readDoc(text.replace(LONG_RUN, (run) => " ".repeat(run.length)));
  const sentences: TaggedSentence[] = [];
  doc.sentences().each((sentence: ItemSentence) => {
    const values = sentence.tokens().out() as string[];
    const tags = sentence.tokens().out(nlp.its.pos) as string[];
    const words = values.map((value, index) => ({
      value,
      lower: value.toLowerCase().replace(/\u2019/gu, "'"),
      tag: tags[index] ?? "X",
    }));
    const own = (sentence.out() as string).trim();
    if (own !== "") sentences.push({ text: own, words });
  });
  return sentences;
}
