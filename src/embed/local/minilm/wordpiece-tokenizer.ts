/**
 * The uncased WordPiece tokenizer of all-MiniLM-L6-v2, read from the model's tokenizer.json and
 * faithful to Hugging Face `tokenizers` for it: special tokens written in the text are kept whole,
 * the rest is normalised and split into words, each word becomes its greedy longest-match pieces
 * ("##" marks a continuation), and the result is `[CLS] … [SEP]`, truncated to the model's limit.
 *
 * @module
 */

import { normalizeBertText } from "./bert-normalizer.js";
import { splitBertWords } from "./bert-pre-tokenizer.js";

export interface WordPieceTokenizer {
  /** Token ids of `text`, `[CLS]` first and `[SEP]` last, at most `maxTokens` long. */
  encode(text: string): number[];
}

export interface WordPieceOptions {
  /** Tokens per text including `[CLS]` and `[SEP]`; the rest is cut off. */
  readonly maxTokens: number;
}

/** The parts of tokenizer.json read here. */
interface TokenizerJson {
  normalizer?: { type?: string; lowercase?: boolean; strip_accents?: boolean | null };
  pre_tokenizer?: { type?: string };
  added_tokens?: { id: number; content: string; special?: boolean; normalized?: boolean }[];
  model?: {
    type?: string;
    unk_token?: string;
    continuing_subword_prefix?: string;
    max_input_chars_per_word?: number;
    vocab?: Record<string, number>;
  };
}

/**
 * Reads `tokenizerJson` (the text of tokenizer.json). Throws if it describes another kind of
 * tokenizer than the uncased BERT WordPiece this file implements.
 *
 * @example
 * const tokenizer = createWordPieceTokenizer(readFileSync(manifest.tokenizerPath, "utf8"), { maxTokens: 256 });
 * tokenizer.encode("Hello, world!"); // → [101, 7592, 1010, 2088, 999, 102]
 */
export function createWordPieceTokenizer(
  tokenizerJson: string,
  options: WordPieceOptions,
): WordPieceTokenizer {
  const config = JSON.parse(tokenizerJson) as TokenizerJson;
  const { normalizer, pre_tokenizer: preTokenizer, model } = config;
  if (
    model?.type !== "WordPiece" ||
    model.vocab === undefined ||
    normalizer?.type !== "BertNormalizer" ||
    normalizer.lowercase !== true ||
    normalizer.strip_accents === false ||
    preTokenizer?.type !== "BertPreTokenizer"
  ) {
    throw new Error("tokenizer.json is not an uncased BERT WordPiece tokenizer");
  }
  const vocab = new Map(Object.entries(model.vocab));
  const idOf = (token: string) => {
    const id = vocab.get(token);
    if (id === undefined) throw new Error(`tokenizer.json has no "${token}" token`);
    return id;
  };
  const unknown = idOf(model.unk_token ?? "[UNK]");
  const classify = idOf("[CLS]");
  const separator = idOf("[SEP]");
  const prefix = model.continuing_subword_prefix ?? "##";
  const maxChars = model.max_input_chars_per_word ?? 100;
  const limit = options.maxTokens - 2;

  // Special tokens typed in the text ("[MASK]", "[SEP]") are matched before normalisation, longest
  // first, exactly as written: `tokenizers` does the same for added tokens that are not normalised.
  const specials = new Map(
    (config.added_tokens ?? [])
      .filter((token) => token.special === true && token.normalized !== true)
      .map((token) => [token.content, token.id]),
  );
  const specialPattern =
    specials.size === 0
      ? undefined
      : new RegExp(
          `(${[...specials.keys()]
            .sort((a, b) => b.length - a.length)
            .map((token) => token.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
            .join("|")})`,
          "u",
        );

  const pieces = (word: string, ids: number[]) => {
    const chars = Array.from(word);
    if (chars.length > maxChars) {
      ids.push(unknown);
      return;
    }
    const found: number[] = [];
    for (let start = 0; start < chars.length; ) {
      let end = chars.length;
      let id: number | undefined;
      for (; end > start; end--) {
        const piece = chars.slice(start, end).join("");
        id = vocab.get(start === 0 ? piece : prefix + piece);
        if (id !== undefined) break;
      }
      if (id === undefined) {
        ids.push(unknown);
        return;
      }
      found.push(id);
      start = end;
    }
    ids.push(...found);
  };

  return {
    encode(text) {
      const ids: number[] = [];
      // With a capturing group, split() puts each special token at the odd positions.
      const segments = specialPattern === undefined ? [text] : text.split(specialPattern);
      for (let index = 0; index < segments.length && ids.length < limit; index++) {
        const segment = segments[index] as string;
        const special = index % 2 === 1 ? specials.get(segment) : undefined;
        if (special !== undefined) {
          ids.push(special);
          continue;
        }
        for (const word of splitBertWords(normalizeBertText(segment))) {
          if (ids.length >= limit) break;
          pieces(word, ids);
        }
      }
      return [classify, ...ids.slice(0, limit), separator];
    },
  };
}
