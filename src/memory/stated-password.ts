/**
 * A password said in prose: "The wifi password is correcthorsebattery." The secret scanner finds
 * passwords by their shape (digits, symbols, mixed case: `hunter2!x`, `Summer2024`), because in an
 * arbitrary text a plain word after "password" is more often not one. A sentence the user says to
 * their agent that names a password field and gives it a value is different: it says what the
 * value is. Capture is automatic, so that value never reaches the store, whatever its shape.
 *
 * @module
 */

import { secretField } from "../secrets/field-names.js";
import type { TaggedSentence } from "../text/sentences.js";

const COPULAS = new Set(["is", "'s", "are", "was", "were", ":", "="]);
/** What a value reads as: a name, a number, a token the tagger cannot place. Not "long", "on", "the same". */
const VALUE_TAGS = new Set(["NOUN", "PROPN", "NUM", "X", "SYM"]);
/** Words between the field and the verb, a prepositional phrase: "wifi password *for the office* is …". */
const MAX_GAP = 3;

/**
 * `text` with a stated password's value replaced by `[REDACTED:password]` (the scanner's marker);
 * unchanged when the sentence states none.
 *
 * @example
 * redactStatedPassword("The wifi password is correcthorsebattery.", taggedSentences(…)[0]);
 * // => "The wifi password is [REDACTED:password]."
 */
export function redactStatedPassword(text: string, sentence: TaggedSentence): string {
  const { words } = sentence;
  for (let field = 0; field < words.length; field++) {
    if (secretField((words[field] as { lower: string }).lower) !== "password") continue;
    // The field must be the phrase's head: "password *for guests* is", not "password *manager* is".
    const after = words[field + 1] as { tag: string; lower: string } | undefined;
    if (after !== undefined && !COPULAS.has(after.lower) && after.tag !== "ADP") continue;
    for (let verb = field + 1; verb <= field + 1 + MAX_GAP && verb < words.length - 1; verb++) {
      const copula = words[verb] as { lower: string };
      if (!COPULAS.has(copula.lower)) continue;
      const value = words[verb + 1] as { value: string; tag: string };
      if (!VALUE_TAGS.has(value.tag) || value.value.startsWith("[REDACTED")) return text;
      return replaceValue(text, (words[field] as { value: string }).value, value.value);
    }
  }
  return text;
}

/** Replaces the whole whitespace-delimited value (the tagger may have split `abc-def!9`) after the field. */
function replaceValue(text: string, field: string, valueStart: string): string {
  const fieldAt = text.toLowerCase().indexOf(field.toLowerCase());
  if (fieldAt === -1) return text;
  const valueAt = text.indexOf(valueStart, fieldAt + field.length);
  if (valueAt === -1) return text;
  const rest = text.slice(valueAt);
  const token = /^\S+?(?=[.!?,;:)"']*(?:\s|$))/u.exec(rest)?.[0] ?? valueStart;
  return `${text.slice(0, valueAt)}[REDACTED:password]${text.slice(valueAt + token.length)}`;
}
