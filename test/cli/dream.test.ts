import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { startFakeEmbeddingServer, writeFakeEmbedderHome } from "../helpers/fake-openai-server.js";
import { BIN, runCli, runJson, spawnCli, tempHomes } from "./run-cli.js";

const newHome = tempHomes();

const TEXTS = [
  "User prefers dark mode",
  "User likes the dark theme",
  "ok thanks",
  "I prefer tabs",
  "User prefers Vim as editor",
  "User prefers VS Code as editor",
  "User is allergic to peanuts",
];

async function seeded(): Promise<string> {
  const home = newHome();
  const lines = TEXTS.map((text, index) =>
    JSON.stringify({
      id: `m${index}`,
      text,
      user_id: "alice",
      created_at: `2026-11-0${index + 1}T00:00:00.000Z`,
    }),
  );
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "seed.jsonl"), `${lines.join("\n")}\n`);
  const imported = await runCli(["import", join(home, "seed.jsonl")], { home });
  expect(imported.code).toBe(0);
  return home;
}

async function exported(home: string): Promise<string> {
  const result = await runCli(["export"], { home });
  expect(result.code).toBe(0);
  return result.stdout;
}

/** Runs the CLI on a pseudo-terminal (util-linux `script`), typing `input`: a real process and TTY. */
function spawnOnTerminal(
  home: string,
  args: readonly string[],
  input: string,
  /** Type `input` only once the output shows this (a question), as a person would. */
  after?: string,
): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, BIN, ...args]
    .map((part) => `'${part.replaceAll("'", "'\\''")}'`)
    .join(" ");
  const child = spawn("script", ["-qec", command, "/dev/null"], {
    env: { ...process.env, LUCID_HOME: home, NO_COLOR: "1" },
    stdio: "pipe",
  });
  let output = "";
  let typed = false;
  const type = () => {
    typed = true;
    child.stdin.end(input);
  };
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
    if (!typed && after !== undefined && output.includes(after)) type();
  });
  if (after === undefined) type();
  // A terminal ends lines with \r\n.
  return new Promise((resolve) =>
    child.on("close", (code) => resolve({ code, output: output.replaceAll("\r\n", "\n") })),
  );
}

/** The same flow in this process, with stdin and stdout that say they are a terminal. */
async function runOnTerminal(
  home: string,
  args: readonly string[],
  input: string,
): Promise<{ code: number | null; output: string }> {
  const result = await runCli(args, { home, input, terminal: { columns: 120 }, env: { NO_COLOR: "1" } });
  return { code: result.code, output: result.stdout };
}

