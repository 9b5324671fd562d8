import { describe, expect, it } from "vitest";
import { type Blocker, promotionBlockers } from "../../src/sleep/promotion-blockers.js";
import { resolveSleepSettings } from "../../src/sleep/sleep-config.js";
import { recalledEntry as recalled } from "../helpers/recall-entries.js";

const NOW = "2026-11-05T09:00:00Z";
/** Passes every gate at NOW (score 0.81). */
const good = (path = "memory/2026-11-01.md") => recalled({ path }, 4, 4);

/**
 * Five ranges that all miss: two asked too few distinct queries, one recalled too seldom (and by
 * too few), two that pass every gate but score.
 */
const missing = () => [
  recalled({ path: "memory/2026-11-01.md" }, 4, 2),
  recalled({ path: "memory/2026-11-02.md" }, 4, 1),
  recalled({ path: "memory/2026-11-03.md" }, 2, 2),
  recalled({ path: "memory/2026-11-04.md" }, 4, 4, 0.5),
  recalled({ path: "memory/2026-11-06.md" }, 4, 4, 0.6),
];

describe("why nothing promotes", () => {
  it("is nothing when a range would promote, whatever the others miss", () => {
    expect(promotionBlockers([...missing(), good("memory/2026-11-09.md")], { now: NOW })).toEqual([]);
    expect(promotionBlockers([good()], { now: NOW }, resolveSleepSettings())).toEqual([]);
  });

  it("says how signals are made when none are recorded", () => {
    const [blocker, ...rest] = promotionBlockers([], { now: NOW });
    expect(rest).toEqual([]);
    expect(blocker).toMatchObject({ kind: "no-signals", count: 0 });
    expect(blocker?.message).toBe(
      "No recall signals are recorded in this workspace yet, so there is nothing to rank. Signals come from " +
        "searches that return daily notes: `lucid search --workspace DIR`, the MCP server's memory_search, " +
        "or a search log replayed with `lucid sleep record --file LOG.jsonl`.",
    );
  });

  it("names the config key of a deep phase that is off or limited to 0, and counts what would pass", () => {
    const off = resolveSleepSettings({ phases: { deep: { enabled: false } } });
    expect(promotionBlockers([good(), good("memory/2026-11-02.md")], { now: NOW }, off)).toEqual([
      {
        kind: "phase",
        count: 2,
        message:
          "The deep phase is off (sleep.phases.deep.enabled is false), so no sweep promotes anything; set it to true in lucid.config.json. 2 ranges pass every gate and would promote otherwise.",
      },
    ]);
    const none = resolveSleepSettings({ phases: { deep: { limit: 0 } } });
    expect(promotionBlockers([good()], { now: NOW, limit: 0 }, none)).toEqual([
      {
        kind: "phase",
        count: 1,
        message:
          "sleep.phases.deep.limit is 0, so the deep phase promotes nothing; set it to the most ranges a sweep may promote (default 10). 1 range passes every gate and would promote otherwise.",
      },
    ]);
    // A limit of 0 given directly, not from the settings.
    expect(promotionBlockers([good()], { now: NOW, limit: 0 })).toMatchObject([
      { kind: "phase", count: 1, message: expect.stringContaining("The limit is 0") },
    ]);
    // Off, with nothing that would pass anyway: the phase first, then what the ranking says.
    expect(promotionBlockers([], { now: NOW }, off).map((blocker) => blocker.kind)).toEqual([
      "phase",
      "no-signals",
    ]);
    expect(promotionBlockers([], { now: NOW }, off)[0]?.message).not.toContain("would promote otherwise");
  });

  it("counts why every entry is out of the running", () => {
    const entries = [
      { ...good(), promotedAt: "2026-11-04T03:00:00Z" },
      { ...good("memory/2026-11-02.md"), promotedAt: "2026-11-04T03:00:00Z" },
      { ...good(), path: "MEMORY.md" },
      { ...good(), path: "memory/people.md" },
      { ...good(), snippet: "## Notes\n### Todo" },
      { ...good(), recallCount: 0, dailyCount: 0, groundedCount: 0 },
    ];
    expect(promotionBlockers(entries, { now: NOW })).toEqual([
      {
        kind: "excluded",
        count: 6,
        message:
          "All 6 recorded ranges are out of the running: 2 promoted already, 2 not in a daily note (only memory/YYYY-MM-DD.md notes promote), 1 contaminated (sleep's own output or session metadata), 1 with no signals left. Only new recalls of daily notes can promote now.",
      },
    ]);
    expect(promotionBlockers([{ ...good(), promotedAt: NOW }], { now: NOW })[0]?.message).toBe(
      "The only recorded range is out of the running: 1 promoted already. Only new recalls of daily notes can promote now.",
    );
  });

  it("counts each gate's misses, most first, names the closest to the worst gate, then the near misses", () => {
    const blockers = promotionBlockers(missing(), { now: NOW });
    expect(blockers).toEqual<Blocker[]>([
      {
        kind: "gate",
        gate: "minScore",
        count: 4,
        message:
          "4 of 5 ranges score below 0.75 (minScore); the closest, memory/2026-11-02.md#L3-L3, scores 0.720.",
        best: { address: "memory/2026-11-02.md#L3-L3", value: 0.72, threshold: 0.75 },
      },
      {
        kind: "gate",
        gate: "minUniqueQueries",
        count: 3,
        message: "3 of 5 ranges were asked by fewer than 3 distinct queries (minUniqueQueries).",
      },
      {
        kind: "gate",
        gate: "minRecallCount",
        count: 1,
        message: "1 of 5 ranges was recalled or sighted fewer than 3 times (minRecallCount).",
      },
      {
        kind: "gate",
        gate: "minScore",
        count: 2,
        message:
          "2 ranges pass every other gate but score below 0.75 (minScore); the best, memory/2026-11-06.md#L3-L3, scores 0.720.",
        best: { address: "memory/2026-11-06.md#L3-L3", value: 0.72, threshold: 0.75 },
      },
    ]);
    // The same entries in another order say the same.
    expect(promotionBlockers(missing().reverse(), { now: NOW })).toEqual(blockers);
  });

  it("gives the closest range's value for the gate that turns away most", () => {
    const queries = promotionBlockers(missing().slice(0, 3), { now: NOW, minScore: 0.5 });
    expect(queries[0]).toEqual({
      kind: "gate",
      gate: "minUniqueQueries",
      count: 3,
      message:
        "3 of 3 ranges were asked by fewer than 3 distinct queries (minUniqueQueries); the closest, memory/2026-11-01.md#L3-L3, has 2.",
      best: { address: "memory/2026-11-01.md#L3-L3", value: 2, threshold: 3 },
    });

    const seldom = promotionBlockers([recalled({}, 2, 2), recalled({ path: "memory/2026-11-02.md" }, 1, 1)], {
      now: NOW,
      minUniqueQueries: 1,
      minScore: 0,
    });
    expect(seldom).toEqual([
      {
        kind: "gate",
        gate: "minRecallCount",
        count: 2,
        message:
          "2 of 2 ranges were recalled or sighted fewer than 3 times (minRecallCount); the closest, memory/2026-11-01.md#L3-L3, has 2.",
        best: { address: "memory/2026-11-01.md#L3-L3", value: 2, threshold: 3 },
      },
    ]);

    // Last recalled on 2026-11-04 and on 2026-11-02; 62 and 64 days before.
    const old = promotionBlockers([good(), recalled({ path: "memory/2026-11-02.md" }, 2, 2)], {
      now: "2027-01-05T09:00:00Z",
    });
    expect(old[0]).toEqual({
      kind: "gate",
      gate: "maxAgeDays",
      count: 2,
      message:
        "2 of 2 ranges were last recalled more than 30 days ago (maxAgeDays); the closest, memory/2026-11-01.md#L3-L3, was last recalled 62.0 days ago.",
      best: { address: "memory/2026-11-01.md#L3-L3", value: 62, threshold: 30 },
    });
    expect(old.map((blocker) => [blocker.gate, blocker.count])).toEqual([
      ["maxAgeDays", 2],
      ["minScore", 2],
      ["minRecallCount", 1],
      ["minUniqueQueries", 1],
    ]);
  });

  it("rounds a miss away from passing, and says one near miss in the singular", () => {
    // Scores 0.7505: under a bar of 0.7506 it must not read as 0.751.
    const blockers = promotionBlockers([recalled({}, 4, 2)], {
      now: NOW,
      minUniqueQueries: 2,
      minScore: 0.7506,
    });
    expect(blockers).toEqual([
      {
        kind: "gate",
        gate: "minScore",
        count: 1,
        message:
          "1 of 1 range scores below 0.7506 (minScore); the closest, memory/2026-11-01.md#L3-L3, scores 0.750.",
        best: { address: "memory/2026-11-01.md#L3-L3", value: 0.75, threshold: 0.7506 },
      },
      {
        kind: "gate",
        gate: "minScore",
        count: 1,
        message:
          "1 range passes every other gate but scores below 0.7506 (minScore): memory/2026-11-01.md#L3-L3, at 0.750.",
        best: { address: "memory/2026-11-01.md#L3-L3", value: 0.75, threshold: 0.7506 },
      },
    ]);
  });
});
