/**
 * A full sweep — light, REM, deep, the diary — through `memory.workspace(dir).sweep()`, on copies of
 * the workspace fixture (a person's seven weeks of notes and searches), in each storage mode.
 */
import { generateKeyPairSync } from "node:crypto";
import { cpSync, existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withLease } from "../../src/core/lease.js";
import { type Memory, openMemory, type Workspace } from "../../src/index.js";
import { managedBlockBody } from "../../src/sleep/managed-block.js";
import type { SleepSettingsInput } from "../../src/sleep/sleep-config.js";
import { sleepLeaseKey } from "../../src/sleep/sleep-run.js";
import { snapshotDir } from "../helpers/dir-snapshot.js";
import { tempFiles } from "../helpers/temp-dir.js";
import { wordEmbedder } from "../helpers/word-embedder.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/sleep-workspace/", import.meta.url));
const expected = JSON.parse(readFileSync(join(FIXTURE, "expected.json"), "utf8")) as {
  now: string;
  promoted: string[];
};
const NOW = expected.now;
const TODAY = NOW.slice(0, 10);
const files = tempFiles("sleep-sweep");
let memory: Memory;
let made = 0;

beforeAll(async () => {
  memory = await openMemory({ path: files.path(), embedder: wordEmbedder() });
});
afterAll(async () => {
  await memory.close();
});

async function fixture(settings: SleepSettingsInput = {}): Promise<{ dir: string; workspace: Workspace }> {
  const dir = join(files.dir, `fixture-${++made}`);
  cpSync(FIXTURE, dir, { recursive: true });
  const workspace = memory.workspace(dir, { userId: `nadia-${made}`, timeZone: "UTC", settings });
  const replay = await workspace.recordLog(readFileSync(join(dir, "search-log.jsonl"), "utf8"));
  expect(replay.errors).toEqual([]);
  return { dir, workspace };
}

const blockOf = (text: string, phase: string) =>
  new RegExp(
    `<!-- openclaw:dreaming:${phase}:start -->[\\s\\S]*?<!-- openclaw:dreaming:${phase}:end -->`,
    "u",
  ).exec(text)?.[0];

