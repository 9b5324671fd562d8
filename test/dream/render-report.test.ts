import { describe, expect, it } from "vitest";
import type { DreamAction, DreamPlan } from "../../src/dream/plan.js";
import { planDream } from "../../src/dream/plan-dream.js";
import { renderPlanJson } from "../../src/dream/render-json.js";
import { NOTHING_TO_DO, renderReport } from "../../src/dream/render-report.js";
import { resolvePolicy } from "../../src/policy/resolve-policy.js";
import { snapshotOf } from "./make-snapshot.js";

const policy = await resolvePolicy();
const why = { rule: "test", detail: "test" };

function planWith(actions: DreamAction[]): DreamPlan {
  const snapshot = snapshotOf([
    { id: "m1", text: "a", createdAt: "2026-11-20T12:00:00.000Z", metadata: { type: "session_state" } },
    { id: "m2", text: "b", createdAt: "2026-11-01T12:00:00.000Z" },
    { id: "m3", text: "c", category: "operational", createdAt: "2026-11-18T12:00:00.000Z" },
    { id: "m4", text: "d" },
    { id: "m5", text: "e" },
    { id: "m6", text: "f" },
    { id: "m7", text: "g" },
  ]);
  return planDream(snapshot, policy, { analysers: [() => actions] });
}

describe("renderReport", () => {
  it("says that nothing was found when there is nothing to do, not that a dream completed", () => {
    expect(renderReport(planWith([]))).toBe(NOTHING_TO_DO);
    expect(NOTHING_TO_DO).toBe(
      "Nothing found to consolidate: no duplicate, contradictory, stale or noisy memories.",
    );
  });

  it("follows the mem0-dream template for merges, conflicts and prunes, without asking to apply", () => {
    const merged =
      "User prefers dark mode in every editor and terminal, and uses the Solarized Dark theme in VS Code";
    const report = renderReport(
      planWith([
        { kind: "merge", ids: ["m1", "m2"], keep: "m1", text: `${merged} since 2025.`, why },
        { kind: "conflict", ids: ["m4", "m5"], topic: "deploy target of billing-api", suggested: "m5", why },
        { kind: "delete", ids: ["m3"], reason: "expired", why },
      ]),
    );
    expect(report).toBe(
      [
        "## dream — consolidation report",
        "",
        "Merges (1):",
        `  [mem0:m1] + [mem0:m2] → "${`${merged} since 2025.`.slice(0, 97)}..."`,
        "",
        "Conflicts (1):",
        '  [mem0:m4] vs [mem0:m5] — "deploy target of billing-api" [A/B/skip]',
        "",
        "Prune (1):",
        "  [mem0:m3] — operational, 12d old (expired)",
        "",
        "Proposed: 1 merges, 1 prunes, 1 conflicts.",
      ].join("\n"),
    );
  });

  it("adds credential and rewrite sections in the same style, and notes non-expiry prunes", () => {
    const report = renderReport(
      planWith([
        { kind: "delete", ids: ["m1"], reason: "noise", why },
        {
          kind: "delete",
          ids: ["m6"],
          reason: "credential",
          why: { ...why, evidence: { kinds: ["github-pat"] } },
        },
        {
          kind: "rewrite",
          ids: ["m7"],
          text: "Deploy with [REDACTED:npm-token]",
          reasons: ["credential_redacted"],
          why: { ...why, evidence: { kinds: ["npm-token"] } },
        },
        { kind: "rewrite", ids: ["m2"], text: "User prefers tabs", reasons: ["first_person"], why },
      ]),
    );
    expect(report).toBe(
      [
        "## dream — consolidation report",
        "",
        "Prune (1):",
        "  [mem0:m1] — session_state, 10d old (noise)",
        "",
        "Credentials (2):",
        "  [mem0:m6] — github-pat, delete",
        '  [mem0:m7] — npm-token, redact → "Deploy with [REDACTED:npm-token]"',
        "",
        "Rewrites (1):",
        '  [mem0:m2] — first_person → "User prefers tabs"',
        "",
        "Proposed: 0 merges, 1 prunes, 0 conflicts, 2 credentials, 1 rewrites.",
      ].join("\n"),
    );
  });
});

describe("renderReport with the memories", () => {
  it("shows each memory's text and date under its line, the suggestion and why, and what expired it", () => {
    const plan = planWith([
      {
        kind: "conflict",
        ids: ["m4", "m5"],
        topic: "deploy target of billing-api",
        suggested: "m5",
        why: {
          rule: "contradiction",
          detail: 'm5 says "AWS" vs m4 says "Fly.io"; suggest m5: newer (2026-11-01)',
        },
      },
      {
        kind: "delete",
        ids: ["m3"],
        reason: "expired",
        why: { rule: "ttl", detail: "old", evidence: { category: "operational", ageDays: 12, ttlDays: 7 } },
      },
      {
        kind: "delete",
        ids: ["m1"],
        reason: "expired",
        why: {
          rule: "expiry",
          detail: "passed",
          evidence: { expiresAt: "2026-11-20T00:00:00.000Z", ageDays: 3 },
        },
      },
    ]);
    const memories = new Map([
      ["m4", { text: "billing-api deploys to Fly.io", createdAt: "2026-01-05T09:00:00.000Z" }],
      ["m5", { text: "billing-api deploys to AWS", createdAt: "2026-11-01T09:00:00.000Z" }],
      [
        "m3",
        {
          text: `Deploy freeze until the audit ends ${"and more ".repeat(20)}`,
          createdAt: "2026-11-18T00:00:00.000Z",
        },
      ],
    ]);
    const lines = renderReport(plan, { memories, width: 60 }).split("\n");
    expect(lines).toContain("      [mem0:m4] 2026-01-05  billing-api deploys to Fly.io");
    expect(lines).toContain("      [mem0:m5] 2026-11-01  billing-api deploys to AWS");
    expect(lines).toContain("      suggest [mem0:m5]: newer (2026-11-01)");
    expect(lines.some((line) => line.includes("(expired: past the operational TTL of 7d)"))).toBe(true);
    expect(lines.some((line) => line.includes("(expired: its expiry date 2026-11-20 passed)"))).toBe(true);
    const long = lines.find((line) => line.includes("Deploy freeze"));
    expect(long?.length).toBe(60);
    expect(long?.endsWith("…")).toBe(true);
  });
});

describe("renderPlanJson", () => {
  it("is stable and round-trips", () => {
    const plan = planWith([{ kind: "delete", ids: ["m1"], reason: "noise", why }]);
    const json = renderPlanJson(plan);
    expect(renderPlanJson(plan)).toBe(json);
    const parsed = JSON.parse(json);
    expect(Object.keys(parsed)).toEqual([
      "version",
      "scope",
      "now",
      "policy",
      "reviewed",
      "actions",
      "review",
      "seen",
      "stats",
    ]);
    expect(parsed.actions[0]).toEqual({ kind: "delete", ids: ["m1"], reason: "noise", why });
  });
});
