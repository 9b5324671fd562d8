/**
 * Symbolic links and the workspace's edge, through `memory.workspace(dir)`: a note (or a folder of
 * notes) that links outside the workspace is not indexed, searched, read by path, recorded, quoted
 * or promoted, while a link that stays inside is followed; `MEMORY.md` and `DREAMS.md` are never
 * written through a link, wherever it points, and neither is a rollback's file.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Memory, openMemory, type Workspace } from "../../src/index.js";
import type { SleepSettingsInput } from "../../src/sleep/sleep-config.js";
import { snapshotDir } from "../helpers/dir-snapshot.js";
import { tempFiles } from "../helpers/temp-dir.js";
import { wordEmbedder } from "../helpers/word-embedder.js";

const files = tempFiles("sleep-links");
let memory: Memory;
let made = 0;

beforeAll(async () => {
  memory = await openMemory({ path: files.path(), embedder: wordEmbedder() });
});
afterAll(async () => {
  await memory.close();
});

/** The word only the file outside the workspace holds. */
const SECRET = "zephyrine";
const OUTSIDE_NOTE =
  "# 2026-11-04\n\n- The vault code word is zephyrine quokka, from the other project.\n- Zephyrine rotation happens every Friday.\n";
const NOW = "2026-11-06T09:00:00Z";
/** Gates a range passes on one sighting. */
const PERMISSIVE = { minScore: 0, minRecallCount: 1, minUniqueQueries: 0, limit: 50 } as const;

/**
 * A workspace with a daily note of its own, `memory/2026-11-04.md` linked to a file outside it,
 * `memory/2026-11-05.md` linked to a file elsewhere inside it, and `memory/shared/` linked to a
 * folder outside it.
 */
function linkedWorkspace(settings: SleepSettingsInput = {}): {
  dir: string;
  outside: string;
  workspace: Workspace;
  user: string;
} {
  const base = join(files.dir, `case-${++made}`);
  const dir = join(base, "ws");
  const outside = join(base, "elsewhere");
  mkdirSync(join(dir, "memory"), { recursive: true });
  mkdirSync(join(dir, "archive"), { recursive: true });
  mkdirSync(join(outside, "shared"), { recursive: true });
  writeFileSync(join(dir, "MEMORY.md"), "# Memory\n\n- Hand-written line.\n");
  writeFileSync(
    join(dir, "memory", "2026-11-03.md"),
    "# 2026-11-03\n\n- Renew both passports before February.\n",
  );
  writeFileSync(
    join(dir, "archive", "2026-11-05.md"),
    "# 2026-11-05\n\n- Marigold kiln firing is booked for Thursday.\n",
  );
  writeFileSync(join(outside, "vault.md"), OUTSIDE_NOTE);
  writeFileSync(
    join(outside, "shared", "2026-11-02.md"),
    "# 2026-11-02\n\n- Zephyrine shared folder note.\n",
  );
  symlinkSync(join(outside, "vault.md"), join(dir, "memory", "2026-11-04.md"));
  symlinkSync(join("..", "archive", "2026-11-05.md"), join(dir, "memory", "2026-11-05.md"));
  symlinkSync(join(outside, "shared"), join(dir, "memory", "shared"));
  const user = `links-${made}`;
  return {
    dir,
    outside,
    user,
    workspace: memory.workspace(dir, { userId: user, timeZone: "UTC", settings }),
  };
}

const holdsSecret = (text: string) => text.toLowerCase().includes(SECRET);

/** The text of every file of the workspace that is no link: what sleep wrote, and the notes. */
function ownText(dir: string): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((entry) => {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) return ownText(full);
      return entry.isFile() ? readFileSync(full, "utf8") : "";
    })
    .join("\n");
}

