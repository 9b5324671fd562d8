/**
 * Backfilling the Dream Diary from past daily notes, and rolling it back exactly: on a real store
 * and real files.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemoryContext } from "../../src/core/context.js";
import { isLucidError } from "../../src/errors.js";
import { type Memory, openMemory } from "../../src/index.js";
import {
  BACKFILL_STATE,
  backfillDiary,
  MAX_BACKFILL_DAYS,
  rollbackBackfill,
} from "../../src/sleep/diary-backfill.js";
import { appendDiaryEntry, diaryEntries } from "../../src/sleep/dream-diary.js";
import { createFakeSecrets } from "../fixtures/secrets/fake-secrets.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("diary-backfill");
const token = createFakeSecrets(5)["github-pat"]?.() ?? "";
const ZONE = "Europe/Lisbon";
const NOW = "2026-04-01T09:00:00Z";
const range = { from: "2026-03-01", to: "2026-03-06", timeZone: ZONE, now: NOW };
const marker = (day: string, source = "lucid") =>
  `<!-- openclaw:dreaming:backfill-entry day=${day} source=${source} -->`;
let memory: Memory;
let context: MemoryContext;

let made = 0;
/** A workspace with a week of notes: two for 2 March, one for 3, 4, 5 (nothing to tell) and 6. */
function workspace(): string {
  const dir = join(files.dir, `ws-${++made}`);
  const note = (path: string, lines: string[]) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), `${lines.join("\n")}\n`);
  };
  note("memory/2026-03-02.md", [
    "# Travel",
    "- book the ryokan in Kyoto by March",
    "- Kyoto trip: ask Mia about the temple pass",
  ]);
  note("memory/2026-03-02-standup.md", [
    "## Standup",
    "The billing-api migration is blocked on schema review.",
  ]);
  note("memory/2026-03-03.md", ["- dentist on Thursday, the one near the station"]);
  note("memory/2026-03-04.md", ["# Garden", "- the tomatoes need stakes before the wind comes"]);
  note("memory/2026-03-05.md", ["# 2026-03-05", "## Todo"]);
  note("memory/2026-03-06.md", [`- deploy token for the trip site: ${token}`]);
  // Not daily notes of the range: another day, the phases' reports, hidden and undated files.
  note("memory/2026-03-10.md", ["- outside the range entirely"]);
  note("memory/dreaming/deep/2026-03-03.md", ["- a report the deep phase wrote"]);
  note("memory/.hidden/2026-03-03.md", ["- hidden folders are not notes"]);
  note("memory/projects.md", ["- an undated note about projects"]);
  return dir;
}
const diaryOf = (dir: string) => readFileSync(join(dir, "DREAMS.md"), "utf8");

beforeAll(async () => {
  memory = await openMemory({ path: files.path(), embedder: scriptedEmbedder(3, () => [1, 0, 0]) });
  context = await memory.ready();
});
afterAll(async () => {
  await memory.close();
});

