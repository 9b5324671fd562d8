import { describe, expect, it } from "vitest";
import { chunkNote } from "../../src/sleep/note-chunks.js";

describe("chunkNote", () => {
  it("prefixes the nearest heading and gives each list item its ancestors", () => {
    const note = [
      "# 2026-11-04", //  1
      "", //  2
      "## Travel", //  3
      "- Japan in April", //  4
      "  - book the ryokan in Kyoto by March", //  5
      "  - JR pass: 14 days", //  6
      "- Lisbon for the offsite", //  7
      "", //  8
      "## Health", //  9
      "Knee physio on Thursdays at 8:30,", // 10
      "with the exercises twice a day.", // 11
    ].join("\n");
    expect(chunkNote(note)).toEqual([
      { startLine: 4, endLine: 4, text: "Travel: Japan in April" },
      { startLine: 5, endLine: 5, text: "Travel: Japan in April > book the ryokan in Kyoto by March" },
      { startLine: 6, endLine: 6, text: "Travel: Japan in April > JR pass: 14 days" },
      { startLine: 7, endLine: 7, text: "Travel: Lisbon for the offsite" },
      {
        startLine: 10,
        endLine: 11,
        text: "Health: Knee physio on Thursdays at 8:30, with the exercises twice a day.",
      },
    ]);
  });

  it("keeps a paragraph to 4 lines a snippet, and a wrapped item's lines together", () => {
    const note = [
      "Line one of a long paragraph", // 1
      "line two of it", // 2
      "line three of it", // 3
      "line four of it", // 4
      "line five starts the next", // 5
      "", // 6
      "- an item that wraps", // 7
      "  onto a second line", // 8
    ].join("\n");
    expect(chunkNote(note).map((chunk) => [chunk.startLine, chunk.endLine, chunk.text])).toEqual([
      [1, 4, "Line one of a long paragraph line two of it line three of it line four of it"],
      [5, 5, "line five starts the next"],
      [7, 8, "an item that wraps onto a second line"],
    ]);
  });

  it("leaves out sleep's own managed blocks, headings alone and bodies too short to say anything", () => {
    const note = [
      "## Light Sleep", // 1
      "<!-- openclaw:dreaming:light:start -->", // 2
      "- Candidate: use pnpm", // 3
      "<!-- openclaw:dreaming:light:end -->", // 4
      "## Notes", // 5
      "- ok", // 6
      "- Renew the passport before June", // 7
    ].join("\n");
    expect(chunkNote(note)).toEqual([
      { startLine: 7, endLine: 7, text: "Notes: Renew the passport before June" },
    ]);
  });

  it("keeps a managed block's heading with the block: the text after it is under the heading before", () => {
    const note = [
      "# Kiln day", // 1
      "- Cone 6 glaze fired well at the slow cool", // 2
      "", // 3
      "## Light Sleep", // 4
      "<!-- openclaw:dreaming:light:start -->", // 5
      "- Candidate: glaze", // 6
      "<!-- openclaw:dreaming:light:end -->", // 7
      "- Order more kiln wash before Friday", // 8
    ].join("\n");
    expect(chunkNote(note)).toEqual([
      { startLine: 2, endLine: 2, text: "Kiln day: Cone 6 glaze fired well at the slow cool" },
      { startLine: 8, endLine: 8, text: "Kiln day: Order more kiln wash before Friday" },
    ]);
  });

  it("cuts a long snippet at a word, with an ellipsis", () => {
    const [chunk] = chunkNote(`${"word ".repeat(100)}end`, { maxChars: 50 });
    expect(chunk?.text.length).toBeLessThanOrEqual(50);
    expect(chunk?.text.endsWith("word…")).toBe(true);
  });
});
