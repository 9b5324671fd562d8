/**
 * `lucid sleep` end to end, as a person runs it on a Markdown workspace (`MEMORY.md` + daily notes):
 * replay a search log, preview and apply a promotion, explain a range, read the status, roll a run
 * back, import OpenClaw's recall store, and search a workspace (`lucid search --workspace`). Every
 * test works on its own copy of the fixture (`test/fixtures/sleep-workspace/`), never the fixture.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createFakeSecrets } from "../fixtures/secrets/fake-secrets.js";
import { runCli, runJson, spawnCli, tempHomes } from "./run-cli.js";

const newHome = tempHomes();

const FIXTURE = fileURLToPath(new URL("../fixtures/sleep-workspace/", import.meta.url));
const LOG = "search-log.jsonl";

interface Expected {
  now: string;
  promoted: string[];
  nearMisses: { range: string; fails: string }[];
}

const expected = JSON.parse(readFileSync(join(FIXTURE, "expected.json"), "utf8")) as Expected;
const NOW = expected.now;
const ORIGINAL_MEMORY = readFileSync(join(FIXTURE, "MEMORY.md"));

interface Candidate {
  rank: number;
  address: string;
  path: string;
  startLine: number;
  endLine: number;
  score: number;
}

interface Promoted {
  key: string;
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  marker: string;
  memoryId: string | null;
}

interface ListedMemory {
  id: string;
  memory: string;
  agent_id?: string;
  metadata: Record<string, unknown>;
}

interface Signal {
  key: string;
  path: string;
  startLine: number;
  endLine: number;
  recallCount: number;
  promotedAt?: string;
}

/** A fresh home holding a copy of the fixture workspace at `<home>/ws`. */
function workspaceHome(): { home: string; ws: string } {
  const home = newHome();
  mkdirSync(home, { recursive: true });
  const ws = join(home, "ws");
  cpSync(FIXTURE, ws, { recursive: true });
  return { home, ws };
}

/** A copied workspace whose fixture search log has been replayed. */
async function recordedWorkspace(): Promise<{ home: string; ws: string }> {
  const { home, ws } = workspaceHome();
  const recorded = await runJson(["sleep", "record", "--workspace", ws, "--file", join(ws, LOG)], { home });
  expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0);
  return { home, ws };
}

/** Applies the promotion at the fixture's `now`, returning the JSON result. */
async function applied(home: string, ws: string) {
  const result = await runJson(["sleep", "promote", "--workspace", ws, "--now", NOW, "--apply"], { home });
  expect(result.code, result.stdout + result.stderr).toBe(0);
  return result.json as unknown as { runId: string | null; promoted: Promoted[]; applied: boolean };
}

function memoryText(ws: string): string {
  return readFileSync(join(ws, "MEMORY.md"), "utf8");
}

function nonBlankLines(text: string): string[] {
  return text.split("\n").filter((line) => line.trim() !== "");
}

/** Whether `needles` all appear in `haystack`, in the same order (not necessarily adjacent). */
function isSubsequence(needles: readonly string[], haystack: readonly string[]): boolean {
  let at = 0;
  for (const line of haystack) if (at < needles.length && line === needles[at]) at++;
  return at === needles.length;
}

async function signalsOf(home: string, ws: string): Promise<Signal[]> {
  const result = await runJson(["sleep", "signals", "--workspace", ws], { home });
  expect(result.code, result.stdout + result.stderr).toBe(0);
  expect(result.json.workspace).toBe(ws);
  return result.json.entries as Signal[];
}

async function mainMemories(home: string): Promise<ListedMemory[]> {
  const listed = await runJson(["list", "--agent", "main"], { home });
  expect(listed.code, listed.stdout + listed.stderr).toBe(0);
  return listed.json.results as ListedMemory[];
}