describe("a note that links outside the workspace", () => {
  it("is left out of the index and of search, and the report says so; a link inside is followed", async () => {
    const { workspace } = linkedWorkspace();
    const report = await workspace.index();
    expect(report.skipped).toEqual([
      { path: "memory/2026-11-04.md", reason: "links outside the workspace" },
      { path: "memory/shared/", reason: "links outside the workspace" },
    ]);
    const found = await workspace.search("zephyrine quokka vault code word rotation", {
      notesThreshold: 0,
      notesTopK: 20,
      record: false,
    });
    expect(found.notes.map((note) => note.path)).not.toContain("memory/2026-11-04.md");
    expect(found.notes.some((note) => holdsSecret(note.snippet))).toBe(false);
    const inside = await workspace.search("marigold kiln firing thursday", { record: false });
    expect(inside.notes.map((note) => note.path)).toContain("memory/2026-11-05.md");
  });

  it("is refused when read by its path, without saying where it leads", async () => {
    const { workspace, outside } = linkedWorkspace();
    const refusal = workspace.get("memory/2026-11-04.md#L1-L3");
    await expect(refusal).rejects.toMatchObject({
      code: "NOTE_NOT_FOUND",
      details: { reason: "outside-workspace" },
    });
    const error = (await refusal.catch((caught: unknown) => caught)) as Error;
    expect(error.message).toMatch(/links outside the workspace/u);
    expect(error.message).not.toContain(outside);
    await expect(workspace.get("memory/shared/2026-11-02.md#L1")).rejects.toMatchObject({
      code: "NOTE_NOT_FOUND",
    });
    expect((await workspace.get("memory/2026-11-05.md#L3")).text).toContain("Marigold kiln firing");
  });

  it("is not recorded, even with its text given, and never promoted, whatever the gates", async () => {
    const { dir, workspace, user } = linkedWorkspace();
    for (let day = 1; day <= 5; day++) {
      const recorded = await workspace.record(
        `vault question ${day}`,
        [
          { path: "memory/2026-11-04.md", startLine: 3, endLine: 3, score: 0.95 },
          {
            path: "memory/2026-11-04.md",
            startLine: 4,
            endLine: 4,
            score: 0.95,
            snippet: "Zephyrine rotation happens every Friday.",
          },
        ],
        { at: `2026-11-0${day}T09:00:00Z` },
      );
      expect(recorded.recorded).toBe(0);
      expect(recorded.skipped.map((skip) => skip.reason)).toEqual(["outside-workspace", "outside-workspace"]);
    }
    // OpenClaw's own recall store, which followed the link, names it all the same.
    const imported = await workspace.importOpenClaw(
      JSON.stringify({
        version: 1,
        updatedAt: "2026-11-05T09:00:00.000Z",
        entries: {
          "memory:memory/2026-11-04.md:3:3": {
            key: "memory:memory/2026-11-04.md:3:3",
            path: "memory/2026-11-04.md",
            startLine: 3,
            endLine: 3,
            source: "memory",
            snippet: "- The vault code word is zephyrine quokka, from the other project.",
            recallCount: 6,
            dailyCount: 0,
            groundedCount: 0,
            totalScore: 5.7,
            maxScore: 0.95,
            firstRecalledAt: "2026-11-01T09:00:00.000Z",
            lastRecalledAt: "2026-11-05T09:00:00.000Z",
            queryHashes: ["a1a1a1a1a1a1", "b2b2b2b2b2b2", "c3c3c3c3c3c3"],
            recallDays: ["2026-11-01", "2026-11-03", "2026-11-05"],
            conceptTags: ["vault"],
          },
        },
      }),
    );
    expect(imported.imported).toBe(1);
    const result = await workspace.promote({ now: NOW, apply: true, ...PERMISSIVE });
    expect(result.promoted).toEqual([]);
    expect(result.refused).toEqual([
      {
        key: "memory:memory/2026-11-04.md:3:3",
        address: "memory/2026-11-04.md#L3-L3",
        reason: "outside-workspace",
      },
    ]);
    expect(holdsSecret(readFileSync(join(dir, "MEMORY.md"), "utf8"))).toBe(false);
    const stored = await memory.getAll({ userId: user });
    expect(stored.results.some((each) => holdsSecret(each.memory))).toBe(false);
  });

  it("feeds no phase of a permissive sweep, nor the diary, while a note linked inside is promoted", async () => {
    const { dir, outside, workspace, user } = linkedWorkspace({
      storage: { mode: "both" },
      phases: { light: { lookbackDays: 14 }, deep: PERMISSIVE },
    });
    const before = snapshotDir(outside);
    const result = await workspace.sweep({ now: NOW });
    expect(result.phases.map((report) => [report.phase, report.outcome])).toEqual([
      ["light", "completed"],
      ["rem", "completed"],
      ["deep", "completed"],
    ]);
    expect(result.index.skipped.map((skip) => skip.path)).toEqual(["memory/2026-11-04.md", "memory/shared/"]);
    expect(result.staged.some((entry) => holdsSecret(entry.snippet))).toBe(false);
    expect(holdsSecret(ownText(dir))).toBe(false);
    expect(readFileSync(join(dir, "MEMORY.md"), "utf8")).toContain("Marigold kiln firing");
    const stored = await memory.getAll({ userId: user });
    expect(stored.results.some((each) => holdsSecret(each.memory))).toBe(false);
    expect(snapshotDir(outside)).toEqual(before);
  });

  it("is not quoted by a diary backfill", async () => {
    const { dir, workspace } = linkedWorkspace();
    const result = await workspace.backfill({ from: "2026-11-02", to: "2026-11-05", now: NOW });
    expect(result.written.map((each) => each.day)).toEqual(["2026-11-03", "2026-11-05"]);
    expect(result.skipped).toEqual([
      { day: "2026-11-02", reason: "no-notes" },
      { day: "2026-11-04", reason: "no-notes" },
    ]);
    expect(holdsSecret(readFileSync(join(dir, "DREAMS.md"), "utf8"))).toBe(false);
  });
});