describe("lucid dream", () => {
  it("--dry-run prints the report (or the plan with --json) and changes nothing", async () => {
    const home = await seeded();
    const before = await exported(home);
    const report = await runCli(["dream", "--dry-run", "--user", "alice"], { home });
    expect(report.code).toBe(0);
    expect(report.stdout).toMatch(/^## dream — consolidation report\n/);
    expect(report.stdout).toContain("Merges (1):");
    expect(report.stdout).toContain('— "preferred editor of User" [A/B/skip]');
    expect(report.stdout).toMatch(/Proposed: 1 merges, 1 prunes, 1 conflicts, 1 rewrites\.\n$/);
    // A dry run shows each memory under its line and never asks to apply.
    expect(report.stdout).not.toContain("Apply?");
    expect(report.stdout).toMatch(/\n {6}\[mem0:m\d\] \d{4}-\d{2}-\d{2} {2}\S/);
    expect(report.stdout).toMatch(/\n {6}suggest \[mem0:m\d\]: newer/);
    const plan = await runJson(["dream", "--dry-run", "--user", "alice", "--now", "2026-11-30T00:00:00Z"], {
      home,
    });
    expect(plan.json).toMatchObject({
      ok: true,
      version: 1,
      scope: { user_id: "alice" },
      now: "2026-11-30T00:00:00.000Z",
    });
    expect(await exported(home)).toBe(before);
  });

  it("reads the dream thresholds from lucid.config.json policy, and refuses unknown ones", async () => {
    const home = await seeded();
    writeFileSync(
      join(home, "lucid.config.json"),
      JSON.stringify({ policy: { duplicates: { minSimilarity: 0.999 } } }),
    );
    const plan = await runJson(["dream", "--dry-run", "--user", "alice"], { home });
    expect((plan.json.actions as { kind: string }[]).filter((action) => action.kind === "merge")).toEqual([]);
    writeFileSync(
      join(home, "lucid.config.json"),
      JSON.stringify({ policy: { duplicates: { similarity: 0.9 } } }),
    );
    const bad = await runJson(["dream", "--dry-run", "--user", "alice"], { home });
    expect(bad.json).toMatchObject({ ok: false, error: { code: "INVALID_CONFIG" } });
  });

  it("without a terminal and without --yes or --auto, prints the report and changes nothing", async () => {
    const home = await seeded();
    const before = await exported(home);
    const result = await runCli(["dream", "--user", "alice"], { home });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("## dream — consolidation report");
    expect(result.stderr).toContain("nothing applied");
    expect(await exported(home)).toBe(before);
  });

  it("on a terminal: n cancels; A/B/skip per conflict and Y apply, and undo restores the export exactly", async () => {
    const home = await seeded();
    const before = await exported(home);
    const cancelled = await runOnTerminal(home, ["dream", "--user", "alice"], "skip\nn\n");
    expect(cancelled.output).toContain("Cancelled. No changes made.");
    expect(await exported(home)).toBe(before);

    const plan = await runJson(["dream", "--dry-run", "--user", "alice"], { home });
    const conflict = (plan.json.actions as { kind: string; ids: string[] }[]).find(
      (action) => action.kind === "conflict",
    );
    const [first, second] = (conflict?.ids ?? []).map((id) => TEXTS[Number(id.slice(1))]);
    const applied = await runOnTerminal(home, ["dream", "--user", "alice"], "maybe\nB\n\n");
    expect(applied.code).toBe(0);
    expect(applied.output).toContain(
      "Dream complete — merged: 1, pruned: 1, conflicts resolved: 1, skipped: 0",
    );
    expect(applied.output).toContain("Consolidation complete.\n- Reviewed: 7");
    expect(applied.output).toContain("- Final count: 4");
    const list = await runJson(["list", "--user", "alice"], { home });
    const texts = (list.json.results as { memory: string }[]).map((item) => item.memory);
    // B keeps the second memory of the conflict and deletes the first.
    expect(texts).toContain(second);
    expect(texts).not.toContain(first);
    expect(texts).toContain("User prefers tabs");

    const runs = await runJson(["dream", "runs", "--user", "alice"], { home });
    const runId = (runs.json.runs as { id: string; mode: string }[])[0]?.id ?? "";
    expect(runs.json.runs).toMatchObject([{ id: runId, mode: "interactive", undoneAt: null }]);
    const shown = await runJson(["dream", "show", runId], { home });
    expect((shown.json.memories as unknown[]).length).toBe(5);
    const undone = await runJson(["dream", "undo", runId], { home });
    expect(undone.json).toMatchObject({ ok: true, restored: 5, removed: 0 });
    expect(await exported(home)).toBe(before);
    const again = await runJson(["dream", "undo", runId], { home });
    expect(again.code).toBe(1);
  });

  it("on a terminal: end of input at any question cancels and applies nothing", async () => {
    const home = await seeded();
    const before = await exported(home);
    for (const input of ["", "skip\n"]) {
      const result = await runOnTerminal(home, ["dream", "--user", "alice"], input);
      expect(result.code).toBe(0);
      expect(result.output).toContain("Cancelled. No changes made.");
      expect(await exported(home)).toBe(before);
    }
  });

  it("on a terminal: a wrong answer is met with the choices; an applied run names its undo", async () => {
    const home = await seeded();
    const result = await runOnTerminal(home, ["dream", "--user", "alice"], "maybe\nskip\nsure\ny\n");
    expect(result.output).toContain("Answer A to keep the first, B to keep the second, or skip");
    expect(result.output).toContain("Answer y (or Enter) to apply, or n to cancel.");
    const runs = await runJson(["dream", "runs", "--user", "alice"], { home });
    const runId = (runs.json.runs as { id: string }[])[0]?.id;
    expect(runId).toMatch(/^dream-/u);
    expect(result.output).toContain(`Run ${runId}. Undo it with: lucid dream undo ${runId}`);
  });

  it("on a terminal: asks about a review item, and applies it only when accepted", async () => {
    const home = newHome();
    mkdirSync(home, { recursive: true });
    const lines = [
      {
        id: "r1",
        text: "The deploy target of billing-api is Render.",
        created_at: "2026-01-05T00:00:00.000Z",
      },
      { id: "r2", text: "billing-api deploys to AWS.", created_at: "2026-06-05T00:00:00.000Z" },
    ].map((line) => JSON.stringify({ ...line, user_id: "rita" }));
    writeFileSync(join(home, "seed.jsonl"), `${lines.join("\n")}\n`);
    expect((await runCli(["import", join(home, "seed.jsonl")], { home })).code).toBe(0);
    const before = await exported(home);
    const dry = await runCli(["dream", "--dry-run", "--user", "rita"], { home });
    expect(dry.stdout).toContain('Review (1):\n  [mem0:r1] ~ [mem0:r2] — possible conflict: "');
    expect(dry.stdout).toContain("      [mem0:r2] 2026-06-05  billing-api deploys to AWS.");
    expect(dry.stdout).toMatch(/Proposed: 0 merges, 0 prunes, 0 conflicts\. 1 wait for review\.\n$/u);
    // --yes leaves it alone, and says it waits.
    const yes = await runCli(["dream", "--yes", "--user", "rita"], { home });
    expect(yes.stdout).toContain("1 wait for review");
    expect(await exported(home)).toBe(before);
    // Skipped, nothing changes; accepted with A, the first is kept and the second deleted.
    const skipped = await runOnTerminal(home, ["dream", "--user", "rita"], "skip\ny\n");
    expect(skipped.output).toContain('[mem0:r1] vs [mem0:r2] — possible conflict "');
    expect(await exported(home)).toBe(before);
    const accepted = await runOnTerminal(home, ["dream", "--user", "rita"], "A\ny\n");
    expect(accepted.output).toContain("conflicts resolved: 1");
    const texts = (
      (await runJson(["list", "--user", "rita"], { home })).json.results as { memory: string }[]
    ).map((item) => item.memory);
    expect(texts).toEqual(["The deploy target of billing-api is Render."]);
  });

  it("on a real terminal, Ctrl-C at a question cancels, exits 130 and changes nothing", async () => {
    const home = await seeded();
    const before = await exported(home);
    const interrupted = await spawnOnTerminal(home, ["dream", "--user", "alice"], "\u0003", "[A/B/skip] ");
    expect(interrupted.output).toContain("Cancelled. No changes made.");
    expect(interrupted.code).toBe(130);
    expect(await exported(home)).toBe(before);
  });

  it("on a real terminal (a pseudo-terminal around the binary), n cancels and nothing changes", async () => {
    const home = await seeded();
    const before = await exported(home);
    const cancelled = await spawnOnTerminal(home, ["dream", "--user", "alice"], "skip\nn\n");
    expect(cancelled.code).toBe(0);
    expect(cancelled.output).toContain("Apply? [Y/n]");
    expect(cancelled.output).toContain("Cancelled. No changes made.");
    expect(await exported(home)).toBe(before);
  });

  it("refuses to undo over later changes unless --force, naming the memory", async () => {
    const home = await seeded();
    const applied = await runJson(["dream", "--yes", "--user", "alice"], { home });
    expect(applied.json).toMatchObject({ ok: true, applied: true, counts: { conflictsSkipped: 1 } });
    await runCli(["update", "m3", "User prefers tabs, width 2"], { home });
    const refused = await runJson(["dream", "undo", applied.json.runId as string], { home });
    expect(refused.code).toBe(1);
    expect(refused.json).toMatchObject({ ok: false, error: { code: "UNDO_CONFLICT" } });
    expect((refused.json.error as { message: string }).message).toContain("m3");
    const forced = await runJson(["dream", "undo", applied.json.runId as string, "--force"], { home });
    expect(forced.code).toBe(0);
  });

  it("--auto applies all but conflicts, keeps one reminder across runs, and prints the summary line", async () => {
    const home = await seeded();
    const first = await runCli(["dream", "--auto", "--user", "alice"], { home });
    expect(first.stdout.trim()).toBe(
      "[lucid dream --auto] scope=user_id=alice  merged=1  pruned=1  conflicts_skipped=1",
    );
    const second = await runCli(["dream", "--auto", "--user", "alice"], { home });
    expect(second.stdout.trim()).toBe(
      "[lucid dream --auto] scope=user_id=alice  merged=0  pruned=0  conflicts_skipped=1",
    );
    const reminders = await runJson(
      ["list", "--user", "alice", "--filters", '{"source":"lucid-dream-auto"}'],
      { home },
    );
    expect(reminders.json.results).toMatchObject([
      { metadata: { category: "task_learning", source: "lucid-dream-auto" } },
    ]);
  });

  it("a second dreamer on the same scope says who holds it and exits cleanly", async () => {
    const home = await seeded();
    const db = new Database(join(home, "lucid.db"));
    db.prepare(
      "insert into dream_leases(scope_key, holder, host, pid, acquired_at, expires_at) values (?, ?, ?, ?, ?, ?)",
    ).run(
      "user_id=alice",
      "other",
      "build-box",
      4242,
      new Date().toISOString(),
      new Date(Date.now() + 3_600_000).toISOString(),
    );
    db.close();
    const before = await exported(home);
    const result = await runCli(["dream", "--auto", "--user", "alice"], { home });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("pid 4242 on build-box");
    expect(await exported(home)).toBe(before);
  });

  it("two concurrent --auto runs never both apply the same changes", async () => {
    const home = await seeded();
    const [a, b] = await Promise.all([
      runJson(["dream", "--auto", "--user", "alice"], { home }),
      runJson(["dream", "--auto", "--user", "alice"], { home }),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const merged = [a.json, b.json].map(
      (json) => (json.counts as { merged?: number } | undefined)?.merged ?? 0,
    );
    expect(merged.reduce((sum, value) => sum + value, 0)).toBe(1);
  });

  it("--if-due waits for the gate, runs once it passes, and then waits again", async () => {
    const home = await seeded();
    writeFileSync(
      join(home, "lucid.config.json"),
      JSON.stringify({ dream: { gate: { minHours: 24, minSessions: 2, minMemories: 5 } } }),
    );
    const waiting = await runCli(["dream", "--if-due", "--user", "alice"], { home });
    // Cheap gates first: memories are not even counted while the session gate fails.
    expect(waiting.stdout.trim()).toBe("auto-dream: waiting — sessions 0/2");
    await runCli(["session", "s1", "--user", "alice"], { home });
    await runCli(["session", "s1", "--user", "alice"], { home });
    const cron = await runJson(["session", "nightly", "--user", "alice", "--trigger", "cron"], { home });
    expect(cron.json).toMatchObject({ counted: false, reason: "non_interactive", sessionsSince: 1 });
    await runCli(["session", "s2", "--user", "alice"], { home });
    const status = await runCli(["status", "--user", "alice"], { home });
    expect(status.stdout).toContain("auto-dream: eligible");
    const ran = await runCli(["dream", "--if-due", "--user", "alice"], { home });
    expect(ran.stdout.trim()).toMatch(/^\[lucid dream --auto\] scope=user_id=alice {2}merged=1/);
    const after = await runCli(["dream", "--if-due", "--user", "alice"], { home });
    expect(after.stdout).toContain("auto-dream: waiting — last dream 0.0h ago (needs 24h), sessions 0/2");
    const off = await runCli(["dream", "--if-due", "--user", "alice"], { home, env: { LUCID_DREAM: "off" } });
    expect(off.stdout.trim()).toBe("auto-dream: disabled (LUCID_DREAM)");
  });

  it("kill -9 during a large apply leaves the store exactly as before or exactly as after", async () => {
    // Vectors do not matter to an expiry dream: the loopback embedding server keeps the import fast.
    const server = await startFakeEmbeddingServer({ dimension: 8 });
    try {
      const home = writeFakeEmbedderHome(newHome(), server);
      const old = "2025-01-01T00:00:00.000Z";
      const lines = Array.from({ length: 4000 }, (_, index) =>
        JSON.stringify({
          id: `op${index}`,
          text: `Nightly backup job ${index} finished`,
          user_id: "bulk",
          category: "operational",
          created_at: old,
        }),
      );
      writeFileSync(join(home, "seed.jsonl"), `${lines.join("\n")}\n`);
      expect((await runCli(["import", join(home, "seed.jsonl")], { home })).code).toBe(0);
      const pristine = join(home, "pristine.db");
      copyFileSync(join(home, "lucid.db"), pristine);
      const before = await exported(home);

      // The whole run in a process of its own, start-up included: the times to kill it at are fractions of it.
      const started = Date.now();
      expect((await spawnCli(["dream", "--yes", "--user", "bulk"], { home })).code).toBe(0);
      const total = Date.now() - started;
      const after = await exported(home);
      expect(after).not.toBe(before);

      for (const fraction of [0.6, 0.75, 0.9]) {
        // A killed process leaves its write-ahead log behind; it belongs to the old file, not the copy.
        rmSync(join(home, "lucid.db-wal"), { force: true });
        rmSync(join(home, "lucid.db-shm"), { force: true });
        copyFileSync(pristine, join(home, "lucid.db"));
        const child = spawn(process.execPath, [BIN, "dream", "--yes", "--user", "bulk"], {
          env: { ...process.env, LUCID_HOME: home },
          stdio: "ignore",
        });
        // Listened for at once: on a busy machine the run may end before the kill comes.
        const closed = new Promise((resolve) => child.on("close", resolve));
        await new Promise((resolve) => setTimeout(resolve, total * fraction));
        child.kill("SIGKILL");
        await closed;
        const now = await exported(home);
        expect(now === before || now === after).toBe(true);
      }
    } finally {
      await server.close();
    }
  });
});