describe("lucid sleep record and promote", () => {
  it("replays the search log, then previews exactly the expected ranges and writes nothing", async () => {
    const { home, ws } = workspaceHome();
    const recorded = await runJson(["sleep", "record", "--workspace", ws, "--file", join(ws, LOG)], { home });
    expect(recorded.code).toBe(0);
    expect(recorded.json).toMatchObject({ ok: true, searches: 220, errors: [] });
    expect(recorded.json.recorded).toBeGreaterThan(0);
    // Hits on MEMORY.md, undated notes, dreaming reports and contaminated ranges are skipped.
    expect(recorded.json.skipped).toBeGreaterThan(0);

    const preview = await runJson(["sleep", "promote", "--workspace", ws, "--now", NOW], { home });
    expect(preview.code).toBe(0);
    expect(preview.json).toMatchObject({
      ok: true,
      applied: false,
      runId: null,
      promoted: [],
      now: "2026-11-29T09:00:00.000Z",
      workspace: ws,
    });
    const candidates = preview.json.candidates as Candidate[];
    expect(candidates.map((candidate) => candidate.address)).toEqual(expected.promoted);
    expect(candidates.map((candidate) => candidate.rank)).toEqual(expected.promoted.map((_, i) => i + 1));
    for (const candidate of candidates) {
      expect(candidate.address).toBe(`${candidate.path}#L${candidate.startLine}-L${candidate.endLine}`);
      expect(candidate.score).toBeGreaterThanOrEqual(0.75);
    }
    expect(readFileSync(join(ws, "MEMORY.md")).equals(ORIGINAL_MEMORY)).toBe(true);

    const human = await runCli(["sleep", "promote", "--workspace", ws, "--now", NOW], { home });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^\s*RANK\s+SCORE\s+RECALLS\b/m);
    expect(human.stdout).toContain("nothing written");
    for (const address of expected.promoted) expect(human.stdout).toContain(address);
    expect(readFileSync(join(ws, "MEMORY.md")).equals(ORIGINAL_MEMORY)).toBe(true);
    // Still nothing promoted: the preview did not mark anything.
    expect((await signalsOf(home, ws)).filter((entry) => entry.promotedAt !== undefined)).toEqual([]);
  });

  it("--apply appends each range with its marker and citation, keeps every hand-written line, and is idempotent", async () => {
    const { home, ws } = await recordedWorkspace();
    const result = await applied(home, ws);
    expect(result.applied).toBe(true);
    expect(result.runId).toEqual(expect.any(String));
    expect(result.promoted.map((entry) => `${entry.path}#L${entry.startLine}-L${entry.endLine}`)).toEqual(
      expected.promoted,
    );
    const text = memoryText(ws);
    for (const entry of result.promoted) {
      expect(entry).toMatchObject({
        path: expect.any(String),
        startLine: expect.any(Number),
        endLine: expect.any(Number),
        score: expect.any(Number),
      });
      expect(entry.marker).toBe(
        `<!-- openclaw-memory-promotion:memory:${entry.path}:${entry.startLine}:${entry.endLine} -->`,
      );
      expect(text).toContain(entry.marker);
      expect(text).toContain(`source=${entry.path}:${entry.startLine}-${entry.endLine}`);
    }
    // Exactly one new section, appended after everything that was there.
    expect(text.startsWith(ORIGINAL_MEMORY.toString("utf8"))).toBe(true);
    expect(text.match(/^## Promoted From Short-Term Memory \(2026-11-29\)$/gm)).toHaveLength(1);
    const original = nonBlankLines(ORIGINAL_MEMORY.toString("utf8"));
    expect(isSubsequence(original, nonBlankLines(text))).toBe(true);

    const bytes = readFileSync(join(ws, "MEMORY.md"));
    const again = await runJson(["sleep", "promote", "--workspace", ws, "--now", NOW, "--apply"], { home });
    expect(again.code).toBe(0);
    expect(again.json).toMatchObject({ ok: true, applied: true, runId: null, promoted: [] });
    expect(readFileSync(join(ws, "MEMORY.md")).equals(bytes)).toBe(true);

    const human = await runCli(["sleep", "promote", "--workspace", ws, "--now", NOW, "--apply"], { home });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain("Nothing new to promote");
    expect(readFileSync(join(ws, "MEMORY.md")).equals(bytes)).toBe(true);
  });

  it("the human --apply names the run and how to undo it", async () => {
    const { home, ws } = await recordedWorkspace();
    const human = await runCli(["sleep", "promote", "--workspace", ws, "--now", NOW, "--apply"], { home });
    expect(human.code).toBe(0);
    const run = /\(run (\S+)\):/.exec(human.stdout)?.[1];
    expect(run).toEqual(expect.any(String));
    expect(human.stdout).toContain(`Promoted 6 ranges into ${join(ws, "MEMORY.md")}`);
    expect(human.stdout).toContain(`Undo with: lucid sleep rollback ${run}`);
    for (const address of expected.promoted) expect(human.stdout).toContain(address);
  });

  it("--limit, --min-score and bad option values", async () => {
    const { home, ws } = await recordedWorkspace();
    const limited = await runJson(["sleep", "promote", "--workspace", ws, "--now", NOW, "--limit", "2"], {
      home,
    });
    expect((limited.json.candidates as Candidate[]).map((each) => each.address)).toEqual(
      expected.promoted.slice(0, 2),
    );
    const strict = await runJson(
      ["sleep", "promote", "--workspace", ws, "--now", NOW, "--min-score", "0.9"],
      {
        home,
      },
    );
    const strictAddresses = (strict.json.candidates as Candidate[]).map((each) => each.address);
    expect(strictAddresses.length).toBeLessThan(expected.promoted.length);
    expect(strictAddresses).toEqual(expected.promoted.slice(0, strictAddresses.length));
    // Two distinct queries suffice: the mortgage fix (2 query hashes) qualifies.
    const loose = await runJson(
      ["sleep", "promote", "--workspace", ws, "--now", NOW, "--min-unique-queries", "2"],
      { home },
    );
    expect((loose.json.candidates as Candidate[]).map((each) => each.address)).toContain(
      "memory/2026-10-22.md#L12-L12",
    );

    const badLimit = await runJson(["sleep", "promote", "--workspace", ws, "--limit", "many"], { home });
    expect(badLimit.code).not.toBe(0);
    expect(badLimit.json).toMatchObject({ ok: false, error: { code: "USAGE" } });
    const badZone = await runJson(["sleep", "promote", "--workspace", ws, "--tz", "Mars/Olympus"], { home });
    expect(badZone.json).toMatchObject({ ok: false, error: { code: "USAGE" } });
    expect((badZone.json.error as { message: string }).message).toContain("Mars/Olympus");
    const badNow = await runJson(["sleep", "promote", "--workspace", ws, "--now", "yesterday"], { home });
    expect(badNow.code).not.toBe(0);
    expect(badNow.json).toMatchObject({ ok: false, error: { code: "INVALID_ARGUMENT" } });
    const badAction = await runJson(["sleep", "dance", "--workspace", ws], { home });
    expect(badAction.code).not.toBe(0);
    expect(badAction.json).toMatchObject({ ok: false });
    expect(JSON.stringify(badAction.json.error)).toContain("dance");
    expect(readFileSync(join(ws, "MEMORY.md")).equals(ORIGINAL_MEMORY)).toBe(true);
  });
});

describe("lucid sleep explain", () => {
  it("names the failing gate of each near miss and shows the six components", async () => {
    const { home, ws } = await recordedWorkspace();
    const mortgage = await runJson(
      ["sleep", "explain", "memory/2026-10-22.md#L12-L12", "--workspace", ws, "--now", NOW],
      { home },
    );
    expect(mortgage.code).toBe(0);
    const miss = expected.nearMisses.find((each) => each.range === "memory/2026-10-22.md#L12-L12");
    expect(miss?.fails).toBe("minUniqueQueries");
    const gates = mortgage.json.gates as {
      gate: string;
      passed: boolean;
      value: number;
      threshold: number;
    }[];
    expect(gates.find((gate) => gate.gate === miss?.fails)).toMatchObject({
      passed: false,
      value: 2,
      threshold: 3,
    });
    expect(gates.filter((gate) => !gate.passed).map((gate) => gate.gate)).toEqual([miss?.fails]);
    const components = mortgage.json.components as { component: string; weight: number }[];
    expect(components.map((each) => each.component).sort()).toEqual(
      ["consolidation", "conceptual", "diversity", "frequency", "recency", "relevance"].sort(),
    );
    expect(components.reduce((sum, each) => sum + each.weight, 0)).toBeCloseTo(1, 6);
    expect(mortgage.json).toMatchObject({
      address: "memory/2026-10-22.md#L12-L12",
      rank: null,
      excluded: null,
      verdict: expect.stringContaining("minUniqueQueries"),
    });

    // Each near miss that was recorded fails its gate; the others were never recorded at all.
    for (const each of expected.nearMisses) {
      const explained = await runJson(["sleep", "explain", each.range, "--workspace", ws, "--now", NOW], {
        home,
      });
      if (each.fails === "not-short-term" || each.fails === "contaminated") {
        expect({ range: each.range, code: explained.code, json: explained.json }).toMatchObject({
          range: each.range,
          code: 1,
          json: { ok: false, error: { code: "NOTE_NOT_FOUND" } },
        });
        continue;
      }
      const failed = (explained.json.gates as { gate: string; passed: boolean }[])
        .filter((gate) => !gate.passed)
        .map((gate) => gate.gate);
      expect({ range: each.range, failed }).toEqual({ range: each.range, failed: [each.fails] });
    }

    // A promoted range explains as one, with its rank.
    const first = await runJson(
      ["sleep", "explain", expected.promoted[0] as string, "--workspace", ws, "--now", NOW],
      {
        home,
      },
    );
    expect(first.json).toMatchObject({ rank: 1, verdict: expect.stringMatching(/^promotes: rank 1 of 6/) });
    // A recall key names the same range.
    const byKey = await runJson(
      ["sleep", "explain", "memory:memory/2026-10-22.md:12:12", "--workspace", ws, "--now", NOW],
      { home },
    );
    expect(byKey.json).toMatchObject({ address: "memory/2026-10-22.md#L12-L12", score: mortgage.json.score });

    const human = await runCli(
      ["sleep", "explain", "memory/2026-10-22.md#L12-L12", "--workspace", ws, "--now", NOW],
      { home },
    );
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^Verdict: held back by minUniqueQueries/m);
    for (const component of components) expect(human.stdout).toContain(component.component);
    expect(human.stdout).toMatch(/^\s*minUniqueQueries\s+2\s+3\s+fail\b/m);

    const missing = await runJson(["sleep", "explain", "--workspace", ws], { home });
    expect(missing.code).not.toBe(0);
    expect(missing.json).toMatchObject({ ok: false });
  });
});

