/**
 * DREAMS.md: the diary section and its entries in OpenClaw's layout, the deep report after it,
 * backfilled entries rolled back exactly, and the file itself (found, refused, left alone, written).
 */
import { lstatSync, mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isLucidError } from "../../src/errors.js";
import { composeDiaryEntry } from "../../src/sleep/diary-entry.js";
import {
  appendDiaryEntry,
  backfillDateLabel,
  type DiaryEntryInput,
  deepReportBody,
  diaryDateLabel,
  diaryEntries,
  locateDiary,
  readDiary,
  removeBackfillEntries,
  updateDiary,
  upsertDeepReport,
} from "../../src/sleep/dream-diary.js";
import { MARKDOWN_MAX_BYTES } from "../../src/sleep/managed-block.js";
import { tempFiles } from "../helpers/temp-dir.js";

const GOLDEN = fileURLToPath(new URL("../fixtures/sleep/dreams-golden.md", import.meta.url));
const files = tempFiles("dream-diary");
let made = 0;
const workspace = () => {
  const dir = join(files.dir, `ws-${++made}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

const LA = "America/Los_Angeles";
const START = "<!-- openclaw:dreaming:diary:start -->";
const END = "<!-- openclaw:dreaming:diary:end -->";
const first: DiaryEntryInput = {
  at: "2026-04-05T10:00:00Z",
  timeZone: LA,
  body:
    "The notes kept drifting toward Kyoto tonight, toward a ryokan that still needs booking.\n\n" +
    "Somewhere under it all, a knee that wants its Thursday physio.",
};
const second: DiaryEntryInput = {
  at: "2026-04-06T10:00:00.000Z",
  timeZone: LA,
  body:
    composeDiaryEntry({
      day: "2026-04-06",
      themes: ["kyoto", "ryokan"],
      staged: [
        {
          snippet: "Travel: book the ryokan in Kyoto by March",
          path: "memory/2026-04-04.md",
          startLine: 3,
          endLine: 3,
        },
      ],
      reflections: [],
      truths: [],
      promoted: [
        {
          snippet: "- Alice prefers window seats on long flights",
          path: "memory/2026-04-02.md",
          startLine: 5,
          endLine: 6,
        },
      ],
    }) ?? "",
};
const report = () =>
  deepReportBody({
    ranked: 4,
    promoted: 1,
    refusedByReason: { budget: 1, "source-changed": 2, "not-found": 0 },
  });
const entry = (date: string, body: string) => `---\n\n*${date}*\n\n${body}\n\n`;
const backfill = (day: string, label: string, body: string) =>
  `---\n\n*${label}*\n\n<!-- openclaw:dreaming:backfill-entry day=${day} source=memory/${day}.md -->\n\n${body}\n\n`;

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isLucidError(error) ? error.code : "not a LucidError";
  }
  return undefined;
}

describe("the diary file after two entries and a deep report", () => {
  it("is byte for byte the golden file, in text and on disk", async () => {
    const golden = readFileSync(GOLDEN, "utf8");
    let text = appendDiaryEntry("", first).text;
    text = appendDiaryEntry(text, second).text;
    text = upsertDeepReport(text, report());
    expect(text).toBe(golden);

    const dir = workspace();
    await updateDiary(dir, (current) => appendDiaryEntry(current, first).text);
    await updateDiary(dir, (current) => appendDiaryEntry(current, second).text);
    expect(await updateDiary(dir, (current) => upsertDeepReport(current, report()))).toEqual({
      path: join(dir, "DREAMS.md"),
      written: true,
    });
    expect(readFileSync(join(dir, "DREAMS.md")).equals(readFileSync(GOLDEN))).toBe(true);
    // Again: nothing new to write.
    expect(
      (
        await updateDiary(dir, (current) =>
          upsertDeepReport(appendDiaryEntry(current, second).text, report()),
        )
      ).written,
    ).toBe(false);
  });

  it("reads its entries back, oldest first", () => {
    expect(diaryEntries(readFileSync(GOLDEN, "utf8"))).toEqual([
      { date: "April 5, 2026, 3:00 AM PDT", body: first.body },
      { date: "April 6, 2026, 3:00 AM PDT", body: second.body },
    ]);
  });
});

describe("the date an entry is labelled with", () => {
  it("is en-US in the zone given, with the zone's short name", () => {
    expect(diaryDateLabel("2026-04-05T10:00:00Z", LA)).toBe("April 5, 2026, 3:00 AM PDT");
    expect(diaryDateLabel("2026-01-05T08:00:00Z", LA)).toBe("January 5, 2026, 12:00 AM PST");
    expect(diaryDateLabel("2026-11-29T12:05:00+00:00", "UTC")).toBe("November 29, 2026, 12:05 PM UTC");
    expect(diaryDateLabel("2026-11-29T23:59:00Z", "Asia/Tokyo")).toBe("November 30, 2026, 8:59 AM GMT+9");
    expect(backfillDateLabel("2026-03-17")).toBe("March 17, 2026");
  });

  it("refuses a time that does not parse, an unknown zone and a bad day", () => {
    expect(codeOf(() => diaryDateLabel("yesterday", LA))).toBe("INVALID_ARGUMENT");
    expect(codeOf(() => diaryDateLabel("2026-04-05T10:00:00Z", "Mars/Olympus"))).toBe("INVALID_ARGUMENT");
    expect(codeOf(() => backfillDateLabel("2026-3-17"))).toBe("INVALID_ARGUMENT");
  });
});

describe("appendDiaryEntry", () => {
  it("prepends the section above what the file holds, which stays byte for byte", () => {
    const existing = "Notes I keep here myself.  \r\n\r\n## Ideas\r\n- one\r\n";
    const { text, added } = appendDiaryEntry(existing, first);
    expect(added).toBe(true);
    expect(text).toBe(
      `# Dream Diary\n\n${START}\n${entry("April 5, 2026, 3:00 AM PDT", first.body)}${END}\n\n${existing}`,
    );
    expect(appendDiaryEntry("\nblank first\n", first).text.endsWith(`${END}\n\nblank first\n`)).toBe(true);
  });

  it("puts the section under an existing # Dream Diary heading rather than a second one", () => {
    const { text } = appendDiaryEntry("# Dream Diary\n\nAn old note.\n", first);
    expect(text).toBe(
      `# Dream Diary\n\n${START}\n${entry("April 5, 2026, 3:00 AM PDT", first.body)}${END}\n\nAn old note.\n`,
    );
  });

  it("appends before the end marker, with a blank line before the separator", () => {
    const openclaw = `# Dream Diary\n\n${START}\n---\n\n*April 1, 2026*\n\nTheirs.\n${END}\n\n## Mine\n`;
    const { text } = appendDiaryEntry(openclaw, first);
    expect(text).toBe(
      `# Dream Diary\n\n${START}\n---\n\n*April 1, 2026*\n\nTheirs.\n\n${entry("April 5, 2026, 3:00 AM PDT", first.body)}${END}\n\n## Mine\n`,
    );
    const empty = `${START}\n${END}\n`;
    expect(appendDiaryEntry(empty, first).text).toBe(
      `${START}\n${entry("April 5, 2026, 3:00 AM PDT", first.body)}${END}\n`,
    );
  });

  it("adds the same entry once, by its date and body", () => {
    const once = appendDiaryEntry("", first).text;
    expect(appendDiaryEntry(once, first)).toEqual({ text: once, added: false });
    expect(
      appendDiaryEntry(once, { ...first, body: `  ${first.body.replace("\n\n", "   \n\n")}\n` }).added,
    ).toBe(false);
    expect(appendDiaryEntry(once, { ...first, at: "2026-04-05T10:01:00Z" }).added).toBe(true);
    expect(appendDiaryEntry(once, { ...first, body: "Another night." }).added).toBe(true);
    // An entry OpenClaw appended (two blank lines before its separator) is the same entry.
    const theirs = `${START}\n\n---\n\n*April 5, 2026, 3:00 AM PDT*\n\nQuiet.\n\n\n${END}\n`;
    expect(appendDiaryEntry(theirs, { ...first, body: "Quiet." }).added).toBe(false);
  });

  it("keeps a dangling start marker: the entry goes under it, what followed follows the section", () => {
    const broken = `# Dream Diary\n\n${START}\nA half-written thought.\n`;
    const { text } = appendDiaryEntry(broken, first);
    expect(text).toBe(
      `# Dream Diary\n\n${START}\n${entry("April 5, 2026, 3:00 AM PDT", first.body)}${END}\n\nA half-written thought.\n`,
    );
    expect(appendDiaryEntry(text, first).added).toBe(false);
    // A stray end marker is no section: a fresh one goes on top, the stray stays.
    const stray = `Before.\n${END}\n`;
    expect(appendDiaryEntry(stray, first).text).toBe(
      `# Dream Diary\n\n${START}\n${entry("April 5, 2026, 3:00 AM PDT", first.body)}${END}\n\n${stray}`,
    );
  });

  it("tidies the body, and refuses an empty one", () => {
    const { text } = appendDiaryEntry("", {
      ...first,
      body: "One.\r\n---\r\n<!-- openclaw:dreaming:diary:end -->\r\n\r\n\r\n\r\nTwo.   ",
    });
    expect(diaryEntries(text)).toEqual([{ date: "April 5, 2026, 3:00 AM PDT", body: "One.\n* * *\n\nTwo." }]);
    expect(
      codeOf(() => appendDiaryEntry("", { ...first, body: " \n<!-- openclaw:dreaming:light:start -->" })),
    ).toBe("INVALID_ARGUMENT");
  });

  it("writes a backfilled entry with its day's label and the rollback marker first", () => {
    const { text } = appendDiaryEntry("", {
      ...first,
      body: "What that day held.",
      backfill: { day: "2026-03-17", source: "memory/2026-03-17.md" },
    });
    expect(text).toBe(
      `# Dream Diary\n\n${START}\n${backfill("2026-03-17", "March 17, 2026", "What that day held.")}${END}\n`,
    );
    expect(diaryEntries(text)).toEqual([
      { date: "March 17, 2026", body: "What that day held.", backfillDay: "2026-03-17" },
    ]);
    const bad = { ...first, backfill: { day: "2026-03-17", source: "x --> y" } };
    expect(codeOf(() => appendDiaryEntry("", bad))).toBe("INVALID_ARGUMENT");
  });
});

