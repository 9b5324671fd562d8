/**
 * Conversational filler stored as if it were a fact: acknowledgements ("ok", "got it", "thanks")
 * and greetings ("hi", "good morning"). Mem0's triage skill lists both under "never store"; its
 * dream protocol deletes acknowledgements.
 *
 * A text is chatter when every word in it is a chatter word, so "Sure, the user prefers
 * Postgres" never is. So is a report of chatter ("User said hi", "User thanked the assistant for
 * the help", "User asked what time it is"): the report frame taken off, nothing but chatter, or a
 * passing question about the time, is left. A lone word ("test", "asdf", "Kubernetes") states no
 * fact either.
 *
 * @module
 */

import type { NoiseMatch, NoiseRule } from "./noise-rule.js";

const ACKNOWLEDGEMENTS = new Set(
  (
    "ok okay okey k kk alright allright sure yes yeah yep yup ya no nope nah thanks thank you thx ty " +
    "tysm cheers great cool nice perfect awesome good fine done noted understood roger got it sounds " +
    "will do np problem welcome lol haha hah hmm hm ah oh right correct exactly agreed indeed " +
    "absolutely totally so much very a lot appreciated appreciate please continue go ahead proceed " +
    "that works makes sense all set sgtm lgtm ack wow neat gotcha for the help now let's lets do it " +
    "that's thats go plan " +
    // Thanks and "fine" in other languages.
    "gracias perfecto vale danke dir schön merci beaucoup grazie mille obrigado obrigada arigato " +
    "arigatou domo спасибо хорошо dank je wel tak"
  ).split(" "),
);

/** Words that only ever open a greeting (unlike "good", "see" or "take", which open facts too). */
const OPENERS = new Set(
  "hi hello hey hiya howdy namaste hola bonjour ciao salut salaam salam shalom konnichiwa hallo hej moin ahoj merhaba привет здравствуйте".split(
    " ",
  ),
);

const GREETINGS = new Set(
  (
    "hi hello hey hiya howdy yo morning afternoon evening night goodnight nite good bye goodbye byebye cya see " +
    "later soon tomorrow you there how are doing what's whats up sup greetings welcome back again " +
    "talk ttyl take care have a nice day everyone all folks team " +
    // Hello and goodbye in other languages people greet an assistant in.
    "namaste hola bonjour ciao salut salaam salam shalom konnichiwa hallo hej moin ahoj merhaba ola olá " +
    "привет здравствуйте пока adios adiós tschüss tschuss sayonara annyeong guten morgen tag abend " +
    "buenos buenas días dias tardes noches bonsoir buongiorno buonasera"
  ).split(" "),
);

const MAX_WORDS = 8;