describe("lucid sleep status and rollback", () => {
  it("status reports the last run after an apply", async () => {
    const { home, ws } = await recordedWorkspace();
    const before = await runJson(["sleep", "status", "--workspace", ws, "--now", NOW], { home });
    expect(before.code).toBe(0);
    expect(before.json).toMatchObject({ ok: true, workspace: ws, lastRun: null, promotedEntries: 0 });
    expect((before.json.wouldPromote as Candidate[]).map((each) => each.address)).toEqual(expected.promoted);

    const result = await applied(home, ws);
    const status = await runJson(["sleep", "status", "--workspace", ws, "--now", NOW], { home });
    expect(status.code).toBe(0);
    expect(status.json).toMatchObject({
      ok: true,
      workspace: ws,
      memoryFile: join(ws, "MEMORY.md"),
      lastRun: { id: result.runId, promoted: expected.promoted.length, undoneAt: null },
      promotedEntries: expected.promoted.length,
      wouldPromote: [],
    });
    expect(status.json.entries).toBeGreaterThan(0);
    expect(status.json.memoryChars).toBe(memoryText(ws).length);

    const human = await runCli(["sleep", "status", "--workspace", ws, "--now", NOW], { home });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`Workspace   ${ws}`);
    expect(human.stdout).toContain(`Last run    ${result.runId}`);
  });

  it("status says why nothing promotes, and --json carries the blockers, the last sweep and the log", async () => {
    const { home, ws } = workspaceHome();
    const empty = await runJson(["sleep", "status", "--workspace", ws, "--now", NOW], { home });
    expect(empty.code).toBe(0);
    expect(empty.json).toMatchObject({
      wouldPromote: [],
      blockers: [{ kind: "no-signals", count: 0 }],
      events: [],
      lastSweep: null,
    });
    const unrecorded = await runCli(["sleep", "status", "--workspace", ws, "--now", NOW], { home });
    expect(unrecorded.stdout).toContain("Why nothing promotes\n  - No recall signals are recorded");
    expect(unrecorded.stdout).toContain("`lucid sleep record --file LOG.jsonl`");
    expect(unrecorded.stdout).toContain("Last sweep  none");

    // Three months on, every recorded range is too old, and the ranking says so.
    const later = "2027-03-01T09:00:00Z";
    await runJson(["sleep", "record", "--workspace", ws, "--file", join(ws, LOG)], { home });
    const stale = await runJson(["sleep", "status", "--workspace", ws, "--now", later], { home });
    expect(stale.code).toBe(0);
    const blockers = stale.json.blockers as { kind: string; gate?: string; count: number; message: string }[];
    expect(blockers[0]).toMatchObject({
      kind: "gate",
      gate: "maxAgeDays",
      count: stale.json.entries,
      best: { threshold: 30 },
    });
    expect(stale.json).toMatchObject({ wouldPromote: [], events: [], lastSweep: null });
    const human = await runCli(["sleep", "status", "--workspace", ws, "--now", later], { home });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain("Nothing would be promoted now.");
    expect(human.stdout).toContain("Why nothing promotes");
    expect(human.stdout).toMatch(
      / {2}- (\d+) of \1 ranges were last recalled more than 30 days ago \(maxAgeDays\); the closest, memory\/2026-\d\d-\d\d\.md#L\d+-L\d+, was last recalled \d+\.\d days ago\./,
    );
    for (const blocker of blockers) expect(human.stdout).toContain(`  - ${blocker.message}`);

    // Once the six that earn it are promoted, the rest miss mostly on distinct queries.
    await applied(home, ws);
    const after = await runCli(["sleep", "status", "--workspace", ws, "--now", NOW], { home });
    expect(after.stdout).toMatch(
      /\(minUniqueQueries\); the closest, memory\/2026-10-22\.md#L12-L12, has 2\./,
    );
    expect(after.stdout).toMatch(
      /ranges pass every other gate but score below 0\.75 \(minScore\); the best, /,
    );
  });

  it("status shows the last sweep's phases and the latest events", async () => {
    const { home, ws } = await recordedWorkspace();
    const swept = await runJson(["sleep", "--workspace", ws, "--now", NOW], { home });
    expect(swept.code, swept.stdout + swept.stderr).toBe(0);
    const status = await runJson(["sleep", "status", "--workspace", ws, "--now", NOW], { home });
    expect(status.json.lastSweep).toEqual({
      at: new Date(NOW).toISOString(),
      phases: [
        { phase: "light", outcome: "completed" },
        { phase: "rem", outcome: "completed" },
        { phase: "deep", outcome: "completed" },
      ],
    });
    const events = status.json.events as {
      type: string;
      at: string;
      seq: number;
      data: { phase?: string };
    }[];
    expect(events.length).toBeGreaterThan(0);
    expect(events.length).toBeLessThanOrEqual(10);
    expect(events[0]).toMatchObject({ type: "memory.dream.completed", data: { phase: "deep" } });
    expect(events.map((event) => event.seq)).toEqual(events.map((event) => event.seq).sort((a, b) => b - a));
    // Its deep phase promoted the ranges that earned it.
    expect(events.map((event) => event.type)).toContain("memory.promotion.applied");

    const human = await runCli(["sleep", "status", "--workspace", ws, "--now", NOW], { home });
    expect(human.stdout).toMatch(/Last sweep {2}\S+ \S+: light completed, rem completed, deep completed\n/);
    expect(human.stdout).toContain("Recent events");
    expect(human.stdout).toMatch(
      / {2}\S+ \S+ {2}dream\.completed +deep +completed +candidates \d+, promoted \d+/,
    );
    expect(human.stdout).toMatch(/promotion\.applied +promoted \d+/);
  });

  it("rollback refuses over a hand edit, quoting it; --force restores MEMORY.md and removes the run's memories", async () => {
    const { home, ws } = await recordedWorkspace();
    expect(await mainMemories(home)).toEqual([]);
    const result = await applied(home, ws);
    const sources = result.promoted.map((entry) => `${entry.path}#L${entry.startLine}-L${entry.endLine}`);
    const created = await mainMemories(home);
    expect(created.map((item) => item.metadata.source).sort()).toEqual([...expected.promoted].sort());
    expect(sources.sort()).toEqual([...expected.promoted].sort());
    for (const item of created) {
      expect(item.agent_id).toBe("main");
      expect(item.metadata).toMatchObject({ sleepRun: result.runId, workspace: ws });
    }

    const handWritten = "- Hand-written after the sleep run: the allotment shed key is on the red hook.";
    writeFileSync(join(ws, "MEMORY.md"), `${memoryText(ws)}${handWritten}\n`);
    const refused = await runJson(["sleep", "rollback", "--workspace", ws], { home });
    expect(refused.code).not.toBe(0);
    expect(refused.json).toMatchObject({ ok: false, error: { code: "UNDO_CONFLICT" } });
    const message = (refused.json.error as { message: string }).message;
    expect(message).toContain(JSON.stringify(handWritten));
    expect(message).toContain("--force");
    // Refused means untouched: the edit and the memories are all still there.
    expect(memoryText(ws)).toContain(handWritten);
    expect(await mainMemories(home)).toHaveLength(created.length);

    const human = await runCli(["sleep", "rollback", "--workspace", ws], { home });
    expect(human.code).toBe(1);
    expect(human.stderr).toMatch(/^error\[UNDO_CONFLICT\]/);
    expect(human.stderr).toContain(handWritten);

    const forced = await runJson(["sleep", "rollback", "--workspace", ws, "--force"], { home });
    expect(forced.code).toBe(0);
    expect(forced.json).toMatchObject({
      ok: true,
      runId: result.runId,
      restored: true,
      unpromoted: expected.promoted.length,
      removedMemories: created.length,
    });
    expect(readFileSync(join(ws, "MEMORY.md")).equals(ORIGINAL_MEMORY)).toBe(true);
    expect(await mainMemories(home)).toEqual([]);
    const status = await runJson(["sleep", "status", "--workspace", ws, "--now", NOW], { home });
    expect(status.json).toMatchObject({
      lastRun: { id: result.runId, undoneAt: expect.any(String) },
      promotedEntries: 0,
    });
    // The ranges can be promoted again.
    expect((status.json.wouldPromote as Candidate[]).map((each) => each.address)).toEqual(expected.promoted);

    const nothingLeft = await runJson(["sleep", "rollback", "--workspace", ws], { home });
    expect(nothingLeft.code).not.toBe(0);
    expect(nothingLeft.json).toMatchObject({ ok: false, error: { code: "RUN_NOT_FOUND" } });
  });

  it("rollback without edits restores MEMORY.md; the human form says so", async () => {
    const { home, ws } = await recordedWorkspace();
    const result = await applied(home, ws);
    const human = await runCli(["sleep", "rollback", result.runId as string, "--workspace", ws], { home });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`Rolled back ${result.runId}: ${join(ws, "MEMORY.md")} restored`);
    expect(readFileSync(join(ws, "MEMORY.md")).equals(ORIGINAL_MEMORY)).toBe(true);
    const twice = await runJson(["sleep", "rollback", result.runId as string, "--workspace", ws], { home });
    expect(twice.code).not.toBe(0);
    expect(twice.json).toMatchObject({ ok: false });
    expect((twice.json.error as { message: string }).message).toContain("already rolled back");
  });

  it("the real process exits non-zero on a refused rollback", async () => {
    const { home, ws } = await recordedWorkspace();
    await applied(home, ws);
    writeFileSync(join(ws, "MEMORY.md"), `${memoryText(ws)}- A line typed by hand.\n`);
    const refused = await spawnCli(["sleep", "rollback", "--workspace", ws, "--json"], { home });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, error: { code: "UNDO_CONFLICT" } });
    expect(memoryText(ws)).toContain("- A line typed by hand.");
  });
});