describe("removeBackfillEntries", () => {
  const mine = "*My own line*\n\nWritten by hand,   with odd spacing.\n\n";
  const diary =
    `Above the section.\n\n# Dream Diary\n\n${START}\n` +
    `${entry("April 1, 2026, 3:00 AM PDT", "Kept one.")}` +
    `${backfill("2026-03-17", "March 17, 2026", "Backfilled one.")}` +
    `---\n\n${mine}` +
    `${backfill("2026-03-18", "March 18, 2026", "Backfilled two.")}` +
    `${entry("April 2, 2026, 3:00 AM PDT", "Kept two.")}` +
    `${END}\n\nBelow the section.\n`;

  it("removes exactly the marked entries and their separators, and nothing else", () => {
    const { text, removed } = removeBackfillEntries(diary);
    expect(removed).toBe(2);
    expect(text).toBe(
      `Above the section.\n\n# Dream Diary\n\n${START}\n` +
        `${entry("April 1, 2026, 3:00 AM PDT", "Kept one.")}---\n\n${mine}` +
        `${entry("April 2, 2026, 3:00 AM PDT", "Kept two.")}${END}\n\nBelow the section.\n`,
    );
    expect(removeBackfillEntries(text)).toEqual({ text, removed: 0 });
  });

  it("removes only the days asked for", () => {
    const { text, removed } = removeBackfillEntries(diary, { days: ["2026-03-18", "2026-01-01"] });
    expect(removed).toBe(1);
    expect(text).toBe(diary.replace(backfill("2026-03-18", "March 18, 2026", "Backfilled two."), ""));
    expect(removeBackfillEntries(diary, { days: [] })).toEqual({ text: diary, removed: 0 });
  });

  it("removes the last entry cleanly, and leaves a file without a section alone", () => {
    const only = `${START}\n${backfill("2026-03-17", "March 17, 2026", "Alone.")}${END}\n`;
    expect(removeBackfillEntries(only)).toEqual({ text: `${START}\n${END}\n`, removed: 1 });
    const loose = backfill("2026-03-17", "March 17, 2026", "Outside any section.");
    expect(removeBackfillEntries(loose)).toEqual({ text: loose, removed: 0 });
  });
});

