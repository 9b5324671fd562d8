/**
 * The deep phase's apply through `memory.workspace(dir).promote({ apply: true })`, and its rollback:
 * on the workspace fixture (a person's seven weeks of notes and searches) and on small workspaces
 * made for one rule each.
 */
import {
  cpSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withLease } from "../../src/core/lease.js";
import { type Memory, openMemory, type Workspace } from "../../src/index.js";
import { sleepLeaseKey } from "../../src/sleep/sleep-run.js";
import { tempFiles } from "../helpers/temp-dir.js";
import { wordEmbedder } from "../helpers/word-embedder.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/sleep-workspace/", import.meta.url));
const expected = JSON.parse(readFileSync(join(FIXTURE, "expected.json"), "utf8")) as {
  now: string;
  promoted: string[];
};
const files = tempFiles("sleep-apply");
let memory: Memory;
let made = 0;

beforeAll(async () => {
  memory = await openMemory({ path: files.path(), embedder: wordEmbedder() });
});
afterAll(async () => {
  await memory.close();
});

/** A copy of the fixture with its search log recorded. */
async function fixtureWorkspace(): Promise<{ dir: string; workspace: Workspace; original: Buffer }> {
  const dir = join(files.dir, `fixture-${++made}`);
  cpSync(FIXTURE, dir, { recursive: true });
  const workspace = memory.workspace(dir, { userId: `nadia-${made}` });
  const replay = await workspace.recordLog(readFileSync(join(dir, "search-log.jsonl"), "utf8"));
  expect(replay.errors).toEqual([]);
  return { dir, workspace, original: readFileSync(join(dir, "MEMORY.md")) };
}

