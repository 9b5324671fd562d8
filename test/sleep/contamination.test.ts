import { describe, expect, it } from "vitest";
import { contaminationOf } from "../../src/sleep/contamination.js";
import { claimHash, noteAddress, queryHash, recallKey, storedSnippet } from "../../src/sleep/recall-keys.js";

describe("the contamination filter", () => {
  it.each([
    ["Use pnpm <!-- openclaw-memory-promotion:memory:memory/2026-11-04.md:3:3 -->", "promotion-marker"],
    [
      "[main dreaming-narrative light] User: Write a dream diary entry from these memory fragments: …",
      "diary-prompt",
    ],
    [
      "- Candidate: Alice prefers pnpm\n  - confidence: 0.82\n  - evidence: memory/2026-11-04.md#L3-L3\n  - recalls: 4\n  - status: staged",
      "staged-candidate",
    ],
    ["## Notes\n### Todo", "no-content"],
    ["## Allotment: plot 14 winter jobs", "no-content"],
    ["---", "no-content"],
    ["Session Key: agent:main:telegram:123 Session ID: 9f1c…", "session-metadata"],
    ["## Conversation Summary\nWe talked about the trip", "conversation-summary"],
    ["Broken Links: 3 in memory/people.md", "trace-noise"],
    ["?? memory/2026-11-05.md", "trace-noise"],
  ])("refuses %j (%s)", (snippet, reason) => {
    expect(contaminationOf(snippet)).toBe(reason);
  });

  it.each([
    "Alice prefers window seats on long flights",
    "## Travel\nBook the ryokan in Kyoto by March",
    "Candidate for the team lead role: Priya (decided in the offsite)",
    "Status: staged rollout of billing-api to 10% on Monday",
  ])("keeps %j", (snippet) => {
    expect(contaminationOf(snippet)).toBeUndefined();
  });
});

describe("recall keys", () => {
  it("key a range, address it, and hash claims and queries as OpenClaw does", () => {
    expect(recallKey("memory/2026-11-04.md", 3, 5)).toBe("memory:memory/2026-11-04.md:3:5");
    expect(noteAddress("memory/2026-11-04.md", 3, 5)).toBe("memory/2026-11-04.md#L3-L5");
    expect(storedSnippet("  Book  the\n ryokan ")).toBe("Book the ryokan");
    // The same claim however it is spaced; queries by their lower-cased text.
    expect(claimHash("Book the ryokan")).toBe(claimHash(" Book  the\nryokan"));
    expect(claimHash("Book the ryokan")).toMatch(/^[0-9a-f]{12}$/u);
    expect(queryHash("Where Do We Stay?")).toBe(queryHash("where do we stay?"));
    expect(queryHash("a")).not.toBe(queryHash("b"));
  });
});