describe("lucid sleep record with a bad log", () => {
  it("reports the malformed line by number and still records the good ones", async () => {
    const { home, ws } = workspaceHome();
    const log = [
      JSON.stringify({
        at: "2026-11-20T09:00:00Z",
        query: "boiler fault code",
        hits: [{ path: "memory/2026-11-02.md", startLine: 6, endLine: 8, score: 0.9 }],
      }),
      '{"at": "2026-11-21T09:00:00Z", "query": "broken',
      JSON.stringify({
        at: "2026-11-22T09:00:00Z",
        query: "violin lesson day",
        hits: [{ path: "memory/2026-11-05.md", startLine: 9, endLine: 9, score: 0.8 }],
      }),
    ].join("\n");
    writeFileSync(join(home, "bad.jsonl"), `${log}\n`);
    const result = await runJson(["sleep", "record", "--workspace", ws, "--file", "bad.jsonl"], {
      home,
      cwd: home,
    });
    expect(result.code).toBe(1);
    expect(result.json).toMatchObject({
      ok: false,
      searches: 2,
      recorded: 2,
      errors: [{ line: 2 }],
      error: { code: "INVALID_ARGUMENT" },
    });
    const entries = await signalsOf(home, ws);
    expect(entries.map((entry) => `${entry.path}#L${entry.startLine}-L${entry.endLine}`).sort()).toEqual([
      "memory/2026-11-02.md#L6-L8",
      "memory/2026-11-05.md#L9-L9",
    ]);

    const human = await runCli(["sleep", "record", "--workspace", ws, "--file", join(home, "bad.jsonl")], {
      home,
    });
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/line 2: not valid JSON/);
    expect(human.stderr).toContain("1 line of");

    const missingFile = await runJson(["sleep", "record", "--workspace", ws], { home });
    expect(missingFile.code).not.toBe(0);
    expect(missingFile.json).toMatchObject({ ok: false });
    const absent = await runJson(["sleep", "record", "--workspace", ws, "--file", join(home, "none.jsonl")], {
      home,
    });
    expect(absent.json).toMatchObject({ ok: false, error: { code: "IO_ERROR" } });
  });
});

