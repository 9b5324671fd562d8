import { describe, expect, it } from "vitest";
import { rehydrate } from "../../src/sleep/rehydrate.js";

const same = (text: string) => text;
const note = [
  "# 2026-11-04", // 1
  "", // 2
  "## Travel", // 3
  "- book the ryokan in Kyoto by March", // 4
  "  - ask for the garden room", // 5
  "", // 6
  "<!-- openclaw:dreaming:light:start -->", // 7
  "## Light Sleep", // 8
  "- Candidate: the dentist moved to Thursday", // 9
  "<!-- openclaw:dreaming:light:end -->", // 10
].join("\n");

describe("rehydrating a recalled range from the live note", () => {
  it("keeps a range whose lines still say the snippet, with or without its heading prefix", () => {
    expect(
      rehydrate(note, { startLine: 4, endLine: 4, snippet: "- book the ryokan in Kyoto by March" }, same),
    ).toEqual({
      found: true,
      startLine: 4,
      endLine: 4,
      moved: false,
    });
    expect(
      rehydrate(
        note,
        { startLine: 4, endLine: 4, snippet: "Travel: book the ryokan in Kyoto by March" },
        same,
      ),
    ).toMatchObject({ found: true, startLine: 4, moved: false });
  });

  it("follows a range that moved, preferring the exact match nearest the old place", () => {
    const edited = [
      "# 2026-11-04",
      "",
      "Added a paragraph above.",
      "Another line.",
      note.split("\n").slice(2).join("\n"),
    ].join("\n");
    expect(
      rehydrate(edited, { startLine: 4, endLine: 4, snippet: "- book the ryokan in Kyoto by March" }, same),
    ).toEqual({
      found: true,
      startLine: 6,
      endLine: 6,
      moved: true,
    });
    const multi = rehydrate(
      `intro line\n${note}`,
      { startLine: 4, endLine: 5, snippet: "- book the ryokan in Kyoto by March - ask for the garden room" },
      same,
    );
    expect(multi).toEqual({ found: true, startLine: 5, endLine: 6, moved: true });
  });

  it("refuses a range that is gone, or that lies inside a managed fence", () => {
    expect(rehydrate(note, { startLine: 4, endLine: 4, snippet: "renew the passport" }, same)).toEqual({
      found: false,
      reason: "not-found",
    });
    expect(
      rehydrate(
        note,
        { startLine: 9, endLine: 9, snippet: "- Candidate: the dentist moved to Thursday" },
        same,
      ),
    ).toEqual({ found: false, reason: "inside-fence" });
    // Relocated into the fence is refused too.
    expect(
      rehydrate(note, { startLine: 2, endLine: 2, snippet: "the dentist moved to Thursday" }, same),
    ).toEqual({ found: false, reason: "inside-fence" });
  });

  it("compares with credentials redacted on the live side, as the store keeps them", () => {
    const withKey = "- deploy key is sk-live-123456\n";
    const redact = (text: string) => text.replace(/sk-live-\d+/gu, "[REDACTED:key]");
    expect(
      rehydrate(withKey, { startLine: 1, endLine: 1, snippet: "- deploy key is [REDACTED:key]" }, redact),
    ).toMatchObject({
      found: true,
      startLine: 1,
    });
  });
});