describe("a sweep", () => {
  it("stages, reflects, promotes and writes the diary, and a second sweep the same day changes nothing", async () => {
    // A limit above what passes the gates: the first sweep promotes everything it will ever promote.
    const { dir, workspace } = await fixture({
      storage: { mode: "inline" },
      phases: { deep: { limit: 50 } },
    });
    const hand = "# 2026-11-29\n\n- Hand-written: call the kiln supplier about the cone 6 glaze\n";
    writeFileSync(join(dir, "memory", `${TODAY}.md`), hand);

    const result = await workspace.sweep({ now: NOW });
    expect(result.phases.map((report) => [report.phase, report.outcome])).toEqual([
      ["light", "completed"],
      ["rem", "completed"],
      ["deep", "completed"],
    ]);
    expect(result.ingestion.read).toBeGreaterThan(0);
    expect(result.staged.length).toBeGreaterThan(0);

    const today = readFileSync(join(dir, "memory", `${TODAY}.md`), "utf8");
    // The hand-written note is untouched, in order, before the managed blocks.
    expect(today.startsWith(hand)).toBe(true);
    expect(today).toContain("\n## Light Sleep\n<!-- openclaw:dreaming:light:start -->\n- Candidate: ");
    expect(blockOf(today, "light")).toContain("status: staged");
    expect(blockOf(today, "rem")).toContain("### Possible Lasting Truths");
    expect(existsSync(join(dir, "memory", "dreaming", "light", `${TODAY}.md`))).toBe(false);

    // Deep promoted what the fixture expects (the phases' boosts may add to it, never take away).
    const promoted = result.promotion?.promoted.map(
      (entry) => `${entry.path}#L${entry.startLine}-L${entry.endLine}`,
    );
    for (const address of expected.promoted) expect(promoted).toContain(address);
    const memoryFile = readFileSync(join(dir, "MEMORY.md"), "utf8");
    expect(memoryFile).toContain("## Promoted From Short-Term Memory (2026-11-29)");
    // Staging never reaches MEMORY.md.
    expect(memoryFile).not.toContain("status: staged");

    const dreams = readFileSync(join(dir, "DREAMS.md"), "utf8");
    expect(dreams.startsWith("# Dream Diary")).toBe(true);
    expect(dreams).toContain(result.diary?.entry ?? "no entry");
    expect(dreams).toContain(`- Promoted ${promoted?.length} candidate(s) into MEMORY.md.`);
    expect(dreams).not.toMatch(/Candidate:|status: staged/u);

    const events = await workspace.events();
    expect(events.map((event) => [event.type, event.data.phase ?? null])).toEqual(
      expect.arrayContaining([
        ["memory.recall.recorded", null],
        ["memory.dream.completed", "light"],
        ["memory.dream.completed", "rem"],
        ["memory.dream.completed", "deep"],
        ["memory.promotion.applied", null],
      ]),
    );

    const before = snapshotDir(dir);
    const again = await workspace.sweep({ now: NOW });
    expect(again.promotion?.promoted).toEqual([]);
    // The sweep's own blocks are not news: today's note is not read again for them.
    expect(again.ingestion.read).toBe(0);
    expect(again.staged.map((entry) => entry.key)).toEqual(result.staged.map((entry) => entry.key));
    expect(snapshotDir(dir)).toEqual(before);
  });

  it("keeps to the deep limit per night: a second sweep the same day promotes nothing more", async () => {
    const { dir, workspace } = await fixture({ phases: { deep: { limit: 3 } } });
    const first = await workspace.sweep({ now: NOW });
    expect(first.promotion?.promoted).toHaveLength(3);
    const files = snapshotDir(dir);
    const again = await workspace.sweep({ now: "2026-11-29T21:00:00Z" });
    expect(again.phases[2]).toEqual({
      phase: "deep",
      outcome: "skipped",
      reason: "sleep.phases.deep.limit (3) already promoted today",
      written: [],
    });
    expect(snapshotDir(dir)).toEqual(files);
    // The next night has its own three.
    const next = await workspace.sweep({ now: "2026-11-30T03:00:00Z" });
    expect(next.promotion?.promoted).toHaveLength(3);
    const promoted = [...(first.promotion?.promoted ?? []), ...(next.promotion?.promoted ?? [])].map(
      (entry) => entry.key,
    );
    expect(new Set(promoted).size).toBe(6);
  });

  it("keeps the recalls searches record while it runs", async () => {
    const { workspace } = await fixture();
    const hit = { path: "memory/2026-11-24.md", startLine: 4, endLine: 4, score: 0.8 };
    const key = "memory:memory/2026-11-24.md:4:4";
    const countOf = async () =>
      (await workspace.signals()).find((entry) => entry.key === key)?.recallCount ?? 0;
    const before = await countOf();
    let recorded = 0;
    let done = false;
    const running = workspace.sweep({ now: NOW }).finally(() => {
      done = true;
    });
    for (let n = 0; !done || n < 5; n++) {
      const result = await workspace.record(`question ${n} about the assembly`, [hit], {
        at: "2026-11-29T09:30:00Z",
      });
      recorded += result.recorded;
    }
    const swept = await running;
    expect(recorded).toBeGreaterThanOrEqual(5);
    expect(await countOf()).toBe(before + recorded);
    // The sweep's own marks are there too.
    const marked = (await workspace.signals())
      .filter((entry) => entry.promotedAt !== undefined)
      .map((e) => e.key);
    expect(marked).toEqual(expect.arrayContaining(swept.promotion?.promoted.map((entry) => entry.key) ?? []));
  });

  it("never copies a credential that spans lines (a PEM key) into a report, the diary or the store", async () => {
    const { dir, workspace } = await fixture({ storage: { mode: "both" } });
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString().trim();
    const body = pem.split("\n").slice(1, -1);
    writeFileSync(
      join(dir, "memory", "2026-11-28.md"),
      [
        "# 2026-11-28",
        "",
        "## Servers",
        "- the deploy key for the kiln shop site:",
        pem,
        "- renew the kiln shop domain",
      ].join("\n"),
    );
    // Searched for, so the range holding the key is recalled too.
    await workspace.search("deploy key kiln shop site", { at: "2026-11-28T20:00:00Z" });
    await workspace.sweep({ now: NOW });
    const written = [...snapshotDir(dir)]
      .filter(([path]) => path !== join("memory", "2026-11-28.md"))
      .map(([, text]) => text)
      .join("\n");
    const stored = JSON.stringify(await workspace.signals()) + JSON.stringify(await workspace.events());
    for (const line of body) {
      expect(written).not.toContain(line);
      expect(stored).not.toContain(line);
    }
    const found = await workspace.search("deploy key kiln shop site", { record: false, notesThreshold: 0 });
    for (const line of body) expect(JSON.stringify(found.notes)).not.toContain(line);
  });

  it("writes separate reports under memory/dreaming/ and, with `both`, the inline blocks too", async () => {
    const separate = await fixture({ storage: { mode: "separate" } });
    await separate.workspace.sweep({ now: NOW, phases: ["light", "rem"] });
    const lightReport = readFileSync(
      join(separate.dir, "memory", "dreaming", "light", `${TODAY}.md`),
      "utf8",
    );
    expect(lightReport.startsWith("# Light Sleep\n\n- Candidate: ")).toBe(true);
    expect(readFileSync(join(separate.dir, "memory", "dreaming", "rem", `${TODAY}.md`), "utf8")).toContain(
      "### Reflections",
    );
    expect(existsSync(join(separate.dir, "memory", `${TODAY}.md`))).toBe(false);

    const both = await fixture({ storage: { mode: "both" } });
    await both.workspace.sweep({ now: NOW, phases: ["light"] });
    const inline = managedBlockBody(readFileSync(join(both.dir, "memory", `${TODAY}.md`), "utf8"), "light");
    const report = readFileSync(join(both.dir, "memory", "dreaming", "light", `${TODAY}.md`), "utf8");
    // The same body in both places.
    expect(inline).toMatch(/^- Candidate: /u);
    expect(report).toBe(`# Light Sleep\n\n${inline}\n`);
  });

  it("previews the same sweep without writing a byte or a signal", async () => {
    const { dir, workspace } = await fixture({ storage: { mode: "both" } });
    const files = snapshotDir(dir);
    const signals = await workspace.signals();
    const preview = await workspace.preview({ now: NOW });
    expect(preview.applied).toBe(false);
    expect(preview.staged.length).toBeGreaterThan(0);
    expect(preview.candidates.length).toBeGreaterThan(0);
    expect(preview.promotion).toBeNull();
    expect(preview.diary?.written).toBe(false);
    expect(snapshotDir(dir)).toEqual(files);
    expect(await workspace.signals()).toEqual(signals);
    expect(await workspace.events()).toEqual([]);
    // What it previewed is what the sweep then does.
    const swept = await workspace.sweep({ now: NOW });
    expect(swept.staged).toEqual(preview.staged);
    expect(swept.promotion?.promoted.map((entry) => entry.key)).toEqual(
      preview.candidates.map((each) => each.key),
    );
  });

  it("logs a phase that fails and still runs the next", async () => {
    const { dir, workspace } = await fixture({ storage: { mode: "inline" } });
    // Today's note is a link: sleep refuses to replace it, so light and REM cannot write their blocks.
    writeFileSync(join(dir, "elsewhere.md"), "- kept\n");
    symlinkSync(join(dir, "elsewhere.md"), join(dir, "memory", `${TODAY}.md`));
    const result = await workspace.sweep({ now: NOW });
    expect(result.phases.map((report) => [report.phase, report.outcome])).toEqual([
      ["light", "failed"],
      ["rem", "failed"],
      ["deep", "completed"],
    ]);
    expect(result.phases[0]?.reason).toMatch(/^IO_ERROR: /u);
    expect(result.promotion?.promoted.length).toBeGreaterThan(0);
    expect(readFileSync(join(dir, "elsewhere.md"), "utf8")).toBe("- kept\n");
    const failed = (await workspace.events({ type: "memory.dream.completed" })).filter(
      (event) => event.data.outcome === "failed",
    );
    expect(failed.map((event) => event.data.phase).sort()).toEqual(["light", "rem"]);
  });

  it("is one sweep per workspace at a time: another holder of the lease makes it wait its turn", async () => {
    const { dir, workspace } = await fixture();
    const context = await memory.ready();
    const files = snapshotDir(dir);
    await withLease(context, await sleepLeaseKey(dir), { what: "sleep" }, async () => {
      await expect(workspace.sweep({ now: NOW })).rejects.toMatchObject({ code: "DREAM_LEASE_HELD" });
      // A preview writes nothing, so it needs no lease.
      expect((await workspace.preview({ now: NOW })).applied).toBe(false);
    });
    expect(snapshotDir(dir)).toEqual(files);
    // The same folder through a link is the same workspace: one lease.
    const link = `${dir}-link`;
    symlinkSync(dir, link);
    await withLease(context, await sleepLeaseKey(dir), { what: "sleep" }, async () => {
      await expect(memory.workspace(link).sweep({ now: NOW })).rejects.toMatchObject({
        code: "DREAM_LEASE_HELD",
      });
    });
    expect(
      (await workspace.sweep({ now: NOW })).phases.every((report) => report.outcome === "completed"),
    ).toBe(true);
  });

  it("reports a diary it may not write as a failure, and a backfill is not the last sweep", async () => {
    const { dir, workspace } = await fixture();
    writeFileSync(join(dir, "elsewhere.md"), "# Dream Diary\n");
    symlinkSync(join(dir, "elsewhere.md"), join(dir, "DREAMS.md"));
    const result = await workspace.sweep({ now: NOW });
    expect(result.phases.at(-1)).toMatchObject({ phase: "diary", outcome: "failed" });
    expect(result.phases.at(-1)?.reason).toMatch(/^IO_ERROR: /u);
    expect(result.promotion?.promoted.length).toBeGreaterThan(0);
    expect(readFileSync(join(dir, "elsewhere.md"), "utf8")).toBe("# Dream Diary\n");

    // A backfill and its rollback later on are not sweeps: status still names the sweep.
    const other = await fixture();
    await other.workspace.sweep({ now: NOW });
    await other.workspace.backfill({ from: "2026-10-05", to: "2026-10-06", now: "2026-11-29T10:00:00Z" });
    await other.workspace.rollbackBackfill({ now: "2026-11-29T11:00:00Z" });
    const status = await other.workspace.status({ now: "2026-11-29T12:00:00Z" });
    expect(status.lastSweep?.at).toBe(new Date(NOW).toISOString());
    expect(status.lastSweep?.phases.map((phase) => phase.phase)).toEqual(["light", "rem", "deep"]);
  });

  it("leaves a failed event when the sweep cannot run at all (its embedder is down)", async () => {
    const broken = await openMemory({
      path: files.path(),
      embedder: {
        id: "down",
        dimension: 3,
        embed: async () => Promise.reject(new Error("embedding API unreachable")),
      },
    });
    try {
      const dir = join(files.dir, `fixture-${++made}`);
      cpSync(FIXTURE, dir, { recursive: true });
      const workspace = broken.workspace(dir, { timeZone: "UTC" });
      await expect(workspace.sweep({ now: NOW })).rejects.toThrow("embedding API unreachable");
      const [failed] = await workspace.events();
      expect(failed).toMatchObject({
        type: "memory.dream.completed",
        data: { phase: "sweep", outcome: "failed" },
      });
      const status = await workspace.status({ now: NOW });
      expect(status.lastSweep).toEqual({
        at: new Date(NOW).toISOString(),
        phases: [{ phase: "sweep", outcome: "failed" }],
      });
    } finally {
      await broken.close();
    }
  });

  it("explains and promotes with the configured gates", async () => {
    const { workspace } = await fixture({ phases: { deep: { minScore: 0.99 } } });
    const address = expected.promoted[0] as string;
    const explained = await workspace.explain(address, { now: NOW });
    expect(explained.gates.find((gate) => gate.gate === "minScore")).toMatchObject({
      threshold: 0.99,
      passed: false,
    });
    expect((await workspace.promote({ now: NOW })).candidates).toEqual([]);
  });

  it("skips what is not asked for or is disabled, and says why", async () => {
    const { workspace } = await fixture({ phases: { rem: { enabled: false }, deep: { limit: 0 } } });
    const result = await workspace.sweep({ now: NOW, phases: ["rem", "deep"] });
    expect(result.phases).toEqual([
      { phase: "light", outcome: "skipped", reason: "not among --phases", written: [] },
      { phase: "rem", outcome: "skipped", reason: "sleep.phases.rem.enabled is false", written: [] },
      { phase: "deep", outcome: "skipped", reason: "sleep.phases.deep.limit is 0", written: [] },
    ]);
    expect(result.ingestion).toEqual({ files: 0, read: 0, sightings: 0 });
    expect(result.promotion).toBeNull();
  });
});
