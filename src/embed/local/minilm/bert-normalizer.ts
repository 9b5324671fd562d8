/**
 * BERT's text normalisation for uncased models, as Hugging Face `tokenizers` (the engine that wrote
 * and reads all-MiniLM-L6-v2's tokenizer.json) does it, step for step: clean the text, space out CJK
 * ideographs, strip accents, lowercase.
 *
 * @module
 */

/**
 * `tokenizers` drops Cc, Cf and Co (its `is_other`, which leaves out unassigned and surrogate code
 * points) except tab, newline and carriage return, which count as whitespace.
 */
const DROPPED = /[\p{Cc}\p{Cf}\p{Co}\0\uFFFD]/u;
/** Rust's `char::is_whitespace` (the White_Space property): JavaScript's `\s` less U+FEFF, dropped above. */
const WHITESPACE = /\s/u;
const NONSPACING_MARKS = /\p{Mn}/gu;

/** The CJK ideograph blocks BERT spaces out, as listed in `tokenizers` (note the gap at U+2B820–U+2B91F). */
const CJK_RANGES: readonly (readonly [number, number])[] = [
  [0x4e00, 0x9fff],
  [0x3400, 0x4dbf],
  [0x20000, 0x2a6df],
  [0x2a700, 0x2b73f],
  [0x2b740, 0x2b81f],
  [0x2b920, 0x2ceaf],
  [0xf900, 0xfaff],
  [0x2f800, 0x2fa1f],
];

/**
 * Normalises `text` the way BertNormalizer({ clean_text, handle_chinese_chars, lowercase }) does with
 * strip_accents unset (which then follows lowercase).
 *
 * @example
 * normalizeBertText("Café\u00a0東京"); // → "cafe  東  京 "
 */
export function normalizeBertText(text: string): string {
  let spaced = "";
  for (const char of text) {
    if (char === "\t" || char === "\n" || char === "\r") spaced += " ";
    else if (DROPPED.test(char)) continue;
    else if (WHITESPACE.test(char)) spaced += " ";
    else if (isCjkIdeograph(char.codePointAt(0) as number)) spaced += ` ${char} `;
    else spaced += char;
  }
  const stripped = spaced.normalize("NFD").replace(NONSPACING_MARKS, "");
  // Code point by code point, as `tokenizers` does: a whole-string toLowerCase would turn a final
  // Σ into ς, which `tokenizers` never does.
  let lowered = "";
  for (const char of stripped) lowered += char.toLowerCase();
  return lowered;
}

function isCjkIdeograph(codePoint: number): boolean {
  return CJK_RANGES.some(([first, last]) => codePoint >= first && codePoint <= last);
}