describe("a memory/ folder that links outside the workspace", () => {
  it("is neither walked nor written into by the light and REM phases", async () => {
    const base = join(files.dir, `folder-${++made}`);
    const dir = join(base, "ws");
    const outside = join(base, "notes");
    mkdirSync(dir, { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, "2026-11-05.md"), "# 2026-11-05\n\n- Zephyrine notes kept elsewhere.\n");
    symlinkSync(outside, join(dir, "memory"));
    for (const mode of ["inline", "separate"] as const) {
      const workspace = memory.workspace(dir, {
        userId: `folder-${made}-${mode}`,
        timeZone: "UTC",
        settings: { storage: { mode }, phases: { deep: PERMISSIVE } },
      });
      const result = await workspace.sweep({ now: NOW });
      expect(result.index.skipped).toEqual([{ path: "memory/", reason: "links outside the workspace" }]);
      expect(result.index.files).toBe(0);
      expect(readdirSync(outside)).toEqual(["2026-11-05.md"]);
      expect(existsSync(join(dir, "MEMORY.md"))).toBe(false);
    }
  });
});

describe("a MEMORY.md that is a symbolic link", () => {
  for (const where of ["inside", "outside"] as const) {
    it(`makes a promotion fail, naming the file, and leaves the link and its target (${where}) as they were`, async () => {
      const base = join(files.dir, `memory-link-${++made}`);
      const dir = join(base, "ws");
      mkdirSync(join(dir, "memory"), { recursive: true });
      const target = where === "inside" ? join(dir, "real", "MEMORY.md") : join(base, "MEMORY.md");
      mkdirSync(join(target, ".."), { recursive: true });
      writeFileSync(target, "# Mine\n");
      const link = where === "inside" ? join("real", "MEMORY.md") : target;
      symlinkSync(link, join(dir, "MEMORY.md"));
      writeFileSync(
        join(dir, "memory", "2026-11-03.md"),
        "# 2026-11-03\n\n- Renew both passports before February.\n",
      );
      const user = `memory-link-${made}`;
      const workspace = memory.workspace(dir, {
        userId: user,
        timeZone: "UTC",
        settings: { phases: { deep: PERMISSIVE } },
      });
      for (let day = 1; day <= 3; day++)
        await workspace.record(
          `passports ${day}`,
          [{ path: "memory/2026-11-03.md", startLine: 3, endLine: 3, score: 0.95 }],
          {
            at: `2026-11-0${day}T09:00:00Z`,
          },
        );

      const refusal = workspace.promote({ now: NOW, apply: true, ...PERMISSIVE });
      await expect(refusal).rejects.toMatchObject({ code: "IO_ERROR", details: { reason: "symbolic-link" } });
      const error = (await refusal.catch((caught: unknown) => caught)) as Error;
      expect(error.message).toContain(join(dir, "MEMORY.md"));
      expect(error.message).toMatch(/Replace the link with the file/u);
      // The sweep's deep phase fails alike; the others run.
      const swept = await workspace.sweep({ now: NOW });
      expect(swept.phases.find((report) => report.phase === "deep")).toMatchObject({ outcome: "failed" });
      expect(swept.phases.find((report) => report.phase === "deep")?.reason).toMatch(
        /^IO_ERROR: .*MEMORY\.md/u,
      );

      expect(lstatSync(join(dir, "MEMORY.md")).isSymbolicLink()).toBe(true);
      expect(readlinkSync(join(dir, "MEMORY.md"))).toBe(link);
      expect(readFileSync(target, "utf8")).toBe("# Mine\n");
      expect((await memory.getAll({ userId: user })).results).toEqual([]);
      expect((await workspace.signals()).every((entry) => entry.promotedAt === undefined)).toBe(true);
      await expect(workspace.rollback()).rejects.toMatchObject({ code: "RUN_NOT_FOUND" });
    });
  }
});

