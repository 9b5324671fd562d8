import { describe, expect, it } from "vitest";
import { BUDGET_RESERVE, compactForBudget } from "../../src/sleep/memory-budget.js";

const section = (day: string, entries: number) =>
  [
    `## Promoted From Short-Term Memory (${day})`,
    "",
    ...Array.from({ length: entries }, (_, i) => [
      `<!-- openclaw-memory-promotion:memory:memory/${day}.md:${i + 1}:${i + 1} -->`,
      `- fact ${i} of ${day} ${"x".repeat(60)} [score=0.900 signals=3 recalls=3 avg=0.900 source=memory/${day}.md:${i + 1}-${i + 1}]`,
    ]).flat(),
    "",
  ].join("\n");

const hand = "# Long-Term Memory\n\nAna lives in Porto.\n\n";

describe("the MEMORY.md budget", () => {
  it("leaves a file that fits as it is", () => {
    const text = hand + section("2026-10-01", 2);
    expect(compactForBudget(text, 100)).toEqual({ text, fits: true, compactedDates: [], droppedEntries: 0 });
  });

  it("drops the oldest generated sections first, never a hand-written line", () => {
    const text = hand + section("2026-10-02", 2) + section("2026-10-01", 2) + section("2026-10-03", 4);
    const maxChars = text.length + 100 + BUDGET_RESERVE - 150;
    const result = compactForBudget(text, 100, { maxChars, maxLoss: 1 });
    expect(result.compactedDates).toEqual(["2026-10-01"]);
    expect(result.fits).toBe(true);
    expect(result.text).toContain("Ana lives in Porto.");
    expect(result.text).not.toContain("of 2026-10-01");
    expect(result.text).toContain("of 2026-10-02");
  });

  it("keeps a section someone edited by hand, and stops at the loss bound", () => {
    const edited = section("2026-10-01", 2).replace("- fact 1", "My own note\n- fact 1");
    const text = hand + edited + section("2026-10-02", 1) + section("2026-10-03", 5);
    const result = compactForBudget(text, 5000, { maxChars: 2000 });
    // 2026-10-01 was edited: never dropped. Dropping 2026-10-02 (1 of 8 entries) is within 0.25;
    // dropping 2026-10-03 too (6 of 8) is not.
    expect(result.compactedDates).toEqual(["2026-10-02"]);
    expect(result.fits).toBe(false);
    expect(result.text).toContain("My own note");
    expect(result.text).toContain("of 2026-10-03");
  });
});