/** A workspace with the given notes, each range recalled by five questions on five days. */
async function smallWorkspace(
  notes: Record<string, string>,
  recalled: readonly { path: string; startLine: number; endLine: number }[],
): Promise<{ dir: string; workspace: Workspace }> {
  const dir = join(files.dir, `small-${++made}`);
  for (const [path, text] of Object.entries(notes)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const workspace = memory.workspace(dir, { userId: `small-${made}` });
  for (let day = 1; day <= 5; day++) {
    await workspace.record(
      `question ${day} about ${recalled.map((hit) => hit.path).join(" ")}`,
      recalled.map((hit) => ({ ...hit, score: 0.95 })),
      { at: `2026-11-0${day}T09:00:00Z` },
    );
  }
  return { dir, workspace };
}

const NOW = "2026-11-06T09:00:00Z";

/** The non-blank lines of `before` appear in `after`, in order, byte for byte. */
function keepsEveryLine(before: string, after: string): boolean {
  const wanted = before.split("\n").filter((line) => line.trim() !== "");
  const lines = after.split("\n");
  let at = 0;
  for (const line of lines) if (line === wanted[at]) at++;
  return at === wanted.length;
}

describe("promoting the fixture's recalled ranges", () => {
  it("previews exactly the expected set, writing nothing", async () => {
    const { dir, workspace, original } = await fixtureWorkspace();
    const preview = await workspace.promote({ now: expected.now });
    expect(preview.applied).toBe(false);
    expect(preview.candidates.map((candidate) => candidate.address)).toEqual(expected.promoted);
    expect(readFileSync(join(dir, "MEMORY.md")).equals(original)).toBe(true);
  });

  it("appends them with markers and citations, keeps every hand-written line, and adds them to long-term memory", async () => {
    const { dir, workspace, original } = await fixtureWorkspace();
    const result = await workspace.promote({ now: expected.now, apply: true });
    expect(result.runId).toMatch(/^sleep-/u);
    expect(result.promoted.map((entry) => `${entry.path}#L${entry.startLine}-L${entry.endLine}`)).toEqual(
      expected.promoted,
    );
    const after = readFileSync(join(dir, "MEMORY.md"), "utf8");
    expect(keepsEveryLine(original.toString("utf8"), after)).toBe(true);
    expect(after.startsWith(original.toString("utf8"))).toBe(true);
    expect(after).toContain("## Promoted From Short-Term Memory (2026-11-29)");
    for (const entry of result.promoted) {
      expect(after).toContain(entry.marker);
      expect(after).toContain(`source=${entry.path}:${entry.startLine}-${entry.endLine}]`);
    }
    const stored = await memory.getAll({ userId: workspace.scope.user_id as string });
    expect(stored.results.map((item) => item.metadata.source).sort()).toEqual([...expected.promoted].sort());
    expect(stored.results.every((item) => !item.memory.startsWith("- "))).toBe(true);
    const signals = await workspace.signals();
    expect(signals.filter((entry) => entry.promotedAt !== undefined)).toHaveLength(expected.promoted.length);
  });

  it("changes nothing byte-wise on a second sweep at the same now", async () => {
    const { dir, workspace } = await fixtureWorkspace();
    await workspace.promote({ now: expected.now, apply: true });
    const once = readFileSync(join(dir, "MEMORY.md"));
    const again = await workspace.promote({ now: expected.now, apply: true });
    expect(again).toMatchObject({ runId: null, promoted: [] });
    expect(readFileSync(join(dir, "MEMORY.md")).equals(once)).toBe(true);
    // Ranked again regardless, MEMORY.md's markers keep them out: reconciled, not appended.
    const forced = await workspace.promote({ now: expected.now, apply: true, includePromoted: true });
    expect(forced.reconciled).toHaveLength(expected.promoted.length);
    expect(readFileSync(join(dir, "MEMORY.md")).equals(once)).toBe(true);
  });

  it("rolls back to the exact bytes, removing the run's memories and clearing promotedAt", async () => {
    const { dir, workspace, original } = await fixtureWorkspace();
    const user = workspace.scope.user_id as string;
    const applied = await workspace.promote({ now: expected.now, apply: true });
    const rolled = await workspace.rollback();
    expect(rolled).toMatchObject({
      runId: applied.runId,
      restored: true,
      unpromoted: expected.promoted.length,
      removedMemories: expected.promoted.length,
    });
    expect(readFileSync(join(dir, "MEMORY.md")).equals(original)).toBe(true);
    expect((await memory.getAll({ userId: user })).results).toEqual([]);
    expect((await workspace.signals()).some((entry) => entry.promotedAt !== undefined)).toBe(false);
    await expect(workspace.rollback({ runId: applied.runId as string })).rejects.toMatchObject({
      code: "ALREADY_UNDONE",
    });
    // Promotable again, as before the run.
    expect((await workspace.promote({ now: expected.now })).candidates).toHaveLength(
      expected.promoted.length,
    );
  });

  it("refuses to roll back over later hand edits, naming them, unless forced", async () => {
    const { dir, workspace, original } = await fixtureWorkspace();
    await workspace.promote({ now: expected.now, apply: true });
    writeFileSync(
      join(dir, "MEMORY.md"),
      `${readFileSync(join(dir, "MEMORY.md"), "utf8")}- Written by hand later\n`,
    );
    await expect(workspace.rollback()).rejects.toMatchObject({
      code: "UNDO_CONFLICT",
      message: expect.stringContaining("Written by hand later"),
    });
    await workspace.rollback({ force: true });
    expect(readFileSync(join(dir, "MEMORY.md")).equals(original)).toBe(true);
  });
});

describe("the apply's rules, one at a time", () => {
  const daily =
    "# 2026-11-01\n\n## Travel\n- book the ryokan in Kyoto by March\n- renew both passports before February\n";

  it("creates MEMORY.md with its header when there is none, and rollback removes it again", async () => {
    const { dir, workspace } = await smallWorkspace({ "memory/2026-11-01.md": daily }, [
      { path: "memory/2026-11-01.md", startLine: 4, endLine: 4 },
    ]);
    const result = await workspace.promote({ now: NOW, apply: true });
    expect(result.promoted).toHaveLength(1);
    const text = readFileSync(join(dir, "MEMORY.md"), "utf8");
    expect(text.startsWith("# Long-Term Memory\n\n## Promoted From Short-Term Memory (2026-11-06)\n")).toBe(
      true,
    );
    expect(text).toContain("- book the ryokan in Kyoto by March [score=");
    await workspace.rollback();
    expect(() => lstatSync(join(dir, "MEMORY.md"))).toThrow();
  });

  it("follows a range that moved since it was recalled, and cites where it is now", async () => {
    const { dir, workspace } = await smallWorkspace({ "memory/2026-11-01.md": daily }, [
      { path: "memory/2026-11-01.md", startLine: 4, endLine: 4 },
    ]);
    writeFileSync(
      join(dir, "memory/2026-11-01.md"),
      daily.replace("## Travel\n", "## Travel\nAdded later.\n\n"),
    );
    const result = await workspace.promote({ now: NOW, apply: true });
    expect(result.promoted[0]).toMatchObject({
      key: "memory:memory/2026-11-01.md:4:4",
      startLine: 6,
      endLine: 6,
    });
    expect(readFileSync(join(dir, "MEMORY.md"), "utf8")).toContain("source=memory/2026-11-01.md:6-6]");
  });

  it("ranks a range inside a light fence but refuses it at apply; a range that is gone too", async () => {
    const fenced = [
      "## Day", // 1
      "- the dentist moved to Thursday", // 2
      "<!-- openclaw:dreaming:light:start -->", // 3
      "- Light: the plumber comes on Monday morning", // 4
      "<!-- openclaw:dreaming:light:end -->", // 5
    ].join("\n");
    const { dir, workspace } = await smallWorkspace({ "memory/2026-11-02.md": fenced }, [
      { path: "memory/2026-11-02.md", startLine: 4, endLine: 4 },
      { path: "memory/2026-11-02.md", startLine: 2, endLine: 2 },
    ]);
    writeFileSync(
      join(dir, "memory/2026-11-02.md"),
      fenced.replace("- the dentist moved to Thursday", "- nothing"),
    );
    const preview = await workspace.promote({ now: NOW });
    expect(preview.candidates.map((candidate) => candidate.startLine).sort()).toEqual([2, 4]);
    const result = await workspace.promote({ now: NOW, apply: true });
    expect(result.promoted).toEqual([]);
    expect(result.runId).toBeNull();
    expect(Object.fromEntries(result.refused.map((refusal) => [refusal.address, refusal.reason]))).toEqual({
      "memory/2026-11-02.md#L4-L4": "inside-fence",
      "memory/2026-11-02.md#L2-L2": "not-found",
    });
    expect(() => lstatSync(join(dir, "MEMORY.md"))).toThrow();
  });

  it("treats a range MEMORY.md already cites as promoted (an older promotion without a marker)", async () => {
    const { dir, workspace } = await smallWorkspace(
      {
        "memory/2026-11-01.md": daily,
        "MEMORY.md":
          "# Memory\n\n- book the ryokan [score=0.9 recalls=4 avg=0.9 source=memory/2026-11-01.md:4-4]\n",
      },
      [{ path: "memory/2026-11-01.md", startLine: 4, endLine: 4 }],
    );
    const before = readFileSync(join(dir, "MEMORY.md"));
    const result = await workspace.promote({ now: NOW, apply: true });
    expect(result).toMatchObject({
      runId: null,
      promoted: [],
      reconciled: ["memory:memory/2026-11-01.md:4:4"],
    });
    expect(readFileSync(join(dir, "MEMORY.md")).equals(before)).toBe(true);
    expect((await workspace.signals())[0]?.promotedAt).toBe("2026-11-06T09:00:00.000Z");
  });

  it("refuses a symlinked MEMORY.md, even one linking inside the workspace, keeping the link and its target", async () => {
    const { dir, workspace } = await smallWorkspace(
      { "memory/2026-11-01.md": daily, "real/MEMORY.md": "# Mine\n" },
      [{ path: "memory/2026-11-01.md", startLine: 5, endLine: 5 }],
    );
    symlinkSync("real/MEMORY.md", join(dir, "MEMORY.md"));
    await expect(workspace.promote({ now: NOW, apply: true })).rejects.toMatchObject({
      code: "IO_ERROR",
      details: { reason: "symbolic-link" },
    });
    expect(lstatSync(join(dir, "MEMORY.md")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, "MEMORY.md"))).toBe("real/MEMORY.md");
    expect(readFileSync(join(dir, "real/MEMORY.md"), "utf8")).toBe("# Mine\n");
    await expect(workspace.rollback()).rejects.toMatchObject({ code: "RUN_NOT_FOUND" });
  });

  it("stays within the budget: compacts old generated sections, then leaves out what does not fit", async () => {
    const old = (day: string) =>
      `## Promoted From Short-Term Memory (${day})\n\n<!-- openclaw-memory-promotion:memory:memory/${day}.md:1:1 -->\n- ${"old fact ".repeat(40)}[score=0.900 signals=3 recalls=3 avg=0.900 source=memory/${day}.md:1-1]\n\n`;
    const hand = `# Memory\n\n${"Hand-written line.\n".repeat(20)}\n`;
    const memoryFile = hand + ["2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04"].map(old).join("");
    const { dir, workspace } = await smallWorkspace(
      { "memory/2026-11-01.md": daily, "MEMORY.md": memoryFile },
      [
        { path: "memory/2026-11-01.md", startLine: 4, endLine: 4 },
        { path: "memory/2026-11-01.md", startLine: 5, endLine: 5 },
      ],
    );
    const maxChars = memoryFile.length - 100;
    const result = await workspace.promote({ now: NOW, apply: true, maxChars });
    // One section of four may go (0.25); two new bullets need more room than that frees: the
    // lower-ranked one is left out.
    expect(result.compactedDates).toEqual(["2026-01-01"]);
    expect(result.promoted).toHaveLength(1);
    expect(result.refused.map((refusal) => refusal.reason)).toEqual(["budget"]);
    const after = readFileSync(join(dir, "MEMORY.md"), "utf8");
    expect(after.length).toBeLessThanOrEqual(maxChars);
    expect(after).not.toContain("memory/2026-01-01.md");
    expect(keepsEveryLine(hand, after)).toBe(true);
    await workspace.rollback();
    expect(readFileSync(join(dir, "MEMORY.md"), "utf8")).toBe(memoryFile);
  });

  it("lets one sleeper at a time work on a workspace", async () => {
    const { dir, workspace } = await smallWorkspace({ "memory/2026-11-01.md": daily }, [
      { path: "memory/2026-11-01.md", startLine: 4, endLine: 4 },
    ]);
    const context = await memory.ready();
    await withLease(context, await sleepLeaseKey(dir), { what: "sleep" }, async () => {
      await expect(workspace.promote({ now: NOW, apply: true })).rejects.toMatchObject({
        code: "DREAM_LEASE_HELD",
      });
    });
    expect((await workspace.promote({ now: NOW, apply: true })).promoted).toHaveLength(1);
  });
});
