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
  it("prints the skill's one line when there is nothing to do", () => {
    expect(renderReport(planWith([]))).toBe(
      "Dream complete. No duplicate, contradictory, or stale memories found.",
    );
    expect(NOTHING_TO_DO).toBe("Dream complete. No duplicate, contradictory, or stale memories found.");
  });

  it("follows the mem0-dream template exactly for merges, conflicts and prunes", () => {
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
        "  [mem0:m3] — operational, 12d old",
        "",
        "Proposed: 1 merges, 1 prunes, 1 conflicts. Apply? [Y/n]",
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
        "Proposed: 0 merges, 1 prunes, 0 conflicts, 2 credentials, 1 rewrites. Apply? [Y/n]",
      ].join("\n"),
    );
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
      "seen",
      "stats",
    ]);
    expect(parsed.actions[0]).toEqual({ kind: "delete", ids: ["m1"], reason: "noise", why });
  });
});
