import { describe, expect, it } from "vitest";
import { planTokenBatches } from "../../src/embed/local/minilm/token-batches.js";

describe("planTokenBatches", () => {
  it("groups texts shortest first, keeping ties in order", () => {
    expect(planTokenBatches([9, 3, 4, 3], { maxTexts: 2, maxTokens: 100 })).toEqual([
      [1, 3],
      [2, 0],
    ]);
  });

  it("cuts a batch before its padded size passes the token budget", () => {
    // 3 texts of 10 tokens pad to 30; a fourth would make 4 × 10 = 40 > 35.
    expect(planTokenBatches([10, 10, 10, 10, 10], { maxTexts: 32, maxTokens: 35 })).toEqual([
      [0, 1, 2],
      [3, 4],
    ]);
  });

  it("gives a text longer than the budget a batch of its own", () => {
    expect(planTokenBatches([2, 300, 2], { maxTexts: 8, maxTokens: 64 })).toEqual([[0, 2], [1]]);
  });

  it("plans nothing for no texts and covers every position exactly once", () => {
    expect(planTokenBatches([], { maxTexts: 4, maxTokens: 64 })).toEqual([]);
    const lengths = Array.from({ length: 50 }, (_, i) => 2 + ((i * 37) % 41));
    const positions = planTokenBatches(lengths, { maxTexts: 7, maxTokens: 120 }).flat();
    expect(positions.sort((a, b) => a - b)).toEqual(lengths.map((_, i) => i));
  });
});