describe("a DREAMS.md that is a symbolic link", () => {
  for (const where of ["inside", "outside"] as const) {
    it(`fails the diary, names the file in the status, and stays as it was (${where})`, async () => {
      const { dir, outside, workspace } = linkedWorkspace({ phases: { deep: PERMISSIVE } });
      const target = where === "inside" ? join(dir, "archive", "DREAMS.md") : join(outside, "DREAMS.md");
      writeFileSync(target, "# Dream Diary\n");
      symlinkSync(target, join(dir, "DREAMS.md"));
      const result = await workspace.sweep({ now: NOW });
      expect(result.phases.at(-1)).toMatchObject({ phase: "diary", outcome: "failed" });
      expect(result.phases.at(-1)?.reason).toMatch(/^IO_ERROR: .*DREAMS\.md/u);
      await expect(
        workspace.backfill({ from: "2026-11-03", to: "2026-11-03", now: NOW }),
      ).rejects.toMatchObject({
        code: "IO_ERROR",
      });
      expect(lstatSync(join(dir, "DREAMS.md")).isSymbolicLink()).toBe(true);
      expect(readFileSync(target, "utf8")).toBe("# Dream Diary\n");
      const status = await workspace.status({ now: NOW });
      expect(status.unwritable).toEqual([
        { path: "DREAMS.md", reason: expect.stringMatching(/^is a symbolic link/u) },
      ]);
      expect(status.leftOut.map((each) => each.path)).toEqual(["memory/2026-11-04.md", "memory/shared/"]);
    });
  }
});

describe("a rollback", () => {
  it("refuses to write a MEMORY.md that became a symbolic link, leaving the link, its target and the run", async () => {
    const base = join(files.dir, `rollback-${++made}`);
    const dir = join(base, "ws");
    mkdirSync(join(dir, "memory"), { recursive: true });
    writeFileSync(join(dir, "MEMORY.md"), "# Mine\n");
    writeFileSync(
      join(dir, "memory", "2026-11-03.md"),
      "# 2026-11-03\n\n- Renew both passports before February.\n",
    );
    const workspace = memory.workspace(dir, { userId: `rollback-${made}`, timeZone: "UTC" });
    for (let day = 1; day <= 3; day++)
      await workspace.record(
        `passports ${day}`,
        [{ path: "memory/2026-11-03.md", startLine: 3, endLine: 3, score: 0.95 }],
        {
          at: `2026-11-0${day}T09:00:00Z`,
        },
      );
    const promoted = await workspace.promote({ now: NOW, apply: true, ...PERMISSIVE });
    expect(promoted.promoted).toHaveLength(1);
    // Someone moves MEMORY.md away and links it back, bytes unchanged.
    const after = readFileSync(join(dir, "MEMORY.md"));
    const target = join(base, "MEMORY.md");
    writeFileSync(target, after);
    symlinkSync(target, `${join(dir, "MEMORY.md")}.link`);
    renameSync(`${join(dir, "MEMORY.md")}.link`, join(dir, "MEMORY.md"));

    await expect(workspace.rollback()).rejects.toMatchObject({
      code: "IO_ERROR",
      details: { reason: "symbolic-link" },
    });
    expect(lstatSync(join(dir, "MEMORY.md")).isSymbolicLink()).toBe(true);
    expect(readFileSync(target).equals(after)).toBe(true);
    const status = await workspace.status({ now: NOW });
    expect(status.lastRun).toMatchObject({ id: promoted.runId, undoneAt: null });
    expect(status.unwritable.map((each) => each.path)).toEqual(["MEMORY.md"]);
  });
});