describe("backfilling the diary", () => {
  it("writes one marked entry for each day with notes, in day order, labelled with the day", async () => {
    const dir = workspace();
    const result = await backfillDiary(context, dir, range);
    expect(result.diary).toBe(join(dir, "DREAMS.md"));
    expect(result.written).toEqual([
      { day: "2026-03-02", source: "lucid", notes: ["memory/2026-03-02-standup.md", "memory/2026-03-02.md"] },
      { day: "2026-03-03", source: "lucid", notes: ["memory/2026-03-03.md"] },
      { day: "2026-03-04", source: "lucid", notes: ["memory/2026-03-04.md"] },
      { day: "2026-03-06", source: "lucid", notes: ["memory/2026-03-06.md"] },
    ]);
    expect(result.skipped).toEqual([
      { day: "2026-03-01", reason: "no-notes" },
      { day: "2026-03-05", reason: "nothing-to-tell" },
    ]);
    const text = diaryOf(dir);
    const entries = diaryEntries(text);
    expect(entries.map((entry) => [entry.date, entry.backfillDay])).toEqual([
      ["March 2, 2026", "2026-03-02"],
      ["March 3, 2026", "2026-03-03"],
      ["March 4, 2026", "2026-03-04"],
      ["March 6, 2026", "2026-03-06"],
    ]);
    for (const day of ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-06"])
      expect(text).toContain(marker(day));
    // Told from the day's own notes, its recurring tags as themes, each quote cited.
    const [second] = entries;
    expect(second?.body).toMatch(/travel and kyoto/u);
    expect(second?.body).toContain("(memory/2026-03-02.md#L2-L2)");
    expect(second?.body).toContain("(memory/2026-03-02-standup.md#L2-L2)");
    expect(text).not.toMatch(/outside the range|deep phase wrote|hidden folders|undated note/u);
  });

  it("never lets a credential in a note reach DREAMS.md", async () => {
    const dir = workspace();
    await backfillDiary(context, dir, range);
    const text = diaryOf(dir);
    expect(token.length).toBeGreaterThan(20);
    expect(text).not.toContain(token);
    expect(text).toContain("[REDACTED:github-pat]");
    const state = await context.store.listSleepState(dir, BACKFILL_STATE);
    expect(JSON.stringify(state)).not.toContain(token);
  });

  it("writes nothing new when run again", async () => {
    const dir = workspace();
    await backfillDiary(context, dir, range);
    const before = diaryOf(dir);
    const again = await backfillDiary(context, dir, { ...range, now: "2026-04-02T09:00:00Z" });
    expect(again.written).toEqual([]);
    expect(
      again.skipped.filter((each) => each.reason === "already-backfilled").map((each) => each.day),
    ).toEqual(["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-06"]);
    expect(diaryOf(dir)).toBe(before);
    const state = await context.store.listSleepState(dir, BACKFILL_STATE);
    expect(state.map((record) => [record.key, record.updatedAt])).toEqual([
      ["2026-03-02", "2026-04-01T09:00:00.000Z"],
      ["2026-03-03", "2026-04-01T09:00:00.000Z"],
      ["2026-03-04", "2026-04-01T09:00:00.000Z"],
      ["2026-03-06", "2026-04-01T09:00:00.000Z"],
    ]);
  });

  it("refuses bad ranges, zones and clocks with INVALID_ARGUMENT, writing nothing", async () => {
    const dir = workspace();
    const bad = [
      { from: "2026-02-30", to: "2026-03-02" },
      { from: "2026-3-1", to: "2026-03-02" },
      { from: "2026-03-01", to: "tomorrow" },
      { from: "2026-03-05", to: "2026-03-01" },
      { from: "2016-01-01", to: "2026-12-31" },
      { from: "2026-03-01", to: "2026-03-02", timeZone: "Mars/Olympus_Mons" },
      { from: "2026-03-01", to: "2026-03-02", now: "last tuesday" },
    ];
    for (const options of bad) {
      const error = await backfillDiary(context, dir, { timeZone: ZONE, ...options }).catch(
        (caught: unknown) => caught,
      );
      expect(isLucidError(error, "INVALID_ARGUMENT"), JSON.stringify(options)).toBe(true);
    }
    expect(existsSync(join(dir, "DREAMS.md"))).toBe(false);
    // The longest range allowed runs.
    const to = new Date(Date.parse("2016-01-01T00:00:00Z") + (MAX_BACKFILL_DAYS - 1) * 86_400_000);
    const longest = await backfillDiary(context, dir, {
      ...range,
      from: "2016-01-01",
      to: to.toISOString().slice(0, 10),
    });
    expect(longest.written.length + longest.skipped.length).toBe(MAX_BACKFILL_DAYS);
  });
});

const HAND_WRITTEN = [
  "# Dream Diary",
  "",
  "Written by hand above the section.",
  "",
  "<!-- openclaw:dreaming:diary:start -->",
  "A line typed by hand at the top of the section.",
  "",
  "---",
  "",
  "*March 3, 2026*",
  "",
  marker("2026-03-03", "memory/2026-03-03.md"),
  "",
  "OpenClaw remembered the dentist.",
  "",
  "---",
  "",
  "*April 5, 2026, 3:00 AM PDT*",
  "",
  // No blank line before the end marker: the backfill has to put one before its first entry.
  "We went back over the day's notes.",
  "<!-- openclaw:dreaming:diary:end -->",
  "",
  "## Kept by hand",
  "",
  "- a list under the diary",
  "",
].join("\n");

describe("rolling a backfill back", () => {
  it("removes exactly the entries it wrote: the diary gets its bytes back, OpenClaw's entry stays", async () => {
    const dir = workspace();
    writeFileSync(join(dir, "DREAMS.md"), HAND_WRITTEN);
    const result = await backfillDiary(context, dir, range);
    expect(result.written.map((each) => each.day)).toEqual(["2026-03-02", "2026-03-04", "2026-03-06"]);
    expect(result.skipped).toContainEqual({ day: "2026-03-03", reason: "already-backfilled" });
    const dated = diaryEntries(diaryOf(dir)).filter((entry) => entry.date !== "");
    expect(dated.map((entry) => entry.backfillDay ?? entry.date)).toEqual([
      "2026-03-03",
      "April 5, 2026, 3:00 AM PDT",
      "2026-03-02",
      "2026-03-04",
      "2026-03-06",
    ]);

    const rollback = await rollbackBackfill(context, dir, { now: "2026-04-02T09:00:00Z" });
    expect(rollback).toEqual({
      removed: 3,
      days: ["2026-03-02", "2026-03-04", "2026-03-06"],
      kept: [],
      missing: [],
    });
    expect(diaryOf(dir)).toBe(HAND_WRITTEN);
    expect(await context.store.listSleepState(dir, BACKFILL_STATE)).toEqual([]);
  });

  it("leaves an entry written after the backfill, and the blank line it needs", async () => {
    const dir = workspace();
    writeFileSync(join(dir, "DREAMS.md"), HAND_WRITTEN);
    await backfillDiary(context, dir, range);
    const live = { at: "2026-04-02T02:00:00Z", timeZone: ZONE, body: "A quiet night over the garden notes." };
    writeFileSync(join(dir, "DREAMS.md"), appendDiaryEntry(diaryOf(dir), live).text);
    expect((await rollbackBackfill(context, dir)).removed).toBe(3);
    expect(diaryOf(dir)).toBe(appendDiaryEntry(HAND_WRITTEN, live).text);
  });

  it("keeps an entry edited by hand, unless forced", async () => {
    const dir = workspace();
    await backfillDiary(context, dir, range);
    const edited = diaryOf(dir).replace(
      marker("2026-03-04"),
      `${marker("2026-03-04")}\n\nI added this by hand.`,
    );
    writeFileSync(join(dir, "DREAMS.md"), edited);
    const first = await rollbackBackfill(context, dir);
    expect(first).toEqual({
      removed: 3,
      days: ["2026-03-02", "2026-03-03", "2026-03-06"],
      kept: [{ day: "2026-03-04", reason: "edited" }],
      missing: [],
    });
    expect(diaryEntries(diaryOf(dir)).map((entry) => entry.backfillDay)).toEqual(["2026-03-04"]);
    expect(diaryOf(dir)).toContain("I added this by hand.");
    const forced = await rollbackBackfill(context, dir, { force: true });
    expect(forced).toMatchObject({ removed: 1, days: ["2026-03-04"], kept: [] });
    // The backfill had created DREAMS.md: with its last entry gone, so is the file.
    expect(existsSync(join(dir, "DREAMS.md"))).toBe(false);
  });

  it("gives a diary without a diary section its exact bytes back", async () => {
    const dir = workspace();
    const own = "My own dream notes.\n\n- the one with the lighthouse\n";
    writeFileSync(join(dir, "DREAMS.md"), own);
    await backfillDiary(context, dir, range);
    expect(diaryOf(dir)).not.toBe(own);
    expect((await rollbackBackfill(context, dir)).removed).toBe(4);
    expect(diaryOf(dir)).toBe(own);
  });

  it("forgets entries already gone, and removes nothing when nothing was recorded", async () => {
    const dir = workspace();
    writeFileSync(join(dir, "DREAMS.md"), HAND_WRITTEN);
    expect(await rollbackBackfill(context, dir)).toEqual({ removed: 0, days: [], kept: [], missing: [] });
    expect(diaryOf(dir)).toBe(HAND_WRITTEN);

    await backfillDiary(context, dir, range);
    writeFileSync(join(dir, "DREAMS.md"), HAND_WRITTEN);
    expect(await rollbackBackfill(context, dir)).toMatchObject({
      removed: 0,
      missing: ["2026-03-02", "2026-03-04", "2026-03-06"],
    });
    expect(diaryOf(dir)).toBe(HAND_WRITTEN);
    expect(await context.store.listSleepState(dir, BACKFILL_STATE)).toEqual([]);
  });

  it("logs what each run did", async () => {
    const dir = workspace();
    await backfillDiary(context, dir, range);
    await rollbackBackfill(context, dir, { now: "2026-04-02T09:00:00Z" });
    const events = await context.store.listSleepEvents(dir, { type: "memory.dream.completed" });
    expect(events.map((event) => [event.at, event.data])).toEqual([
      [
        "2026-04-02T09:00:00.000Z",
        { phase: "backfill-rollback", outcome: "completed", removed: 4, kept: 0, missing: 0 },
      ],
      [
        "2026-04-01T09:00:00.000Z",
        {
          phase: "backfill",
          outcome: "completed",
          from: "2026-03-01",
          to: "2026-03-06",
          written: 4,
          skipped: 2,
        },
      ],
    ]);
  });
});