describe("lucid search --workspace", () => {
  it("returns note hits with addresses and records recalls of daily notes", async () => {
    const { home, ws } = workspaceHome();
    const found = await runJson(["search", "boiler fault", "--workspace", ws], { home });
    expect(found.code, found.stderr).toBe(0);
    const notes = found.json.notes as { address: string; path: string; score: number; shortTerm: boolean }[];
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.map((note) => note.address)).toContainEqual(
      expect.stringMatching(/^memory\/2026-11-02\.md#L\d+-L\d+$/),
    );
    for (const note of notes) expect(note.address).toMatch(/^(?:MEMORY\.md|memory\/.+\.md)#L\d+-L\d+$/);
    expect(found.json.recorded).toBeGreaterThanOrEqual(1);
    expect(found.json.results).toEqual([]);

    const first = await signalsOf(home, ws);
    expect(first.length).toBeGreaterThanOrEqual(1);
    expect(first.length).toBeLessThanOrEqual(found.json.recorded as number);
    expect(first.map((entry) => entry.path)).toContain("memory/2026-11-02.md");

    const again = await runJson(["search", "Elsie violin lessons Thursday", "--workspace", ws], { home });
    expect(again.code).toBe(0);
    expect(again.json.recorded).toBeGreaterThanOrEqual(1);
    const second = await signalsOf(home, ws);
    expect(second.length).toBeGreaterThan(first.length);

    const table = await runCli(["sleep", "signals", "--workspace", ws], { home });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^RANGE\s+RECALLS\s+QUERIES\b/);
    expect(table.stdout).toMatch(/^memory\/2026-11-02\.md#L\d+-L\d+\s+1\s+1\b/m);

    const human = await runCli(["search", "boiler fault", "--workspace", ws], { home });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain("No long-term memories matched (the workspace's notes below).");
    expect(human.stdout).toMatch(/memory\/2026-11-02\.md#L\d+-L\d+/);
    // Notes are not written to by searching.
    expect(readFileSync(join(ws, "MEMORY.md")).equals(ORIGINAL_MEMORY)).toBe(true);
  });

  it("the sleep index action indexes the notes", async () => {
    const { home, ws } = workspaceHome();
    const report = await runJson(["sleep", "index", "--workspace", ws], { home });
    expect(report.code).toBe(0);
    // 38 daily notes, people.md, the deep report and MEMORY.md.
    expect(report.json).toMatchObject({ ok: true, files: 41, indexed: 41, removed: 0, skipped: [] });
    expect(report.json.chunks).toBeGreaterThan(41);
    const again = await runJson(["sleep", "index", "--workspace", ws], { home });
    expect(again.json).toMatchObject({ ok: true, files: 41, indexed: 0 });
    const status = await runJson(["sleep", "status", "--workspace", ws], { home });
    expect(status.json).toMatchObject({ indexedFiles: 41, shortTermFiles: 38 });
  });
});

describe("which workspace", () => {
  it("reads sleep.workspace from lucid.config.json, relative to it, absolute, or under ~", async () => {
    const { home, ws } = await recordedWorkspace();
    writeFileSync(join(home, "lucid.config.json"), JSON.stringify({ sleep: { workspace: "ws" } }));
    const relative = await runJson(["sleep", "status", "--now", NOW], { home, cwd: FIXTURE });
    expect(relative.code, relative.stdout).toBe(0);
    expect(relative.json).toMatchObject({ ok: true, workspace: ws, memoryFile: join(ws, "MEMORY.md") });
    expect(relative.json.entries).toBeGreaterThan(0);

    writeFileSync(join(home, "lucid.config.json"), JSON.stringify({ sleep: { workspace: ws } }));
    const absolute = await runJson(["sleep", "status", "--now", NOW], { home });
    expect(absolute.json).toMatchObject({ ok: true, workspace: ws });
    // The configured workspace is the one signals, promote and search use too.
    const signals = await runJson(["sleep", "signals"], { home });
    expect(signals.json).toMatchObject({ ok: true, workspace: ws });
    expect((signals.json.entries as Signal[]).length).toBe(absolute.json.entries);

    writeFileSync(join(home, "lucid.config.json"), JSON.stringify({ sleep: { workspace: "~/ws" } }));
    const tilde = await runJson(["sleep", "status", "--now", NOW], { home, env: { HOME: home } });
    expect(tilde.json).toMatchObject({ ok: true, workspace: ws });

    // --workspace wins over the config, relative to the current directory.
    writeFileSync(join(home, "lucid.config.json"), JSON.stringify({ sleep: { workspace: "nowhere" } }));
    const given = await runJson(["sleep", "status", "--workspace", "ws", "--now", NOW], { home, cwd: home });
    expect(given.json).toMatchObject({ ok: true, workspace: ws });
  });

  it("a missing workspace is WORKSPACE_NOT_FOUND; an unknown sleep key is INVALID_CONFIG", async () => {
    const { home } = workspaceHome();
    writeFileSync(join(home, "lucid.config.json"), JSON.stringify({ sleep: { workspace: "no-such-dir" } }));
    const missing = await runJson(["sleep", "status"], { home });
    expect(missing.code).not.toBe(0);
    expect(missing.json).toMatchObject({ ok: false, error: { code: "WORKSPACE_NOT_FOUND" } });
    expect((missing.json.error as { message: string }).message).toContain(join(home, "no-such-dir"));
    const flagMissing = await runJson(["sleep", "status", "--workspace", join(home, "absent")], { home });
    expect(flagMissing.json).toMatchObject({ ok: false, error: { code: "WORKSPACE_NOT_FOUND" } });
    const searchMissing = await runJson(["search", "boiler", "--workspace", join(home, "absent")], { home });
    expect(searchMissing.json).toMatchObject({ ok: false, error: { code: "WORKSPACE_NOT_FOUND" } });

    writeFileSync(join(home, "lucid.config.json"), JSON.stringify({ sleep: { bogus: 1 } }));
    const bogus = await runJson(["sleep", "status"], { home });
    expect(bogus.code).not.toBe(0);
    expect(bogus.json).toMatchObject({ ok: false, error: { code: "INVALID_CONFIG" } });
    expect((bogus.json.error as { message: string }).message).toContain("sleep.bogus");

    writeFileSync(join(home, "lucid.config.json"), JSON.stringify({ sleep: { workspace: "" } }));
    const empty = await runJson(["sleep", "status"], { home });
    expect(empty.json).toMatchObject({ ok: false, error: { code: "INVALID_CONFIG" } });
  });

  it("without --workspace, a config or ~/.openclaw/workspace, says how to name one", async () => {
    const home = newHome();
    mkdirSync(home, { recursive: true });
    const none = await runJson(["sleep", "status"], { home, env: { HOME: home } });
    expect(none.code).not.toBe(0);
    expect(none.json).toMatchObject({ ok: false, error: { code: "WORKSPACE_NOT_FOUND" } });
    expect((none.json.error as { message: string }).message).toContain("--workspace");

    // OpenClaw's default workspace is found when it exists.
    const openclaw = join(home, ".openclaw", "workspace");
    cpSync(FIXTURE, openclaw, { recursive: true });
    const found = await runJson(["sleep", "status"], { home, env: { HOME: home } });
    expect(found.json).toMatchObject({ ok: true, workspace: openclaw });
  });
});

describe("lucid sleep import-openclaw", () => {
  /** An entry as OpenClaw's memory/.dreams/short-term-recall.json holds it. */
  const entry = (path: string, start: number, end: number, snippet: string) => ({
    key: `memory:${path}:${start}:${end}`,
    path,
    startLine: start,
    endLine: end,
    source: "memory",
    snippet,
    recallCount: 4,
    dailyCount: 0,
    groundedCount: 0,
    totalScore: 3.6,
    maxScore: 0.95,
    firstRecalledAt: "2026-11-10T09:00:00.000Z",
    lastRecalledAt: "2026-11-27T09:00:00.000Z",
    queryHashes: ["a1a1a1a1a1a1", "b2b2b2b2b2b2", "c3c3c3c3c3c3"],
    recallDays: ["2026-11-10", "2026-11-18", "2026-11-27"],
    conceptTags: ["boiler"],
  });

  it("imports the recall store's entries and keeps them on a second import", async () => {
    const { home, ws } = workspaceHome();
    const entries = [
      entry("memory/2026-11-02.md", 6, 8, "Boiler fault F.28 means the ignition failed."),
      entry("memory/2026-11-05.md", 9, 9, "Elsie's violin lessons move to Thursdays 16:30 with Ms Varga"),
      entry("MEMORY.md", 14, 14, "Elsie (9, Year 5): violin, football on Saturday mornings"),
    ];
    const store = JSON.stringify({
      version: 1,
      updatedAt: "2026-11-27T09:00:00.000Z",
      entries: Object.fromEntries(entries.map((each) => [each.key, each])),
    });
    const file = join(home, "short-term-recall.json");
    writeFileSync(file, store);

    const first = await runJson(["sleep", "import-openclaw", "--workspace", ws, "--file", file], { home });
    expect(first.code, first.stdout).toBe(0);
    expect(first.json).toMatchObject({
      ok: true,
      imported: 2,
      kept: 0,
      skipped: [{ key: "memory:MEMORY.md:14:14", reason: "not a short-term note" }],
    });
    const signals = await signalsOf(home, ws);
    expect(signals.map((each) => each.key).sort()).toEqual([
      "memory:memory/2026-11-02.md:6:8",
      "memory:memory/2026-11-05.md:9:9",
    ]);
    expect(signals.find((each) => each.key === "memory:memory/2026-11-02.md:6:8")?.recallCount).toBe(4);

    const second = await runJson(["sleep", "import-openclaw", "--workspace", ws, "--file", file], { home });
    expect(second.code).toBe(0);
    expect(second.json).toMatchObject({ ok: true, imported: 0, kept: 2 });
    expect((await signalsOf(home, ws)).length).toBe(2);

    const human = await runCli(["sleep", "import-openclaw", "--workspace", ws, "--file", file], { home });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain("2 already here kept as they were");
    expect(human.stdout).toContain("skipped memory:MEMORY.md:14:14: not a short-term note");
  });

  it("reads memory/.dreams/short-term-recall.json by default, and refuses what is not a recall store", async () => {
    const { home, ws } = workspaceHome();
    const absent = await runJson(["sleep", "import-openclaw", "--workspace", ws], { home });
    expect(absent.code).not.toBe(0);
    expect(absent.json).toMatchObject({ ok: false, error: { code: "NOTE_NOT_FOUND" } });

    const one = entry("memory/2026-11-12.md", 6, 8, "Physio plan: eccentric heel drops");
    mkdirSync(join(ws, "memory", ".dreams"), { recursive: true });
    writeFileSync(
      join(ws, "memory", ".dreams", "short-term-recall.json"),
      JSON.stringify({ version: 1, entries: { [one.key]: one } }),
    );
    const found = await runJson(["sleep", "import-openclaw", "--workspace", ws], { home });
    expect(found.json).toMatchObject({ ok: true, imported: 1, kept: 0, skipped: [] });

    writeFileSync(join(home, "not-a-store.json"), JSON.stringify({ hello: "world" }));
    const wrong = await runJson(
      ["sleep", "import-openclaw", "--workspace", ws, "--file", join(home, "not-a-store.json")],
      { home },
    );
    expect(wrong.code).not.toBe(0);
    expect(wrong.json).toMatchObject({ ok: false, error: { code: "INVALID_ARGUMENT" } });
  });
});

describe("promotion against a workspace that changed", () => {
  it("follows a range that moved since it was recalled", async () => {
    const { home, ws } = await recordedWorkspace();
    const path = "memory/2026-11-10-offsite.md";
    const file = join(ws, path);
    const before = readFileSync(file, "utf8").split("\n");
    writeFileSync(file, [before[0], "Typed later, at the top.", ...before.slice(1)].join("\n"));
    const result = await applied(home, ws);
    const moved = result.promoted.find((entry) => entry.path === path);
    // Recalled as L11-L13; one line was added above it.
    expect(moved).toMatchObject({ key: `memory:${path}:11:13`, startLine: 12, endLine: 14 });
    expect(memoryText(ws)).toContain(`source=${path}:12-14`);
    const memories = await mainMemories(home);
    expect(memories.map((item) => item.metadata.source)).toContain(`${path}#L12-L14`);
    // The same range is not promoted twice.
    const again = await runJson(["sleep", "promote", "--workspace", ws, "--now", NOW, "--apply"], { home });
    expect(again.json).toMatchObject({ runId: null, promoted: [] });
  });

  it("cites the lines a moved range is on now, even when a blank line moved into its place", async () => {
    const { home, ws } = await recordedWorkspace();
    const path = "memory/2026-11-02.md";
    const file = join(ws, path);
    const before = readFileSync(file, "utf8").split("\n");
    // Recalled as L6-L8 (the three lines of the F.28 fix); one line is added under "## Home", so
    // L6 is now the blank line before them and they are L7-L9.
    writeFileSync(file, [...before.slice(0, 3), "A line typed later.", ...before.slice(3)].join("\n"));
    const now = readFileSync(file, "utf8").split("\n");
    expect(now.slice(6, 9)).toEqual(before.slice(5, 8));
    expect(now[5]).toBe("");

    // Fails today (a defect of src/sleep/rehydrate.ts): the stale window L6-L8 — a blank line and
    // the first two lines of the range — still "matches" (the snippet contains its words), so it is
    // cited as is, leaving out the range's last line.
    const result = await applied(home, ws);
    const moved = result.promoted.find((entry) => entry.path === path);
    expect(moved).toMatchObject({ key: `memory:${path}:6:8`, startLine: 7, endLine: 9 });
    expect(memoryText(ws)).toContain(`source=${path}:7-9`);
    expect((await mainMemories(home)).map((item) => item.metadata.source)).toContain(`${path}#L7-L9`);
  });

  it("creates MEMORY.md when there is none, and rollback removes it again", async () => {
    const { home, ws } = await recordedWorkspace();
    rmSync(join(ws, "MEMORY.md"));
    const result = await applied(home, ws);
    expect(result.promoted).toHaveLength(expected.promoted.length);
    const text = memoryText(ws);
    expect(text).toMatch(/^# Long-Term Memory\n\n## Promoted From Short-Term Memory \(2026-11-29\)\n/);
    for (const entry of result.promoted) expect(text).toContain(entry.marker);
    const rolledBack = await runJson(["sleep", "rollback", "--workspace", ws], { home });
    expect(rolledBack.json).toMatchObject({ ok: true, runId: result.runId, restored: true });
    expect(existsSync(join(ws, "MEMORY.md"))).toBe(false);
    expect(await mainMemories(home)).toEqual([]);
  });

  it("dates the section in --tz's calendar", async () => {
    const { home, ws } = await recordedWorkspace();
    // 09:00Z on the 29th is 23:00 on the 28th in Honolulu.
    const result = await runJson(
      ["sleep", "promote", "--workspace", ws, "--now", NOW, "--apply", "--tz", "Pacific/Honolulu"],
      { home },
    );
    expect(result.code).toBe(0);
    const headings = memoryText(ws).match(/^## Promoted From Short-Term Memory \(.*\)$/gm);
    expect(headings).toEqual([
      "## Promoted From Short-Term Memory (2026-10-18)",
      "## Promoted From Short-Term Memory (2026-11-28)",
    ]);
  });

  it("a second run stacks on the first; runs roll back newest first", async () => {
    const { home, ws } = await recordedWorkspace();
    const first = await applied(home, ws);
    const afterFirst = readFileSync(join(ws, "MEMORY.md"));
    // Two distinct queries now suffice: the mortgage fix and the bin day qualify.
    const second = await runJson(
      ["sleep", "promote", "--workspace", ws, "--now", NOW, "--apply", "--min-unique-queries", "1"],
      { home },
    );
    expect(second.code).toBe(0);
    const secondRun = second.json.runId as string;
    expect(secondRun).toEqual(expect.any(String));
    expect(secondRun).not.toBe(first.runId);
    const added = (second.json.promoted as Promoted[]).map(
      (entry) => `${entry.path}#L${entry.startLine}-L${entry.endLine}`,
    );
    expect(added).toEqual(
      expect.arrayContaining(["memory/2026-10-22.md#L12-L12", "memory/2026-10-09.md#L5-L5"]),
    );
    for (const address of expected.promoted) expect(added).not.toContain(address);
    expect(memoryText(ws).startsWith(afterFirst.toString("utf8"))).toBe(true);
    const status = await runJson(["sleep", "status", "--workspace", ws, "--now", NOW], { home });
    expect(status.json).toMatchObject({ lastRun: { id: secondRun, promoted: added.length } });

    // The first run's file was changed by the second: rolling it back first is a conflict.
    const olderFirst = await runJson(["sleep", "rollback", first.runId as string, "--workspace", ws], {
      home,
    });
    expect(olderFirst.json).toMatchObject({ ok: false, error: { code: "UNDO_CONFLICT" } });
    const latest = await runJson(["sleep", "rollback", "--workspace", ws], { home });
    expect(latest.json).toMatchObject({ ok: true, runId: secondRun });
    expect(readFileSync(join(ws, "MEMORY.md")).equals(afterFirst)).toBe(true);
    expect(await mainMemories(home)).toHaveLength(expected.promoted.length);
    const next = await runJson(["sleep", "rollback", "--workspace", ws], { home });
    expect(next.json).toMatchObject({ ok: true, runId: first.runId });
    expect(readFileSync(join(ws, "MEMORY.md")).equals(ORIGINAL_MEMORY)).toBe(true);
    expect(await mainMemories(home)).toEqual([]);
    const unknown = await runJson(["sleep", "rollback", "sleep-19990101T000000-0000", "--workspace", ws], {
      home,
    });
    expect(unknown.json).toMatchObject({ ok: false, error: { code: "RUN_NOT_FOUND" } });
  });

  it("two sleepers at once promote each range once", async () => {
    const { home, ws } = await recordedWorkspace();
    const args = ["sleep", "promote", "--workspace", ws, "--now", NOW, "--apply", "--json"];
    const [one, two] = await Promise.all([spawnCli(args, { home }), spawnCli(args, { home })]);
    const results = [one, two].map((each) => ({ code: each.code, json: JSON.parse(each.stdout) }));
    const wrote = results.filter((each) => each.json.ok === true && each.json.runId !== null);
    expect(wrote).toHaveLength(1);
    const other = results.find((result) => !wrote.includes(result));
    // The other found nothing new once the first was done, or was told the workspace was busy.
    if (other?.json.ok === true) expect(other.json).toMatchObject({ runId: null, promoted: [] });
    else expect(other).toMatchObject({ code: 1, json: { ok: false, error: { code: "DREAM_LEASE_HELD" } } });
    const text = memoryText(ws);
    for (const address of expected.promoted) {
      const match = /^(.*)#L(\d+)-L(\d+)$/.exec(address) as RegExpExecArray;
      const marker = `<!-- openclaw-memory-promotion:memory:${match[1]}:${match[2]}:${match[3]} -->`;
      expect(text.split(marker)).toHaveLength(2);
    }
    expect(text.match(/^## Promoted From Short-Term Memory \(2026-11-29\)$/gm)).toHaveLength(1);
    expect(await mainMemories(home)).toHaveLength(expected.promoted.length);
  });
});

describe("credentials in notes", () => {
  it("a promoted line holding a credential is redacted in MEMORY.md, the recall store and long-term memory", async () => {
    const { home, ws } = workspaceHome();
    const token = createFakeSecrets(7)["github-pat"]?.() ?? "";
    expect(token).toMatch(/^ghp_/);
    const path = "memory/2026-11-20.md";
    const file = join(ws, path);
    const lines = readFileSync(file, "utf8").split("\n");
    lines.push(`- The Kestrel Heating portal token is ${token}; the boiler service login uses it.`);
    writeFileSync(file, `${lines.join("\n")}\n`);
    const line = lines.length;
    const queries = [
      "kestrel portal login",
      "boiler service token",
      "heating portal",
      "kestrel token",
      "boiler login",
    ];
    const log = queries.map((query, index) =>
      JSON.stringify({
        at: `2026-11-${21 + index}T09:00:00Z`,
        query,
        hits: [{ path, startLine: line, endLine: line, score: 0.95 }],
      }),
    );
    writeFileSync(join(home, "log.jsonl"), `${log.join("\n")}\n`);
    const recorded = await runJson(
      ["sleep", "record", "--workspace", ws, "--file", join(home, "log.jsonl")],
      {
        home,
      },
    );
    expect(recorded.json).toMatchObject({ ok: true, searches: 5, recorded: 5 });

    const result = await runJson(["sleep", "promote", "--workspace", ws, "--now", NOW, "--apply"], { home });
    expect(result.code).toBe(0);
    expect((result.json.promoted as Promoted[]).map((entry) => entry.key)).toEqual([
      `memory:${path}:${line}:${line}`,
    ]);
    const text = memoryText(ws);
    expect(text).not.toContain(token);
    expect(text).toContain("[REDACTED:github-pat]");
    expect(text).toContain(`source=${path}:${line}-${line}`);
    const revealed = await runJson(["list", "--agent", "main", "--reveal"], { home });
    const memories = revealed.json.results as ListedMemory[];
    expect(memories).toHaveLength(1);
    expect(memories[0]?.memory).toContain("[REDACTED:github-pat]");
    expect(memories[0]?.memory).not.toContain(token);
    // Nothing searched the notes, so nothing in the store holds the credential.
    expect(readFileSync(join(home, "lucid.db")).includes(Buffer.from(token))).toBe(false);
  });
});