describe("the deep report", () => {
  it("counts what was ranked, promoted and held back by reason, most first; nothing for an empty sweep", () => {
    expect(report()).toBe(
      [
        "- Ranked 4 candidate(s) for durable promotion.",
        "- Promoted 1 candidate(s) into MEMORY.md.",
        "- Held back 2 candidate(s): source-changed.",
        "- Held back 1 candidate(s): budget.",
      ].join("\n"),
    );
    expect(deepReportBody({ ranked: 0, promoted: 0, refusedByReason: { budget: 0 } })).toBe("");
    expect(codeOf(() => deepReportBody({ ranked: -1, promoted: 0, refusedByReason: {} }))).toBe(
      "INVALID_ARGUMENT",
    );
  });

  it("goes right after the diary section, is replaced in place, and an empty body changes nothing", () => {
    const diary = appendDiaryEntry("Hand-written below.\n", first).text;
    const once = upsertDeepReport(diary, report());
    const block = `## Deep Sleep\n<!-- openclaw:dreaming:deep:start -->\n${report()}\n<!-- openclaw:dreaming:deep:end -->\n`;
    expect(once).toBe(diary.replace(`${END}\n\n`, `${END}\n\n${block}\n`));
    expect(upsertDeepReport(once, report())).toBe(once);
    const later = appendDiaryEntry(once, second).text;
    const again = upsertDeepReport(later, "- Ranked 1 candidate(s) for durable promotion.");
    expect(again).toBe(later.replace(report(), "- Ranked 1 candidate(s) for durable promotion."));
    expect(upsertDeepReport(again, " \n")).toBe(again);
    expect(upsertDeepReport("Just notes.\n", "- x")).toBe(
      "Just notes.\n\n## Deep Sleep\n<!-- openclaw:dreaming:deep:start -->\n- x\n<!-- openclaw:dreaming:deep:end -->\n",
    );
  });
});

