import { describe, expect, it } from "vitest";
import {
  appendSection,
  MEMORY_HEADER,
  promotedKeys,
  promotionSection,
  recallAnnotations,
  visibleSnippet,
} from "../../src/sleep/promotion-format.js";

describe("what a promotion writes into MEMORY.md", () => {
  it("shows a snippet without its list marker, cut at a sentence, a word or the limit", () => {
    expect(visibleSnippet("- Book the ryokan in Kyoto by March")).toBe("Book the ryokan in Kyoto by March");
    expect(visibleSnippet("  ")).toBe("(no snippet captured)");
    const sentences = `${"a".repeat(60)}. ${"b".repeat(60)}`;
    expect(visibleSnippet(sentences, 100)).toBe(`${"a".repeat(60)}....`);
    const words = `${"word ".repeat(30)}`;
    expect(visibleSnippet(words, 100)).toMatch(/^(?:word ){19}word\.\.\.$/u);
    expect(visibleSnippet("x".repeat(150), 100)).toBe(`${"x".repeat(100)}...`);
  });

  it("annotates with the first three concept tags and an importance from 3 to 10", () => {
    expect(recallAnnotations(["travel", "ryo;kan", "kyoto", "march"], 0.88)).toBe(
      "<!-- trigger: travel, ryokan, kyoto --> <!-- importance: 9 -->",
    );
    expect(recallAnnotations([], 0.1)).toBe("<!-- importance: 3 -->");
    expect(recallAnnotations(["x"], 1)).toBe("<!-- trigger: x --> <!-- importance: 10 -->");
  });

  it("writes the section OpenClaw writes, and finds its markers again", () => {
    const section = promotionSection("2026-11-29", [
      {
        key: "memory:memory/2026-11-04.md:3:3",
        path: "memory/2026-11-04.md",
        startLine: 3,
        endLine: 3,
        snippet: "- Travel: book the ryokan in Kyoto by March",
        score: 0.8812,
        signalCount: 5,
        recallCount: 5,
        averageScore: 0.912,
        conceptTags: ["travel", "book", "ryokan", "kyoto"],
      },
    ]);
    expect(section).toBe(
      [
        "## Promoted From Short-Term Memory (2026-11-29)",
        "",
        "<!-- openclaw-memory-promotion:memory:memory/2026-11-04.md:3:3 -->",
        "- Travel: book the ryokan in Kyoto by March [score=0.881 signals=5 recalls=5 avg=0.912 source=memory/2026-11-04.md:3-3] <!-- trigger: travel, book, ryokan --> <!-- importance: 9 -->",
        "",
      ].join("\n"),
    );
    expect([...promotedKeys(`# Memory\n\n${section}`)]).toEqual(["memory:memory/2026-11-04.md:3:3"]);
    expect([
      ...promotedKeys("<!-- openclaw-memory-promotion:memory:memory/my notes/2026-11-04.md:1:2 -->"),
    ]).toEqual(["memory:memory/my notes/2026-11-04.md:1:2"]);
  });

  it("appends without touching a byte of what was there", () => {
    const handWritten = "# Me\n\n- I like tea\n   - indented, kept as is  \n";
    const section = "## Promoted From Short-Term Memory (2026-11-29)\n\n- x\n";
    const after = appendSection(handWritten, section);
    expect(after.startsWith(handWritten)).toBe(true);
    expect(after).toBe(`${handWritten}\n${section}`);
    expect(appendSection("no newline at end", section)).toBe(`no newline at end\n\n${section}`);
    expect(appendSection("", section)).toBe(`${MEMORY_HEADER}${section}`);
  });
});
