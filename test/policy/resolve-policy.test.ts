import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isLucidError } from "../../src/errors.js";
import { DEFAULT_CATEGORIES } from "../../src/policy/categories.js";
import { DEFAULT_THRESHOLDS } from "../../src/policy/policy.js";
import { buildPolicy, resolvePolicy } from "../../src/policy/resolve-policy.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("policy");
let dirs = 0;

/** A fresh project directory holding these files. */
function project(contents: Record<string, string>): string {
  const dir = join(files.dir, `project-${++dirs}`);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(contents)) writeFileSync(join(dir, name), text);
  return dir;
}

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<unknown> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isLucidError(error) && error.code === code, String(error)).toBe(true);
  return error;
}

describe("resolvePolicy", () => {
  it("starts from the defaults and is deeply frozen", async () => {
    const policy = await resolvePolicy();
    expect(policy.categories).toEqual(DEFAULT_CATEGORIES);
    expect(policy.lowConfidence).toBe(0.3);
    expect(policy.duplicates).toEqual(DEFAULT_THRESHOLDS.duplicates);
    expect(policy.sources).toEqual([{ kind: "defaults" }]);
    expect(Object.isFrozen(policy)).toBe(true);
    expect(Object.isFrozen(policy.duplicates)).toBe(true);
    expect(Object.isFrozen(policy.sources)).toBe(true);
  });

  it("merges a config layer field by field, keeping what it does not name", async () => {
    const policy = await resolvePolicy({
      config: {
        categories: { project: { importance: 0.7 }, meeting_note: { ttlDays: 30 } },
        lowConfidence: 0.2,
      },
    });
    expect(policy.categories.project).toEqual({ importance: 0.7, ttlDays: 90, immutable: false });
    expect(policy.categories.meeting_note).toEqual({ importance: 0.5, ttlDays: 30, immutable: false });
    expect(policy.lowConfidence).toBe(0.2);
    expect(policy.sources).toEqual([{ kind: "defaults" }, { kind: "config" }]);
  });

  it("refuses a bad config value with INVALID_CONFIG naming the key", async () => {
    const error = await rejectsWith(
      resolvePolicy({ config: { duplicates: { minSimilarity: 3 } } }),
      "INVALID_CONFIG",
    );
    expect(String(error)).toContain("policy.duplicates.minSimilarity");
    await rejectsWith(resolvePolicy({ config: { lowConfidnce: 0.1 } as never }), "INVALID_CONFIG");
  });

  it("reads .mem0.json retention, keeping importance and immutability", async () => {
    const dir = project({
      ".mem0.json": JSON.stringify({
        project_id: "lucid",
        retention: {
          session_state: "30d",
          identity: "365 days",
          decision: "forever",
          "bug-fix": 14,
          bogus: "soon",
        },
      }),
    });
    const policy = await resolvePolicy({ projectDir: dir });
    expect(policy.categories.session_state?.ttlDays).toBe(30);
    expect(policy.categories.identity).toEqual({ importance: 0.95, ttlDays: 365, immutable: true });
    expect(policy.categories.decision?.ttlDays).toBeNull();
    expect(policy.categories.bug_fix?.ttlDays).toBe(14);
    expect(policy.warnings).toHaveLength(1);
    expect(policy.warnings[0]).toContain("bogus");
    expect(policy.sources.at(-1)).toEqual({ kind: "mem0-json", path: join(dir, ".mem0.json") });
  });

  it("refuses malformed .mem0.json with INVALID_CONFIG", async () => {
    await rejectsWith(
      resolvePolicy({ projectDir: project({ ".mem0.json": "{ retention: " }) }),
      "INVALID_CONFIG",
    );
    await rejectsWith(
      resolvePolicy({ projectDir: project({ ".mem0.json": '{"retention": ["90d"]}' }) }),
      "INVALID_CONFIG",
    );
  });

  it("reads mem0.md's ## Retention section as Mem0's parser does", async () => {
    const dir = project({
      "mem0.md": [
        "# Project memory",
        "",
        "## Retention",
        "- session_state: 30d   # shorter than the default",
        "- compact_summary: forever",
        "operational: 2 weeks",
        "- nonsense line",
        "",
        "## Search",
        "- operational: 1d",
      ].join("\n"),
    });
    const policy = await resolvePolicy({ projectDir: dir });
    expect(policy.categories.session_state?.ttlDays).toBe(30);
    expect(policy.categories.compact_summary?.ttlDays).toBeNull();
    expect(policy.categories.operational?.ttlDays).toBe(14);
    expect(policy.warnings).toEqual([expect.stringContaining("nonsense line")]);
  });

  it("reads .mem0.md front matter and lets .mem0.json win over it", async () => {
    const dir = project({
      ".mem0.md": [
        "---",
        "project: lucid",
        "retention:",
        "  session_state: 10 days",
        "  project: 45d",
        "---",
        "# Notes",
      ].join("\n"),
      ".mem0.json": JSON.stringify({ retention: { project: "60d" } }),
    });
    const policy = await resolvePolicy({ projectDir: dir });
    expect(policy.categories.session_state?.ttlDays).toBe(10);
    expect(policy.categories.project?.ttlDays).toBe(60);
    expect(policy.sources.map((source) => source.kind)).toEqual(["defaults", "mem0-markdown", "mem0-json"]);
  });

  it("applies --policy FILE last, in Lucid's shape or Mem0's", async () => {
    const dir = project({
      ".mem0.json": JSON.stringify({ retention: { project: "60d" } }),
      "policy.json": JSON.stringify({ categories: { project: { ttlDays: 5 } }, maxLength: 200 }),
      "retention.md": "## Retention\n- project: 3d\n",
      "typo.json": JSON.stringify({ maxLenght: 10 }),
    });
    const json = await resolvePolicy({ projectDir: dir, policyFile: join(dir, "policy.json") });
    expect(json.categories.project?.ttlDays).toBe(5);
    expect(json.maxLength).toBe(200);
    const markdown = await resolvePolicy({ projectDir: dir, policyFile: join(dir, "retention.md") });
    expect(markdown.categories.project?.ttlDays).toBe(3);
    await rejectsWith(resolvePolicy({ policyFile: join(dir, "typo.json") }), "INVALID_CONFIG");
    await rejectsWith(resolvePolicy({ policyFile: join(dir, "missing.json") }), "INVALID_CONFIG");
  });

  it("ignores a project without retention files", async () => {
    const policy = await resolvePolicy({ projectDir: project({}) });
    expect(policy.sources).toEqual([{ kind: "defaults" }]);
  });
});

describe("buildPolicy", () => {
  it("lets later layers win", () => {
    const policy = buildPolicy([
      { source: { kind: "config" }, layer: { duplicates: { minSimilarity: 0.9 } }, warnings: [] },
      { source: { kind: "sdk" }, layer: { duplicates: { neighbours: 4 } }, warnings: ["w"] },
    ]);
    expect(policy.duplicates).toEqual({ minSimilarity: 0.9, neighbours: 4 });
    expect(policy.warnings).toEqual(["w"]);
  });
});