describe("the diary file", () => {
  it("is DREAMS.md, or an existing dreams.md", async () => {
    const dir = workspace();
    expect(await locateDiary(dir)).toEqual({ path: join(dir, "DREAMS.md"), exists: false, tooLarge: false });
    expect(await readDiary(dir)).toBe("");
    writeFileSync(join(dir, "dreams.md"), "lower\n");
    const found = await locateDiary(dir);
    expect(found.exists).toBe(true);
    expect(found.path.endsWith("dreams.md")).toBe(true);
    expect(await readDiary(dir)).toBe("lower\n");
  });

  it("refuses a symbolic link or a folder, and leaves them alone", async () => {
    const dir = workspace();
    writeFileSync(join(dir, "elsewhere.md"), "theirs\n");
    symlinkSync(join(dir, "elsewhere.md"), join(dir, "DREAMS.md"));
    await expect(locateDiary(dir)).rejects.toMatchObject({ code: "IO_ERROR" });
    await expect(updateDiary(dir, (text) => appendDiaryEntry(text, first).text)).rejects.toMatchObject({
      code: "IO_ERROR",
    });
    expect(lstatSync(join(dir, "DREAMS.md")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, "elsewhere.md"), "utf8")).toBe("theirs\n");
    expect(await readDiary(dir)).toBe("");
    const folder = workspace();
    mkdirSync(join(folder, "DREAMS.md"));
    await expect(locateDiary(folder)).rejects.toMatchObject({ code: "IO_ERROR" });
  });

  it("leaves a diary over 16 MiB untouched and says so", async () => {
    const dir = workspace();
    const path = join(dir, "DREAMS.md");
    writeFileSync(path, "");
    truncateSync(path, MARKDOWN_MAX_BYTES + 1);
    expect(await locateDiary(dir)).toEqual({ path, exists: true, tooLarge: true });
    expect(await updateDiary(dir, (text) => appendDiaryEntry(text, first).text)).toEqual({
      path,
      written: false,
      reason: "too-large",
    });
    expect(lstatSync(path).size).toBe(MARKDOWN_MAX_BYTES + 1);
    expect(await readDiary(dir)).toBe("");
  });
});
