/**
 * Daily ingestion against the rules of `openclaw-dreaming.md` §4 ("Other writers of signals"): the
 * window of `max(14, lookbackDays)` days, newest first; the checkpoint skip; snippets of 8–280
 * characters; the caps `max(20, limit × 4)` in all and `max(6, ceil(total / files))` a note; a
 * `daily` signal of 0.62 for query `__dreaming_daily__:<day>` on the note's day. Lucid's own rule: a
 * daily sighting never moves an existing entry's `lastRecalledAt`. Every expected value is worked
 * out from those rules by hand, on a real store and an indexed workspace.
 */
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemoryContext } from "../../src/core/context.js";
import { type Memory, openMemory } from "../../src/index.js";
import {
  DAILY_CHECKPOINTS,
  DAILY_SCORE,
  type IngestOptions,
  planDailyIngestion,
  recordDailyIngestion,
  withIngestion,
} from "../../src/sleep/daily-ingest.js";
import { queryHash, recallKey } from "../../src/sleep/recall-keys.js";
import { createFakeSecrets } from "../fixtures/secrets/fake-secrets.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";
import { tempFiles } from "../helpers/temp-dir.js";

const TODAY = "2026-11-20";
const NOW = "2026-11-20T03:00:00Z";
const files = tempFiles("sleep-daily-ingest");
const token = createFakeSecrets(5)["github-pat"]?.() ?? "";
let memory: Memory;
let context: MemoryContext;
let made = 0;

beforeAll(async () => {
  memory = await openMemory({ path: files.path(), embedder: scriptedEmbedder(3, () => [1, 0, 0]) });
  context = await memory.ready();
});
afterAll(async () => {
  await memory.close();
});

/** A fresh workspace holding `notes` (relative path → text), indexed. */
async function workspaceWith(notes: Record<string, string>): Promise<string> {
  const dir = join(files.dir, `workspace-${++made}`);
  for (const [path, text] of Object.entries(notes)) write(dir, path, text);
  await memory.workspace(dir).index();
  return dir;
}

