import { describe, expect, it } from "vitest";
import { taggedSentences } from "../../src/text/sentences.js";

describe("taggedSentences", () => {
  it("splits sentences and tags their words", () => {
    const sentences = taggedSentences("Thanks! My sister is a nurse.");
    expect(sentences.map((sentence) => sentence.text)).toEqual(["Thanks!", "My sister is a nurse."]);
    expect(sentences[1]?.words.find((word) => word.lower === "sister")?.tag).toBe("NOUN");
  });

  it("does not split inside a file name, a host name or a version", () => {
    const text = "Open tsconfig.json first. The staging host is db.staging.internal. I use v1.2.3 daily.";
    expect(taggedSentences(text).map((sentence) => sentence.text)).toEqual([
      "Open tsconfig.json first.",
      "The staging host is db.staging.internal.",
      "I use v1.2.3 daily.",
    ]);
  });

  it("keeps a sentence's own text when a long run without spaces is blanked for the tagger", () => {
    const hash = "a".repeat(120);
    const sentences = taggedSentences(`The hash is ${hash} and it is new. Thanks!`);
    expect(sentences.map((sentence) => sentence.text)).toEqual([
      `The hash is ${hash} and it is new.`,
      "Thanks!",
    ]);
    expect(sentences[0]?.words.some((word) => word.value.includes("aaa"))).toBe(false);
  });
});
