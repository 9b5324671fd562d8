import { describe, expect, it } from "vitest";
import { contentHash, normaliseText } from "../../src/text/normalise.js";

describe("normaliseText", () => {
  it.each([
    ["User prefers TypeScript.", "user prefers typescript"],
    ["  user prefers  typescript ", "user prefers typescript"],
    ["Line one\n\tline two", "line one line two"],
    ["Really?! ", "really"],
    ["Ends with a semicolon ;", "ends with a semicolon"],
    ["Caroline’s “Dune”", `caroline's "dune"`],
    ["Ｔｙｐｅ Script…", "type script"],
    ["ﬁle", "file"],
    ["Keeps a trailing comma,", "keeps a trailing comma,"],
    ["v1.2.3 is out.", "v1.2.3 is out"],
    ["", ""],
    [" .!? ", ""],
  ])("%j → %j", (input, expected) => {
    expect(normaliseText(input)).toBe(expected);
  });
});

describe("contentHash", () => {
  it("is a sha256 hex digest", () => {
    expect(contentHash("anything")).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ["User prefers TypeScript.", "  user prefers  typescript "],
    ["User prefers TypeScript.", "USER PREFERS TYPESCRIPT!"],
    ["Caroline's book", "Caroline’s book"],
    ['Likes "Dune"', "likes “Dune”"],
    ["Ｈｅｌｌｏ world", "hello world."],
  ])("treats %j and %j as the same text", (a, b) => {
    expect(contentHash(a)).toBe(contentHash(b));
  });

  it.each([
    ["User prefers TypeScript.", "User prefers Python"],
    ["User prefers TypeScript", "User prefers TypeScript 5"],
    ["tabs, not spaces", "tabs not spaces"],
  ])("tells %j and %j apart", (a, b) => {
    expect(contentHash(a)).not.toBe(contentHash(b));
  });
});