function write(dir: string, path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

function plan(dir: string, options: Partial<IngestOptions> = {}) {
  return planDailyIngestion(context, dir, {
    now: NOW,
    today: TODAY,
    lookbackDays: 2,
    limit: 100,
    ...options,
  });
}

const dailyQuery = (day: string) => `__dreaming_daily__:${day}`;

/** `count` list items of the note of `day`, each a distinct sentence. */
const items = (day: string, count: number) =>
  Array.from({ length: count }, (_, index) => `- Item ${index + 1} noted on ${day} for the team`).join("\n");

describe("daily ingestion: which notes are read", () => {
  it("reads the dated notes of the last max(14, lookbackDays) days, newest first", async () => {
    const dir = await workspaceWith({
      "memory/2026-11-20.md": "- Moved the deploy to Thursday\n",
      "memory/2026-11-19.md": "- Renew the passport before the Lisbon trip\n",
      // A daily note with a slug is of its date.
      "memory/2026-11-18-standup.md": "- Standup moved to 9:15 on Mondays\n",
      // 14 days before 2026-11-20: inside a 14-day window.
      "memory/2026-11-06.md": "- Book the ryokan in Kyoto by March\n",
      // 15 days before: outside it, inside a 20-day one.
      "memory/2026-11-05.md": "- Knee physio on Thursdays at 8:30\n",
      // 20 and 21 days before.
      "memory/2026-10-31.md": "- Ana prefers oat milk in her coffee\n",
      "memory/2026-10-30.md": "- Staging database lives in Frankfurt\n",
      // Never ingested: long-term memory, an undated note, sleep's own reports.
      "MEMORY.md": "# Memory\n- Ana lives in Porto\n",
      "memory/people.md": "- Ana is the team's designer\n",
      "memory/dreaming/light/2026-11-19.md": "# Light Sleep\n\n- Candidate: use pnpm everywhere\n",
      "memory/dreaming/rem/2026-11-19.md": "# REM Sleep\n\n- Theme: pnpm kept surfacing\n",
    });
    // lookbackDays 2 → max(14, 2) = 14 days: 2026-11-06 … 2026-11-20.
    const short = await plan(dir, { lookbackDays: 2 });
    expect(short.searches.map((search) => search.query)).toEqual([
      dailyQuery("2026-11-20"),
      dailyQuery("2026-11-19"),
      dailyQuery("2026-11-18"),
      dailyQuery("2026-11-06"),
    ]);
    expect(short).toMatchObject({ files: 4, read: 4 });
    // lookbackDays 20 → 20 days: 2026-10-31 … 2026-11-20.
    const long = await plan(dir, { lookbackDays: 20 });
    expect(long.searches.map((search) => search.query)).toEqual([
      dailyQuery("2026-11-20"),
      dailyQuery("2026-11-19"),
      dailyQuery("2026-11-18"),
      dailyQuery("2026-11-06"),
      dailyQuery("2026-11-05"),
      dailyQuery("2026-10-31"),
    ]);
    const paths = long.searches.flatMap((search) => search.hits.map((hit) => hit.path));
    expect(paths).toEqual([
      "memory/2026-11-20.md",
      "memory/2026-11-19.md",
      "memory/2026-11-18-standup.md",
      "memory/2026-11-06.md",
      "memory/2026-11-05.md",
      "memory/2026-10-31.md",
    ]);
  });

  it("skips a note unchanged since it was read today, and reads it again once changed or on a new day", async () => {
    const dir = await workspaceWith({
      "memory/2026-11-20.md": "- Moved the deploy to Thursday\n",
      "memory/2026-11-19.md": "- Renew the passport before the Lisbon trip\n",
    });
    const first = await plan(dir);
    expect(first).toMatchObject({ files: 2, read: 2 });
    await recordDailyIngestion(context, dir, first, "UTC");

    // Same day, nothing changed: nothing read.
    const again = await plan(dir, { now: "2026-11-20T15:00:00Z" });
    expect(again).toMatchObject({ files: 2, read: 0 });
    expect(again.searches.flatMap((search) => search.hits)).toEqual([]);

    // A note grows (size and time change): only it is read.
    write(
      dir,
      "memory/2026-11-19.md",
      "- Renew the passport before the Lisbon trip\n- Photos at the kiosk\n",
    );
    utimesSync(
      join(dir, "memory/2026-11-19.md"),
      new Date("2026-11-20T15:30:00Z"),
      new Date("2026-11-20T15:30:00Z"),
    );
    await memory.workspace(dir).index();
    const grown = await plan(dir, { now: "2026-11-20T16:00:00Z" });
    expect(grown).toMatchObject({ files: 2, read: 1 });
    expect(grown.searches.filter((search) => search.hits.length > 0).map((search) => search.query)).toEqual([
      dailyQuery("2026-11-19"),
    ]);
    await recordDailyIngestion(context, dir, grown, "UTC");

    // Same size, new modification time: read again.
    // "Thursday" and "Saturday" have the same length.
    write(dir, "memory/2026-11-20.md", "- Moved the deploy to Saturday\n");
    utimesSync(
      join(dir, "memory/2026-11-20.md"),
      new Date("2026-11-20T16:30:00Z"),
      new Date("2026-11-20T16:30:00Z"),
    );
    await memory.workspace(dir).index();
    const touched = await plan(dir, { now: "2026-11-20T17:00:00Z" });
    expect(touched).toMatchObject({ files: 2, read: 1 });
    await recordDailyIngestion(context, dir, touched, "UTC");
    expect(await plan(dir, { now: "2026-11-20T18:00:00Z" })).toMatchObject({ read: 0 });

    // Only the modification time changes (same bytes): read again too.
    utimesSync(
      join(dir, "memory/2026-11-19.md"),
      new Date("2026-11-20T18:30:00Z"),
      new Date("2026-11-20T18:30:00Z"),
    );
    await memory.workspace(dir).index();
    expect(await plan(dir, { now: "2026-11-20T19:00:00Z" })).toMatchObject({ files: 2, read: 1 });

    // The next dreaming day: every note in the window is read again, changed or not.
    const nextDay = await plan(dir, { now: "2026-11-21T03:00:00Z", today: "2026-11-21" });
    expect(nextDay).toMatchObject({ files: 2, read: 2 });
  });
});

describe("daily ingestion: snippets and caps", () => {
  it("keeps snippets of 8 to 280 characters", async () => {
    const long = `- ${"The migration plan covers every table of the billing schema ".repeat(6).trim()}`;
    expect(long.length).toBeGreaterThan(282);
    const dir = await workspaceWith({
      "memory/2026-11-20.md": ["- ok", "- Renew the passport before the Lisbon trip", long].join("\n"),
    });
    const planned = await plan(dir);
    await recordDailyIngestion(context, dir, planned, "UTC");
    const entries = await memory.workspace(dir).signals();
    // "ok" (2 characters) says nothing; the long item is kept, cut to at most 280.
    expect(entries.map((each) => each.startLine).sort()).toEqual([2, 3]);
    for (const each of entries) {
      expect(each.snippet.length).toBeGreaterThanOrEqual(8);
      expect(each.snippet.length).toBeLessThanOrEqual(280);
    }
  });

  it("leaves out the blocks the light and REM phases manage", async () => {
    const dir = await workspaceWith({
      "memory/2026-11-20.md": [
        "## Light Sleep", // 1
        "<!-- openclaw:dreaming:light:start -->", // 2
        "- Candidate: use pnpm everywhere", // 3
        "<!-- openclaw:dreaming:light:end -->", // 4
        "## REM Sleep", // 5
        "<!-- openclaw:dreaming:rem:start -->", // 6
        "- Theme: `pnpm` kept surfacing across 3 memories.", // 7
        "<!-- openclaw:dreaming:rem:end -->", // 8
        "- Renew the passport before the Lisbon trip", // 9
      ].join("\n"),
    });
    const planned = await plan(dir);
    expect(planned.searches.flatMap((search) => search.hits.map((hit) => hit.startLine))).toEqual([9]);
  });

  it("reads at most max(20, limit × 4) snippets, max(6, ceil(total / notes)) a note, newest first", async () => {
    const days = ["2026-11-20", "2026-11-19", "2026-11-18", "2026-11-17", "2026-11-16"];
    const dir = await workspaceWith(
      Object.fromEntries(days.map((day) => [`memory/${day}.md`, items(day, 10)])),
    );
    const perNote = async (limit: number) =>
      (await plan(dir, { limit })).searches
        .filter((search) => search.hits.length > 0)
        .map((search) => [search.day, search.hits.length]);
    // limit 5: total max(20, 20) = 20; a note max(6, ceil(20 / 5) = 4) = 6 → 6, 6, 6, then the 2 left.
    expect(await perNote(5)).toEqual([
      ["2026-11-20", 6],
      ["2026-11-19", 6],
      ["2026-11-18", 6],
      ["2026-11-17", 2],
    ]);
    // limit 10: total 40; a note max(6, ceil(40 / 5) = 8) = 8 → 8 from each of the 5 notes.
    expect(await perNote(10)).toEqual(days.map((day) => [day, 8]));
    // limit 1: total max(20, 4) = 20, still 6 a note.
    expect((await perNote(1)).map(([, count]) => count)).toEqual([6, 6, 6, 2]);
  });

  it("gives a single note the whole total", async () => {
    const dir = await workspaceWith({ "memory/2026-11-20.md": items("2026-11-20", 30) });
    // limit 2: total max(20, 8) = 20; one note: max(6, ceil(20 / 1)) = 20.
    const planned = await plan(dir, { limit: 2 });
    expect(planned.searches.map((search) => search.hits.length)).toEqual([20]);
  });
});

describe("daily ingestion: the signals recorded", () => {
  it("records a daily sighting of 0.62 for the note's query, on the note's day", async () => {
    expect(DAILY_SCORE).toBe(0.62);
    const dir = await workspaceWith({
      "memory/2026-11-19.md": "- Renew the passport before the Lisbon trip\n",
    });
    const planned = await plan(dir);
    expect(planned.searches).toHaveLength(1);
    expect(planned.searches[0]).toMatchObject({ query: dailyQuery("2026-11-19"), day: "2026-11-19" });
    expect(planned.searches[0]?.hits).toEqual([
      expect.objectContaining({ path: "memory/2026-11-19.md", startLine: 1, endLine: 1, score: 0.62 }),
    ]);
    expect(await recordDailyIngestion(context, dir, planned, "UTC")).toBe(1);
    const [entry, ...rest] = await memory.workspace(dir).signals();
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      key: recallKey("memory/2026-11-19.md", 1, 1),
      snippet: "Renew the passport before the Lisbon trip",
      recallCount: 0,
      dailyCount: 1,
      groundedCount: 0,
      totalScore: 0.62,
      maxScore: 0.62,
      // The note's day, not the sweep's (2026-11-20).
      recallDays: ["2026-11-19"],
      queryHashes: [queryHash(dailyQuery("2026-11-19"))],
      // Not a question anyone asked.
      userQueryHashes: [],
    });
    expect(Date.parse(entry?.lastRecalledAt ?? "")).toBe(Date.parse(NOW));
    // The checkpoint of the note read is kept.
    const checkpoints = await context.store.listSleepState(dir, DAILY_CHECKPOINTS);
    expect(checkpoints.map((each) => each.key)).toEqual(["memory/2026-11-19.md"]);
  });

  it("never moves the last recall of an entry a search already recorded", async () => {
    const dir = await workspaceWith({
      "memory/2026-11-19.md": "- Renew the passport before the Lisbon trip\n",
    });
    const workspace = memory.workspace(dir);
    await workspace.record(
      "when does the passport expire?",
      [{ path: "memory/2026-11-19.md", startLine: 1, endLine: 1, score: 0.9 }],
      { at: "2026-11-19T09:00:00Z" },
    );
    const [before] = await workspace.signals();
    await recordDailyIngestion(context, dir, await plan(dir), "UTC");
    const [after] = await workspace.signals();
    // One recall (0.9) and one daily sighting (0.62): 1.52 in all; the last recall stays the search's.
    expect(after).toMatchObject({ recallCount: 1, dailyCount: 1, recallDays: ["2026-11-19"] });
    expect(after?.totalScore).toBeCloseTo(1.52);
    expect(after?.lastRecalledAt).toBe(before?.lastRecalledAt);
    expect(Date.parse(after?.lastRecalledAt ?? "")).toBe(Date.parse("2026-11-19T09:00:00Z"));
  });

  it("never stores a credential a note holds", async () => {
    const dir = await workspaceWith({
      "memory/2026-11-20.md": `- deploy token for the trip site: ${token}\n`,
    });
    await recordDailyIngestion(context, dir, await plan(dir), "UTC");
    const entries = await memory.workspace(dir).signals();
    expect(entries.map((each) => each.snippet)).toEqual([
      "deploy token for the trip site: [REDACTED:github-pat]",
    ]);
    expect(JSON.stringify(await context.store.listRecalls(dir))).not.toContain(token);
  });
});

