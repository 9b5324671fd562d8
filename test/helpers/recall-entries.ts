/**
 * Recall entries for tests of sleep's pure rules: one built field by field (`recallEntry`), or one
 * grown through the recorder's own update (`recalledEntry`), a hit a day.
 */
import { applyHit, type RecallEntry, type RecallHit } from "../../src/sleep/recall-entry.js";
import { claimHash, recallKey } from "../../src/sleep/recall-keys.js";

/**
 * An entry of `memory/2026-11-04.md` recalled once on 2026-11-04 at 09:00 with `score`, its key and
 * claim hash following its range and text; `fields` override anything.
 */
export function recallEntry(
  fields: Partial<RecallEntry> = {},
  defaults: { snippet?: string; score?: number } = {},
): RecallEntry {
  const path = fields.path ?? "memory/2026-11-04.md";
  const startLine = fields.startLine ?? 3;
  const endLine = fields.endLine ?? startLine;
  const snippet = fields.snippet ?? defaults.snippet ?? "Moved the deploy to Thursday";
  const score = defaults.score ?? 0.8;
  return {
    key: recallKey(path, startLine, endLine),
    path,
    startLine,
    endLine,
    source: "memory",
    snippet,
    claimHash: claimHash(snippet),
    recallCount: 1,
    dailyCount: 0,
    groundedCount: 0,
    totalScore: score,
    maxScore: score,
    firstRecalledAt: "2026-11-04T09:00:00Z",
    lastRecalledAt: "2026-11-04T09:00:00Z",
    queryHashes: ["q1"],
    userQueryHashes: ["q1"],
    recallDays: ["2026-11-04"],
    ...fields,
  };
}

/** An entry recalled once a day from 2026-11-01, by `queries` distinct queries (repeating after that). */
export function recalledEntry(
  hit: Partial<RecallHit>,
  times: number,
  queries: number,
  score = 0.9,
): RecallEntry {
  const full: RecallHit = {
    path: "memory/2026-11-01.md",
    startLine: 3,
    endLine: 3,
    snippet: "Travel: book the ryokan in Kyoto by March",
    score,
    ...hit,
  };
  let entry: RecallEntry | undefined;
  for (let index = 0; index < times; index++) {
    const day = `2026-11-${String(index + 1).padStart(2, "0")}`;
    const update = applyHit(entry, full, {
      type: "recall",
      query: `question ${index % queries}`,
      at: `${day}T09:00:00Z`,
      day,
    });
    if (!update.recorded) throw new Error(update.reason);
    entry = update.entry;
  }
  return entry as RecallEntry;
}
