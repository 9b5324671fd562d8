/**
 * Conversational filler stored as if it were a fact: acknowledgements ("ok", "got it", "thanks")
 * and greetings ("hi", "good morning"). Mem0's triage skill lists both under "never store"; its
 * dream protocol deletes acknowledgements.
 *
 * A text is chatter when every word in it is a chatter word, so "Sure, the user prefers
 * Postgres" never is.
 *
 * @module
 */

import type { NoiseRule } from "./noise-rule.js";

const ACKNOWLEDGEMENTS = new Set(
  (
    "ok okay okey k kk alright allright sure yes yeah yep yup ya no nope nah thanks thank you thx ty " +
    "tysm cheers great cool nice perfect awesome good fine done noted understood roger got it sounds " +
    "will do np problem welcome lol haha hah hmm hm ah oh right correct exactly agreed indeed " +
    "absolutely totally so much very a lot appreciated appreciate please continue go ahead proceed " +
    "that works makes sense all set sgtm lgtm ack wow neat gotcha for the help"
  ).split(" "),
);

const GREETINGS = new Set(
  (
    "hi hello hey hiya howdy yo morning afternoon evening night good bye goodbye byebye cya see " +
    "later soon tomorrow you there how are doing what's whats up sup greetings welcome back again " +
    "talk ttyl take care have a nice day everyone all folks team"
  ).split(" "),
);

const MAX_WORDS = 8;
const WORD = /[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu;

/**
 * @example
 * chatter("Got it, thanks!", {}); // => { rule: "acknowledgement", detail: 'acknowledgement: "Got it, thanks!"' }
 * chatter("Good morning!", {});   // => { rule: "greeting", … }
 * chatter("Sure, use Postgres", {}); // => undefined
 */
export const chatter: NoiseRule = (text) => {
  const words = [
    ...text
      .toLowerCase()
      .replace(/\u2019/gu, "'")
      .matchAll(WORD),
  ].map((match) => match[0]);
  if (words.length > MAX_WORDS) return undefined;
  // Emoji and punctuation alone ("👍", "...") say nothing either.
  if (words.length === 0) {
    return text.trim() === ""
      ? undefined
      : { rule: "acknowledgement", detail: `no words: ${JSON.stringify(text.trim())}` };
  }
  if (!words.every((word) => ACKNOWLEDGEMENTS.has(word) || GREETINGS.has(word))) return undefined;
  const greeting = words.some((word) => GREETINGS.has(word) && !ACKNOWLEDGEMENTS.has(word));
  const rule = greeting ? "greeting" : "acknowledgement";
  return { rule, detail: `${rule}: ${JSON.stringify(text.trim())}` };
};