describe("daily ingestion: a preview", () => {
  it("shows the entries as they would be, and writes nothing", async () => {
    const dir = await workspaceWith({
      "memory/2026-11-20.md": "- Moved the deploy to Thursday\n",
      "memory/2026-11-19.md": "- Renew the passport before the Lisbon trip\n",
    });
    const workspace = memory.workspace(dir);
    await workspace.record(
      "when does the passport expire?",
      [{ path: "memory/2026-11-19.md", startLine: 1, endLine: 1, score: 0.9 }],
      { at: "2026-11-19T09:00:00Z" },
    );
    const stored = await workspace.signals();
    const planned = await plan(dir);
    const previewed = withIngestion(stored, planned);

    // Nothing written: the same signals, no checkpoint, and the next plan reads the same notes.
    expect(await workspace.signals()).toEqual(stored);
    expect(await context.store.listSleepState(dir, DAILY_CHECKPOINTS)).toEqual([]);
    expect(await plan(dir)).toMatchObject({ files: 2, read: 2 });

    // The preview: the searched entry gains a daily sighting, last recall unmoved; the other is new.
    const byKey = new Map(previewed.map((each) => [each.key, each]));
    expect(byKey.get(recallKey("memory/2026-11-19.md", 1, 1))).toMatchObject({
      recallCount: 1,
      dailyCount: 1,
      lastRecalledAt: stored[0]?.lastRecalledAt,
    });
    expect(byKey.get(recallKey("memory/2026-11-20.md", 1, 1))).toMatchObject({
      recallCount: 0,
      dailyCount: 1,
      totalScore: 0.62,
      recallDays: ["2026-11-20"],
    });

    // And it is what recording gives.
    await recordDailyIngestion(context, dir, planned, "UTC");
    const recorded = await workspace.signals();
    const summary = (
      entries: readonly {
        key: string;
        recallCount: number;
        dailyCount: number;
        totalScore: number;
        recallDays: readonly string[];
      }[],
    ) =>
      entries
        .map((each) => [
          each.key,
          each.recallCount,
          each.dailyCount,
          Number(each.totalScore.toFixed(4)),
          each.recallDays,
        ])
        .sort();
    expect(summary(previewed)).toEqual(summary(recorded));
  });
});
