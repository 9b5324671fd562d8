import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Memory, openMemory } from "../../src/index.js";
import { MAX_RECALL_ENTRIES } from "../../src/sleep/record-recalls.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("sleep-record-log");
const DAYS = 20;
const LINES = 40;
let memory: Memory;

/** Two workspaces with the same notes: one replays the log, the other records it search by search. */
function workspaceDir(name: string): string {
  const dir = join(files.dir, name);
  mkdirSync(join(dir, "memory"), { recursive: true });
  for (let day = 1; day <= DAYS; day++) {
    const lines = Array.from(
      { length: LINES },
      (_, line) => `- day ${day}, fact ${line + 1}: the plan holds`,
    );
    writeFileSync(join(dir, "memory", `2026-10-${String(day).padStart(2, "0")}.md`), lines.join("\n"));
  }
  return dir;
}

/** 2,600 searches (more than two batches) over 800 distinct ranges, a minute apart, in time order. */
function searchLog() {
  let seed = 11;
  const next = (below: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    // The high bits: an LCG's low bits repeat with a short period.
    return Math.floor((seed / 2 ** 31) * below);
  };
  return Array.from({ length: 2_600 }, (_, n) => ({
    at: new Date(Date.parse("2026-10-21T00:00:00Z") + n * 60_000).toISOString(),
    query: `question ${next(300)}`,
    hits: Array.from({ length: 1 + next(6) }, (_, rank) => {
      const line = 1 + next(LINES);
      return {
        path: `memory/2026-10-${String(1 + next(DAYS)).padStart(2, "0")}.md`,
        startLine: line,
        endLine: line,
        score: 0.9 - rank * 0.05,
      };
    }),
  }));
}

beforeAll(async () => {
  memory = await openMemory({ path: files.path(), embedder: scriptedEmbedder(3, () => [1, 0, 0]) });
});
afterAll(async () => {
  await memory.close();
});

describe("replaying a search log", () => {
  it("records exactly what recording each search in turn records, past the cap and across batches", async () => {
    const log = searchLog();
    const hits = log.reduce((sum, search) => sum + search.hits.length, 0);
    const replayed = memory.workspace(workspaceDir("replayed"));
    const result = await replayed.recordLog(log.map((search) => JSON.stringify(search)).join("\n"));

    const oneByOne = memory.workspace(workspaceDir("one-by-one"));
    let evicted = 0;
    for (const search of log)
      evicted += (await oneByOne.record(search.query, search.hits, { at: search.at })).evicted;

    expect(result).toMatchObject({ searches: log.length, recorded: hits, skipped: 0, errors: [] });
    expect(result.evicted).toBeGreaterThan(0);
    expect(result.evicted).toBe(evicted);
    const signals = await replayed.signals();
    expect(signals).toHaveLength(MAX_RECALL_ENTRIES);
    expect(signals).toEqual(await oneByOne.signals());
    // What stayed is what was recalled last: every kept range was recalled after every evicted one.
    const lastSeen = new Map<string, string>();
    for (const search of log)
      for (const hit of search.hits)
        lastSeen.set(`memory:${hit.path}:${hit.startLine}:${hit.endLine}`, search.at);
    const keptKeys = new Set(signals.map((entry) => entry.key));
    const oldestKept = signals.map((entry) => entry.lastRecalledAt).sort()[0] ?? "";
    const evictedLast = [...lastSeen].filter(([key]) => !keptKeys.has(key)).map(([, at]) => at);
    expect(evictedLast.length).toBeGreaterThan(0);
    expect(evictedLast.every((at) => new Date(at).toISOString() <= oldestKept)).toBe(true);
  });
});
