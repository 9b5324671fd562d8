import { describe, expect, it } from "vitest";
import { conceptTags } from "../../src/sleep/concept-tags.js";
import { PROMOTION_WEIGHTS, rankForPromotion, scoreEntry } from "../../src/sleep/deep-rank.js";
import { recalledEntry as recalled } from "../helpers/recall-entries.js";

const NOW = "2026-11-05T09:00:00Z";

describe("deep ranking", () => {
  it("scores the six components with the fixed weights", () => {
    const scored = scoreEntry(recalled({}, 4, 4), { now: NOW });
    expect(Object.values(PROMOTION_WEIGHTS).reduce((sum, weight) => sum + weight, 0)).toBeCloseTo(1);
    expect(scored.components.frequency).toBeCloseTo(Math.log(5) / Math.log(11));
    expect(scored.components.relevance).toBeCloseTo(0.9);
    expect(scored.components.diversity).toBeCloseTo(0.8);
    expect(scored.components.recency).toBeCloseTo(Math.exp((-Math.LN2 * 1) / 14));
    expect(scored.components.consolidation).toBeCloseTo(0.55 * (Math.log(4) / Math.log(5)) + 0.45 * (3 / 7));
    expect(scored.components.conceptual).toBeCloseTo(5 / 6);
    expect(scored.score).toBeCloseTo(0.8105, 3);
    expect(scored.gates.every((gate) => gate.passed)).toBe(true);
  });

  it("gates on signals, distinct queries, age and score, and says which failed", () => {
    const fewQueries = scoreEntry(recalled({}, 4, 2), { now: NOW });
    expect(fewQueries.gates.find((gate) => !gate.passed)).toEqual({
      gate: "minUniqueQueries",
      value: 2,
      threshold: 3,
      passed: false,
    });
    const old = scoreEntry(recalled({}, 4, 4), { now: "2026-12-20T09:00:00Z" });
    expect(old.gates.filter((gate) => !gate.passed).map((gate) => gate.gate)).toEqual([
      "maxAgeDays",
      "minScore",
    ]);
    expect(scoreEntry(recalled({}, 2, 2), { now: NOW }).gates[0]).toMatchObject({
      gate: "minRecallCount",
      passed: false,
    });
    expect(
      scoreEntry(recalled({}, 4, 4), {
        now: "2026-12-20T09:00:00Z",
        maxAgeDays: null,
        minScore: 0.1,
      }).gates.every((gate) => gate.passed),
    ).toBe(true);
  });

  it("never ranks what is not a short-term note, what was promoted, or a contaminated snippet", () => {
    const good = recalled({}, 4, 4);
    expect(scoreEntry({ ...good, path: "MEMORY.md" }, { now: NOW }).excluded).toBe("not-short-term");
    expect(scoreEntry({ ...good, path: "memory/dreaming/deep/2026-11-01.md" }, { now: NOW }).excluded).toBe(
      "not-short-term",
    );
    const promoted = { ...good, promotedAt: "2026-11-04T03:00:00Z" };
    expect(rankForPromotion([promoted], { now: NOW })).toEqual([]);
    expect(rankForPromotion([promoted], { now: NOW, includePromoted: true })).toHaveLength(1);
    expect(scoreEntry({ ...good, snippet: "## Notes\n### Todo" }, { now: NOW }).excluded).toBe(
      "contaminated",
    );
  });

  it("sorts by score, then recalls, then path, and keeps the limit", () => {
    const entries = [
      recalled({ path: "memory/2026-11-02.md" }, 4, 4),
      recalled({ path: "memory/2026-11-01.md" }, 4, 4),
      recalled({ path: "memory/2026-11-03.md", snippet: "Kyoto ryokan deposit paid in cash" }, 5, 5, 0.95),
      recalled({ path: "memory/2026-11-04.md" }, 4, 4, 0.2),
    ];
    const ranked = rankForPromotion(entries, { now: NOW, limit: 2 });
    expect(ranked.map((scored) => scored.entry.path)).toEqual([
      "memory/2026-11-03.md",
      "memory/2026-11-01.md",
    ]);
  });

  it("adds the light and REM phases' boost", () => {
    const entry = recalled({}, 4, 4);
    const plain = scoreEntry(entry, { now: NOW });
    const boosted = scoreEntry(
      entry,
      { now: NOW },
      { light: { hits: 6, lastAt: NOW }, rem: { hits: 6, lastAt: NOW } },
    );
    expect(boosted.phaseBoost).toBeCloseTo(0.15);
    expect(boosted.rawScore - plain.rawScore).toBeCloseTo(0.15);
  });
});

describe("concept tags", () => {
  it("keep a snippet's distinctive words, in order, at most 8", () => {
    expect(conceptTags("memory/2026-11-04.md", "Travel: book the ryokan in Kyoto by March")).toEqual([
      "travel",
      "book",
      "ryokan",
      "kyoto",
      "march",
    ]);
    expect(
      conceptTags("memory/2026-11-04-billing_api.md", "billing_api deploys from ./scripts/ship.sh"),
    ).toEqual(["billing-api", "deploys", "scripts/ship.sh"]);
    expect(
      conceptTags("memory/x.md", "one two three four five six seven eight nine ten eleven twelve"),
    ).toHaveLength(8);
  });
});
