/**
 * `lucid sleep` (a full sweep), `lucid sleep preview`, `lucid sleep --every`, and
 * `lucid sleep backfill`, as a person runs them on a copy of the workspace fixture.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { snapshotDir } from "../helpers/dir-snapshot.js";
import { BIN, runCli, runJson, tempHomes } from "./run-cli.js";

const newHome = tempHomes();
const FIXTURE = fileURLToPath(new URL("../fixtures/sleep-workspace/", import.meta.url));
const NOW = "2026-11-29T09:00:00Z";
const TODAY = "2026-11-29";

async function recordedWorkspace(config?: Record<string, unknown>): Promise<{ home: string; ws: string }> {
  const home = newHome();
  mkdirSync(home, { recursive: true });
  const ws = join(home, "ws");
  cpSync(FIXTURE, ws, { recursive: true });
  if (config !== undefined) writeFileSync(join(home, "lucid.config.json"), JSON.stringify(config));
  const recorded = await runJson(
    ["sleep", "record", "--workspace", ws, "--file", join(ws, "search-log.jsonl"), "--tz", "UTC"],
    { home },
  );
  expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0);
  return { home, ws };
}

describe("lucid sleep", () => {
  it("sweeps: a line a phase, then MEMORY.md, the day's blocks and the diary written", async () => {
    const { home, ws } = await recordedWorkspace({ sleep: { storage: { mode: "inline" } } });
    const swept = await runCli(["sleep", "--workspace", ws, "--now", NOW, "--tz", "UTC"], { home });
    expect(swept.code, swept.stderr).toBe(0);
    expect(swept.stdout).toContain(`Sleep swept ${ws} at 2026-11-29T09:00:00.000Z (day ${TODAY}).`);
    expect(swept.stdout).toMatch(/^ {2}light {6}\d+ candidates staged → .*memory\/2026-11-29\.md$/mu);
    expect(swept.stdout).toMatch(/^ {2}rem {8}\d+ reflections?, \d+ possible lasting truths?/mu);
    expect(swept.stdout).toMatch(/^ {2}deep {7}6 promoted of 6 ranked ranges \(run sleep-/mu);
    expect(swept.stdout).toContain(`  diary      ${join(ws, "DREAMS.md")}: entry written`);
    expect(readFileSync(join(ws, "memory", `${TODAY}.md`), "utf8")).toContain("## Light Sleep");
    expect(readFileSync(join(ws, "DREAMS.md"), "utf8")).toContain("## Deep Sleep");

    const json = await runJson(["sleep", "--workspace", ws, "--now", NOW, "--tz", "UTC"], { home });
    expect(json.code).toBe(0);
    expect(json.json).toMatchObject({ ok: true, applied: true, day: TODAY });
    expect((json.json.promotion as { promoted: unknown[] }).promoted).toEqual([]);
  });

  it("previews without writing, showing what each phase would do and the diary entry", async () => {
    const { home, ws } = await recordedWorkspace();
    const before = snapshotDir(ws);
    const preview = await runCli(["sleep", "preview", "--workspace", ws, "--now", NOW, "--tz", "UTC"], {
      home,
    });
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout).toContain("nothing written");
    expect(preview.stdout).toContain("Light would stage");
    expect(preview.stdout).toContain("Deep would promote");
    expect(preview.stdout).toContain("The diary entry");
    expect(preview.stdout).toContain("memory/2026-11-10-offsite.md#L11-L13");
    expect(snapshotDir(ws)).toEqual(before);
  });

  it("runs only the phases asked for, and refuses a phase it does not know", async () => {
    const { home, ws } = await recordedWorkspace();
    const light = await runJson(
      ["sleep", "--workspace", ws, "--now", NOW, "--tz", "UTC", "--phases", "light,rem"],
      { home },
    );
    expect(light.code).toBe(0);
    expect(light.json.phases).toEqual([
      expect.objectContaining({ phase: "light", outcome: "completed" }),
      expect.objectContaining({ phase: "rem", outcome: "completed" }),
      { phase: "deep", outcome: "skipped", reason: "not among --phases", written: [] },
    ]);
    expect(readFileSync(join(ws, "MEMORY.md"), "utf8")).toBe(
      readFileSync(join(FIXTURE, "MEMORY.md"), "utf8"),
    );
    const gate = await runCli(["sleep", "--workspace", ws, "--limit", "1"], { home });
    expect(gate.code).toBe(2);
    expect(gate.stderr).toContain("a sweep uses sleep.phases.deep.* from lucid.config.json");
    const bad = await runCli(["sleep", "--workspace", ws, "--phases", "light,dreams"], { home });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--phases takes light, rem, deep separated by commas, got "light,dreams".');
  });

  it("exits 1 with SLEEP_PHASE_FAILED when a phase fails, after running the others", async () => {
    const { home, ws } = await recordedWorkspace({ sleep: { storage: { mode: "inline" } } });
    mkdirSync(join(ws, "memory", `${TODAY}.md`)); // a folder where today's note should be
    const swept = await runCli(["sleep", "--workspace", ws, "--now", NOW, "--tz", "UTC"], { home });
    expect(swept.code).toBe(1);
    expect(swept.stdout).toMatch(/^ {2}light {6}failed: IO_ERROR: /mu);
    expect(swept.stdout).toMatch(/^ {2}deep {7}6 promoted/mu);
    expect(swept.stderr).toContain("SLEEP_PHASE_FAILED");
    expect(swept.stderr).toContain("2 phases failed (light, rem); the others ran.");
  });

  it("sweeps on a cron schedule until Ctrl-C, a line a sweep", async () => {
    const { home, ws } = await recordedWorkspace();
    // The real binary: only a process shows the loop and its end on SIGINT.
    const child = spawn(
      process.execPath,
      [BIN, "sleep", "--workspace", ws, "--every", "* * * * * *", "--tz", "UTC"],
      { env: { PATH: process.env.PATH ?? "", HOME: home, LUCID_HOME: home }, stdio: "pipe" },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
    await expect
      .poll(() => (stdout.match(/ swept: /gu) ?? []).length, { timeout: 90_000, interval: 250 })
      .toBeGreaterThanOrEqual(2);
    child.kill("SIGINT");
    expect(await closed).toBe(0);
    expect(stderr).toContain(`Sweeping ${ws} on * * * * * * (UTC)`);
    expect(stdout).toMatch(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z swept: \d+ staged, \d+ truths, \d+ promoted$/mu,
    );
    expect(stdout).toMatch(/Stopped after \d+ sweeps? \(\d+ failed, \d+ skipped\)\./u);
    expect(existsSync(join(ws, "memory", "dreaming", "light"))).toBe(true);
  }, 120_000);

  it("refuses a bad cron expression before sweeping", async () => {
    const { home, ws } = await recordedWorkspace();
    const bad = await runCli(["sleep", "--workspace", ws, "--every", "every night"], { home });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("INVALID_ARGUMENT");
    expect(bad.stderr).toContain('"every night"');
  });

  it("backfills diary entries from old notes, and rolls exactly them back", async () => {
    const { home, ws } = await recordedWorkspace();
    const filled = await runJson(
      ["sleep", "backfill", "--workspace", ws, "--from", "2026-10-05", "--to", "2026-10-09", "--tz", "UTC"],
      { home },
    );
    expect(filled.code, filled.stderr).toBe(0);
    expect((filled.json.written as { day: string }[]).map((each) => each.day)).toEqual([
      "2026-10-05",
      "2026-10-06",
      "2026-10-07",
      "2026-10-09",
    ]);
    const diary = readFileSync(join(ws, "DREAMS.md"), "utf8");
    expect(diary).toContain("<!-- openclaw:dreaming:backfill-entry day=2026-10-05 source=lucid -->");
    expect(diary).toContain("*October 5, 2026*");
    const again = await runCli(
      ["sleep", "backfill", "--workspace", ws, "--from", "2026-10-05", "--to", "2026-10-09"],
      {
        home,
      },
    );
    expect(again.stdout).toContain("Backfilled 0 days");
    expect(again.stdout).toContain("already-backfilled");
    const rolled = await runCli(["sleep", "backfill", "--workspace", ws, "--rollback"], { home });
    expect(rolled.code, rolled.stderr).toBe(0);
    expect(rolled.stdout).toContain(
      "Removed 4 backfilled diary entries (2026-10-05, 2026-10-06, 2026-10-07, 2026-10-09).",
    );
    // The backfill created DREAMS.md; rolled back, it is gone again.
    expect(existsSync(join(ws, "DREAMS.md"))).toBe(false);
    const missing = await runCli(["sleep", "backfill", "--workspace", ws], { home });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("backfill needs --from DAY");
  });
});
