/**
 * Typographic quote folding shared by hashing, entity extraction and keyword search.
 *
 * @module
 */

// Every replacement is one UTF-16 unit for one UTF-16 unit, so offsets into the folded text are
// offsets into the original: entity extraction relies on that to line regex spans up with tokens.
const SINGLE_QUOTES = /[\u2018\u2019\u201A\u201B\u2032\u02BC\uFF07]/g;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\u2033\uFF02]/g;

/**
 * Replaces curly, low-9, prime and full-width quotes with `'` and `"`, keeping the text's length.
 *
 * Phones and word processors type `’` where people mean `'`; without folding, "User’s" and
 * "User's" would be different memories and different entities.
 *
 * @example
 * straightenQuotes("Caroline’s “Dune”"); // => `Caroline's "Dune"`
 */
export function straightenQuotes(text: string): string {
  return text.replace(SINGLE_QUOTES, "'").replace(DOUBLE_QUOTES, '"');
}
