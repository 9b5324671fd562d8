import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { NOTHING_TO_DO } from "../../src/dream/render-report.js";
import { runCli, runJson, tempHomes } from "../cli/run-cli.js";

const newHome = tempHomes();
const NOW = "2026-11-30T12:00:00Z";
let home: string;
let project: string;

const RECORDS = [
  { id: "m-first", text: "I prefer tabs", user_id: "alice", createdAt: "2026-11-20T00:00:00Z" },
  { id: "m-noise", text: "ok thanks", user_id: "alice", createdAt: "2026-11-20T00:00:00Z" },
  {
    id: "m-session",
    text: "Refactoring the parser in src/parse.ts",
    user_id: "alice",
    category: "session_state",
    createdAt: "2026-10-01T00:00:00Z",
  },
  { id: "m-bob", text: "thanks!", user_id: "bob", createdAt: "2026-11-20T00:00:00Z" },
];

beforeAll(async () => {
  home = newHome();
  project = join(home, "project");
  mkdirSync(project, { recursive: true });
  const file = join(home, "memories.jsonl");
  writeFileSync(file, RECORDS.map((record) => JSON.stringify(record)).join("\n"));
  const imported = await runCli(["import", file], { home });
  expect(imported.code, imported.stderr).toBe(0);
});

describe("lucid dream --dry-run", () => {
  it("prints the skill's report for one scope, each memory under its line, and changes nothing", async () => {
    const result = await runCli(["dream", "--dry-run", "--user", "alice", "--now", NOW], {
      home,
      cwd: project,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      [
        "## dream — consolidation report",
        "",
        "Prune (1):",
        "  [mem0:m-noise] — unknown, 10d old (noise)",
        "      [mem0:m-noise] 2026-11-20  ok thanks",
        "",
        "Rewrites (1):",
        '  [mem0:m-first] — first_person → "User prefers tabs"',
        "      [mem0:m-first] 2026-11-20  I prefer tabs",
        "",
        "Proposed: 0 merges, 1 prunes, 0 conflicts, 1 rewrites.",
        "",
      ].join("\n"),
    );
    expect(result.stderr).toContain("Dry run — no changes made.");
    const listed = await runJson(["list", "--user", "alice", "--show-expired"], { home });
    expect(listed.json.total).toBe(3);
  });

  it("reads the project's Mem0 retention and prints the plan as JSON", async () => {
    writeFileSync(join(project, ".mem0.json"), JSON.stringify({ retention: { session_state: "30d" } }));
    const result = await runJson(["dream", "--user", "alice", "--now", NOW], { home, cwd: project });
    expect(result.code, result.stderr).toBe(0);
    expect(result.json).toMatchObject({
      ok: true,
      version: 1,
      scope: { user_id: "alice" },
      now: "2026-11-30T12:00:00.000Z",
    });
    const actions = result.json.actions as { kind: string; ids: string[]; reason?: string }[];
    expect(actions.find((action) => action.ids[0] === "m-session")).toMatchObject({
      kind: "delete",
      reason: "expired",
    });
  });

  it("applies --policy FILE over the project's files, and refuses a malformed one", async () => {
    const policy = join(home, "policy.json");
    writeFileSync(policy, JSON.stringify({ categories: { session_state: { ttlDays: null } } }));
    const kept = await runJson(["dream", "--user", "alice", "--now", NOW, "--policy", policy], {
      home,
      cwd: project,
    });
    const actions = kept.json.actions as { ids: string[] }[];
    expect(actions.some((action) => action.ids[0] === "m-session")).toBe(false);

    writeFileSync(policy, "{ not json");
    const bad = await runCli(["dream", "--user", "alice", "--policy", policy], { home, cwd: project });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("INVALID_CONFIG");
  });

  it("prints the one line when there is nothing to do", async () => {
    const result = await runCli(["dream", "--dry-run", "--user", "carol", "--now", NOW], {
      home,
      cwd: project,
    });
    expect(result.stdout).toBe(`${NOTHING_TO_DO}\n`);
  });
});
