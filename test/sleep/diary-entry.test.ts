/**
 * The diary entry written without a model: a paragraph that says what the night found, with each
 * quote cited, never the staging fragments themselves, and never a stub.
 */
import { describe, expect, it } from "vitest";
import { contaminationOf } from "../../src/sleep/contamination.js";
import {
  composeDiaryEntry,
  countWords,
  type DiaryEntryMaterial,
  type EntryRange,
} from "../../src/sleep/diary-entry.js";

const range = (snippet: string, path: string, startLine: number, endLine = startLine): EntryRange => ({
  snippet,
  path,
  startLine,
  endLine,
});
const nothing: DiaryEntryMaterial = {
  themes: [],
  staged: [],
  reflections: [],
  truths: [],
  promoted: [],
  day: "2026-11-29",
};
const STAGED_FRAGMENT =
  "- Candidate: use pnpm\n  - confidence: 0.80\n  - evidence: memory/2026-11-04.md:3-3\n  - recalls: 4\n  - status: staged";

describe("composeDiaryEntry", () => {
  it("tells the night in plain sentences, each quote cited by its address", () => {
    const entry = composeDiaryEntry({
      day: "2026-11-29",
      themes: ["travel", "kyoto", "Travel", " "],
      staged: [
        range("Travel: book the ryokan in Kyoto by March", "memory/2026-11-04.md", 3),
        range("- Lisbon for the offsite", "memory/2026-11-05.md", 7),
      ],
      reflections: [
        { tag: "travel", count: 4 },
        { tag: "kyoto", count: 3 },
      ],
      truths: [
        {
          ...range("Alice prefers window seats on long flights", "memory/2026-11-02.md", 5, 6),
          confidence: 0.7,
        },
      ],
      promoted: [range("Health: knee physio on Thursdays at 8:30", "memory/2026-11-03.md", 2)],
    });
    expect(entry).toBe(
      "Tonight's pass over recent notes circled around travel and kyoto. " +
        "A few things came back more than once: “Travel: book the ryokan in Kyoto by March” (memory/2026-11-04.md#L3-L3) " +
        "and “Lisbon for the offsite” (memory/2026-11-05.md#L7-L7). " +
        "Some threads ran through many memories at once: travel in 4 and kyoto in 3. " +
        "Something here may hold for the long run: “Alice prefers window seats on long flights” (memory/2026-11-02.md#L5-L6). " +
        "We kept “Health: knee physio on Thursdays at 8:30” (memory/2026-11-03.md#L2-L2) for good; it now lives in MEMORY.md. " +
        "Everything else stays in the daily notes for now.",
    );
  });

  it("is nothing when there is no snippet to quote and no promotion", () => {
    expect(composeDiaryEntry(nothing)).toBeUndefined();
    expect(
      composeDiaryEntry({ ...nothing, themes: ["travel"], reflections: [{ tag: "travel", count: 4 }] }),
    ).toBeUndefined();
    expect(
      composeDiaryEntry({
        ...nothing,
        staged: [
          range(STAGED_FRAGMENT, "memory/2026-11-04.md", 3, 7),
          range("## Notes\n### Todo", "memory/x.md", 1),
        ],
        truths: [
          { ...range("<!-- openclaw-memory-promotion:memory:a:1:1 -->", "memory/a.md", 1), confidence: 0.9 },
        ],
      }),
    ).toBeUndefined();
  });

  it("skips contaminated snippets and never writes staging fragments", () => {
    const entry =
      composeDiaryEntry({
        ...nothing,
        staged: [
          range(STAGED_FRAGMENT, "memory/2026-11-04.md", 3, 7),
          range("Renew the passport", "memory/a.md", 9),
        ],
        reflections: [{ tag: "passport", count: 1 }],
        truths: [{ ...range("The dentist is on Elm Street", "memory/b.md", 2), confidence: 0.5 }],
      }) ?? "";
    expect(entry).toContain("“Renew the passport” (memory/a.md#L9-L9)");
    expect(entry).toContain("One thread ran through one memory: passport.");
    expect(entry).not.toContain("use pnpm");
    for (const fragment of ["Candidate:", "confidence:", "evidence:", "recalls:", "status: staged", "\n"]) {
      expect(entry).not.toContain(fragment);
    }
    expect(contaminationOf(entry)).toBeUndefined();
    expect(entry).not.toBe("A memory trace surfaced, but details were unavailable in this run.");
  });

  it("quotes a range once, in its most lasting role", () => {
    const same = range("Book the ryokan", "memory/2026-11-04.md", 3);
    const entry =
      composeDiaryEntry({
        ...nothing,
        staged: [same],
        truths: [{ ...same, confidence: 0.8 }],
        promoted: [same],
      }) ?? "";
    expect(entry.match(/Book the ryokan/gu)).toHaveLength(1);
    expect(entry).toContain("We kept “Book the ryokan” (memory/2026-11-04.md#L3-L3) for good");
  });

  it("stays within about 180 words however much the night found, and at most 3 + 3 + 5 quotes", () => {
    const long = (n: number) =>
      `Item ${n}: ${"a long sentence about the offsite planning and the budget for next quarter ".repeat(4)}`;
    const many = (path: string) =>
      Array.from({ length: 10 }, (_, n) => range(long(n), `memory/${path}.md`, n + 1));
    const entry =
      composeDiaryEntry({
        day: "2026-11-30",
        themes: Array.from({ length: 10 }, (_, n) => `theme${n}`),
        staged: many("staged"),
        reflections: Array.from({ length: 10 }, (_, n) => ({ tag: `tag${n}`, count: 10 - n })),
        truths: many("truths").map((each) => ({ ...each, confidence: 0.6 })),
        promoted: many("promoted"),
      }) ?? "";
    expect(countWords(entry)).toBeLessThanOrEqual(180);
    expect(countWords(entry)).toBeGreaterThan(150);
    expect(entry.match(/memory\/staged\.md/gu)).toHaveLength(3);
    expect(entry.match(/memory\/truths\.md/gu)).toHaveLength(3);
    expect(entry.match(/memory\/promoted\.md/gu)).toHaveLength(5);
    expect(entry).toContain("theme5");
    expect(entry).not.toContain("theme6");
    expect(entry).toContain("tag2 in 8");
    expect(entry).not.toContain("tag3");
    expect(entry).toContain("…”");
  });

  it("is the same text for the same input, and its backticks balance", () => {
    const material: DiaryEntryMaterial = {
      ...nothing,
      staged: [
        range("Run `pnpm install` before `pnpm build` in the monorepo root every time", "memory/a.md", 1),
        range(`Set \`NODE_OPTIONS\` to ${"x ".repeat(60)} \`--max-old-space-size\``, "memory/b.md", 2),
        range("A stray ` backtick", "memory/c.md", 3),
      ],
    };
    const entry = composeDiaryEntry(material) ?? "";
    expect(composeDiaryEntry(material)).toBe(entry);
    expect((entry.match(/`/gu) ?? []).length % 2).toBe(0);
    expect(entry).toContain("`pnpm install`");
  });

  it("varies its opening with the day", () => {
    const material = { ...nothing, staged: [range("Renew the passport", "memory/a.md", 9)] };
    const openings = ["2026-11-29", "2026-11-30", "2026-12-02"].map(
      (day) => (composeDiaryEntry({ ...material, day }) ?? "").split(".")[0],
    );
    expect(new Set(openings).size).toBeGreaterThan(1);
  });

  it("refuses a day that is not YYYY-MM-DD", () => {
    expect(() => composeDiaryEntry({ ...nothing, day: "29/11/2026" })).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });
});
