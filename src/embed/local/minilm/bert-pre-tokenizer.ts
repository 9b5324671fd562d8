/**
 * BERT's pre-tokenisation: split normalised text into words on whitespace (dropped) and punctuation
 * (each mark its own word), as `tokenizers`' BertPreTokenizer does.
 *
 * @module
 */

/**
 * Punctuation is every ASCII symbol (33–47, 58–64, 91–96, 123–126, so `$`, `+`, `<`, `^`, `|` too)
 * and every Unicode P* character.
 */
const PUNCTUATION = /[!-/:-@[-`{-~]|\p{P}/u;
const WHITESPACE = /\s/u;

/**
 * The words of already-normalised text, in order.
 *
 * @example
 * splitBertWords("hey friend!  how are you?!?"); // → ["hey", "friend", "!", "how", "are", "you", "?", "!", "?"]
 */
export function splitBertWords(text: string): string[] {
  const words: string[] = [];
  let word = "";
  for (const char of text) {
    if (WHITESPACE.test(char)) {
      if (word !== "") words.push(word);
      word = "";
    } else if (PUNCTUATION.test(char)) {
      if (word !== "") words.push(word);
      words.push(char);
      word = "";
    } else {
      word += char;
    }
  }
  if (word !== "") words.push(word);
  return words;
}
