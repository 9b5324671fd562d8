import { describe, expect, it } from "vitest";
import {
  applyHit,
  MAX_QUERY_HASHES,
  MAX_RECALL_DAYS,
  type RecallEntry,
  type RecallHit,
  type Signal,
} from "../../src/sleep/recall-entry.js";
import { queryHash } from "../../src/sleep/recall-keys.js";

const hit: RecallHit = {
  path: "memory/2026-11-04.md",
  startLine: 3,
  endLine: 4,
  snippet: "Travel: book the ryokan\n in Kyoto by March",
  score: 0.9,
};
const recall = (query: string, at: string, extra: Partial<Signal> = {}): Signal => ({
  type: "recall",
  query,
  at,
  day: at.slice(0, 10),
  ...extra,
});

function entryAfter(signals: readonly Signal[], from?: RecallEntry, the: RecallHit = hit): RecallEntry {
  let entry = from;
  for (const signal of signals) {
    const update = applyHit(entry, the, signal);
    if (!update.recorded) throw new Error(update.reason);
    entry = update.entry;
  }
  return entry as RecallEntry;
}

describe("a recall entry", () => {
  it("counts each recall with its score, queries and days", () => {
    const entry = entryAfter([
      recall("where do we stay in Kyoto?", "2026-11-05T09:00:00Z"),
      recall("Kyoto hotel", "2026-11-06T09:00:00Z", {}),
    ]);
    expect(entry).toMatchObject({
      key: "memory:memory/2026-11-04.md:3:4",
      snippet: "Travel: book the ryokan in Kyoto by March",
      recallCount: 2,
      dailyCount: 0,
      totalScore: 1.8,
      maxScore: 0.9,
      firstRecalledAt: "2026-11-05T09:00:00Z",
      lastRecalledAt: "2026-11-06T09:00:00Z",
      recallDays: ["2026-11-05", "2026-11-06"],
    });
    expect(entry.queryHashes).toEqual([queryHash("where do we stay in Kyoto?"), queryHash("Kyoto hotel")]);
    expect(entry.userQueryHashes).toEqual(entry.queryHashes);
  });

  it("keeps daily and grounded signals apart from the queries people asked", () => {
    const entry = entryAfter([
      {
        type: "daily",
        query: "__dreaming_daily__:2026-11-04",
        at: "2026-11-05T03:00:00Z",
        day: "2026-11-04",
      },
      { type: "grounded", query: "backfill", at: "2026-11-05T03:00:00Z", day: "2026-11-04", count: 3 },
    ]);
    expect(entry).toMatchObject({ recallCount: 0, dailyCount: 1, groundedCount: 3, userQueryHashes: [] });
    expect(entry.totalScore).toBeCloseTo(0.9 * 4);
  });

  it("counts a query once a day when asked to, leaving when it was last used alone", () => {
    const first = entryAfter([recall("sessions", "2026-11-05T09:00:00Z", { dedupeByQueryPerDay: true })]);
    const again = entryAfter(
      [recall("sessions", "2026-11-05T18:00:00Z", { dedupeByQueryPerDay: true })],
      first,
    );
    expect(again).toMatchObject({ recallCount: 1, totalScore: 0.9, lastRecalledAt: "2026-11-05T09:00:00Z" });
    const nextDay = entryAfter(
      [recall("sessions", "2026-11-06T09:00:00Z", { dedupeByQueryPerDay: true })],
      again,
    );
    expect(nextDay).toMatchObject({ recallCount: 2, lastRecalledAt: "2026-11-06T09:00:00Z" });
  });

  it("keeps the most recent distinct 32 queries and 16 days", () => {
    const signals = Array.from({ length: 40 }, (_, index) =>
      recall(`query ${index}`, `2026-10-${String((index % 28) + 1).padStart(2, "0")}T09:00:00Z`),
    );
    const entry = entryAfter(signals);
    expect(entry.queryHashes).toHaveLength(MAX_QUERY_HASHES);
    expect(entry.queryHashes.at(-1)).toBe(queryHash("query 39"));
    expect(entry.queryHashes).not.toContain(queryHash("query 0"));
    expect(entry.recallDays).toHaveLength(MAX_RECALL_DAYS);
    expect(new Set(entry.recallDays).size).toBe(MAX_RECALL_DAYS);
    expect(entry.recallCount).toBe(40);
  });

  it("never stores a contaminated snippet", () => {
    const update = applyHit(
      undefined,
      { ...hit, snippet: "Use pnpm <!-- openclaw-memory-promotion:memory:memory/2026-11-04.md:3:3 -->" },
      recall("pnpm", "2026-11-05T09:00:00Z"),
    );
    expect(update).toEqual({ recorded: false, reason: "promotion-marker" });
  });
});