// "User said", "The user thanked the assistant for", "Alice greeted everyone with".
const REPORTED =
  /^\s*(?:the\s+)?(?:user|assistant|agent|bot|\p{Lu}\p{Ll}+)\s+(?:just\s+)?(?<verb>said|says|wrote|writes|replied|replies|responded|responds|typed|sent|greeted|greets|thanked|thanks|waved|wished|asked|asks)\b(?:\s+(?:the\s+)?(?<object>assistant|agent|bot|user|you|me|us|everyone))?(?:\s+(?<prep>with|for|to|about|if)\b)?\s*[:,]?\s*["“'‘]?(?<rest>[^"”’]*?)["”'’]?\s*[.!?]?\s*$/iu;
// Questions asked in passing: about the time, the date, or how the assistant is.
const PASSING_QUESTION =
  /^(?:what|how)\s+the\s+weather\s+(?:is|was|will\s+be)(?:\s+like)?(?:\s+(?:today|tomorrow|now|outside))?$|^(?:for\s+)?(?:today's|the)\s+(?:date|weather|time)$|^what\s+time\s+is\s+it(?:\s+now)?$|^(?:what|the)\s+(?:the\s+)?(?:time|date|day)(?:\s+(?:it\s+is|is\s+it|it\s+was|was|is))?(?:\s+(?:in|at)\s+\p{Lu}[\p{L} ]{0,30})?$|^for\s+the\s+(?:time|date)$|^how\s+(?:the\s+assistant|you|it|i)\s+(?:is|are|was|am)(?:\s+doing)?$|^(?:whether|if)\s+it'?s\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|the\s+weekend)(?:\s+today)?$|^it'?s\s+(?:raining|sunny|cold|hot|snowing|windy|warm|nice|lovely|freezing)(?:\s+(?:outside|today|here|again))?$/iu;
// Thanks and greetings are chatter whatever they were for: "thanked the assistant for the recipe".
const COURTESY_VERBS = new Set(["greeted", "greets", "thanked", "thanks", "waved", "wished"]);
const MAX_COURTESY_OBJECT_WORDS = 5;
const WISH_VERBS = new Set(["wished", "greeted", "greets", "waved"]);
// A chat line saved as it was: "User: hi", "Assistant: ok".
const CHAT_LINE = /^\s*(?:user|human|assistant|ai|me|you)\s*:\s*(?<said>.+)$/iu;
// A second report in the same memory: "…greeted the assistant and asked how it was doing".
const NEXT_REPORT =
  /^(?:said|says|asked|asks|replied|wished|thanked|greeted|waved)\b(?:\s+(?:the\s+)?(?:assistant|agent|bot|user|you|me|us|everyone))?(?:\s+(?:with|for|to|about|if)\b)?\s*/iu;
// A test message: "test", "testing 123", "test test".
const TEST_INPUT = /^\s*(?:test(?:ing)?)(?:[\s,]+(?:test(?:ing)?|\d+))*\s*[.!?]*\s*$/iu;
const LONE_WORD = /^\s*\p{L}[\p{L}'-]{0,29}\s*[.!?;,:]*\s*$/u;
// What a chat log says about itself: "Session started", "Conversation ended.", "User was silent.".
const SESSION_EVENT =
  /^\s*(?:(?:the\s+)?(?:session|conversation|chat|call)\s+(?:started|ended|closed|opened|resumed|timed out|expired)|(?:the\s+)?user\s+(?:was|is|went)\s+(?:silent|idle|away|offline|quiet)|user\s+acknowledged)\s*[.!]?\s*$/iu;
// An assistant's offer of help, saved as if it were a fact.
const ASSISTANT_FILLER =
  /^\s*(?:assistant|ai|bot)\s*:\s*(?:is there anything else i can (?:help|do)|how (?:else )?can i help|let me know if (?:you need|there's) anything|happy to help)[^.!?\n]{0,40}[.!?]?\s*$/iu;
const WORD = /[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu;
// A translation in brackets at the end of a report: "(good morning in Yoruba)", "(means 'thank you')".
const GLOSS =
  /\s*\((?:i\.e\.\s+|means?\s+|meaning\s+|=\s*)?["“'‘]?(?<meaning>[^()"“”'‘’]{1,60}?)["”'’]?(?:,?\s+in\s+\p{Lu}\p{Ll}+)?\)\s*[.!?]?\s*$/u;

/**
 * @example
 * chatter("Got it, thanks!", {}); // => { rule: "acknowledgement", detail: 'acknowledgement: "Got it, thanks!"' }
 * chatter("Good morning!", {});   // => { rule: "greeting", … }
 * chatter("Sure, use Postgres", {}); // => undefined
 */
export const chatter: NoiseRule = (text) => {
  // "User said 'e kaaro' (good morning in Yoruba)": the gloss says what the quoted words meant.
  // Only after a quotation: "User said they'd move to Berlin (good news)" is judged by what was said.
  const gloss = GLOSS.exec(text);
  const glossed = gloss !== null && /["”'’]\s*$/u.test(text.slice(0, gloss.index)) ? gloss : null;
  const reported = glossed === null ? text : text.slice(0, glossed.index);
  const report = REPORTED.exec(reported)?.groups;
  if (report !== undefined && glossed?.groups?.meaning !== undefined) report.rest = glossed.groups.meaning;
  if (report?.rest !== undefined) {
    // "…thanked the assistant for the recipe"; "Ben thanks people by sending cards" is a habit.
    // "…wished the assistant a good weekend": a wish or a greeting to the assistant is chatter too.
    const verb = (report.verb ?? "").toLowerCase();
    const courtesy =
      COURTESY_VERBS.has(verb) &&
      report.object !== undefined &&
      (report.prep?.toLowerCase() === "for" || WISH_VERBS.has(verb));
    // "said good morning to the assistant": whom it was said to is part of the report.
    const said = report.rest.replace(
      /\s+to\s+(?:the\s+)?(?:assistant|agent|bot|you|everyone|me|us)\s*$/iu,
      "",
    );
    const clauses = said.split(/(?:^|\s*,?\s+)and\s+/iu);
    const isChatter = (clause: string, index: number) => {
      const rest = (index === 0 ? clause : clause.replace(NEXT_REPORT, "")).trim();
      if (rest === "" || PASSING_QUESTION.test(rest) || chatterWords(rest) !== undefined) return true;
      return (
        index === 0 && courtesy && !/\d/u.test(rest) && rest.split(/\s+/u).length <= MAX_COURTESY_OBJECT_WORDS
      );
    };
    if (clauses.every(isChatter))
      return {
        rule: "reported_chatter",
        detail: `chatter reported as a memory: ${JSON.stringify(text.trim())}`,
      };
  }
  const line = CHAT_LINE.exec(text)?.groups?.said;
  if (line !== undefined && chatterWords(line) !== undefined)
    return {
      rule: "reported_chatter",
      detail: `a chat line with nothing in it: ${JSON.stringify(text.trim())}`,
    };
  if (SESSION_EVENT.test(text) || ASSISTANT_FILLER.test(text))
    return { rule: "chatter_event", detail: `a chat event, no fact: ${JSON.stringify(text.trim())}` };
  const own = chatterWords(text);
  if (own !== undefined) return own;
  return LONE_WORD.test(text) || TEST_INPUT.test(text)
    ? { rule: "fragment", detail: `one word, no fact: ${JSON.stringify(text.trim())}` }
    : undefined;
};

function chatterWords(text: string): NoiseMatch | undefined {
  const words = [
    ...text
      .toLowerCase()
      // "okkk", "hiii", "thxxx": a letter held down is still the word.
      .replace(/(\p{L})\1{2,}/gu, "$1")
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
  // A greeting and whom it greets: "hello ji", "hi Sam", "hola Marta".
  const [first, second] = words;
  if (words.length === 2 && first !== undefined && OPENERS.has(first) && !/\d/u.test(second ?? "0"))
    return { rule: "greeting", detail: `greeting: ${JSON.stringify(text.trim())}` };
  if (!words.every((word) => ACKNOWLEDGEMENTS.has(word) || GREETINGS.has(word))) return undefined;
  const greeting = words.some((word) => GREETINGS.has(word) && !ACKNOWLEDGEMENTS.has(word));
  const rule = greeting ? "greeting" : "acknowledgement";
  return { rule, detail: `${rule}: ${JSON.stringify(text.trim())}` };
}
