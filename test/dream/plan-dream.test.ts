import { describe, expect, it } from "vitest";
import type { Analyser } from "../../src/dream/analyser.js";
import { DEFAULT_ANALYSERS } from "../../src/dream/analysers.js";
import type { DreamAction } from "../../src/dream/plan.js";
import { planDream } from "../../src/dream/plan-dream.js";
import { resolvePolicy } from "../../src/policy/resolve-policy.js";
import { snapshotOf } from "./make-snapshot.js";

const policy = await resolvePolicy();
const why = { rule: "test", detail: "proposed by a test analyser" };
const propose =
  (...actions: DreamAction[]): Analyser =>
  () =>
    actions;
const del = (
  id: string,
  reason: "noise" | "expired" | "low_confidence" | "credential" = "noise",
): DreamAction => ({
  kind: "delete",
  ids: [id],
  reason,
  why,
});
const merge = (...ids: string[]): DreamAction => ({
  kind: "merge",
  ids,
  keep: ids[0] ?? "",
  text: "merged",
  why,
});
const conflict = (a: string, b: string, suggested = b): DreamAction => ({
  kind: "conflict",
  ids: [a, b],
  topic: "t",
  suggested,
  why,
});
const rewrite = (
  id: string,
  reasons: ("first_person" | "credential_redacted")[] = ["first_person"],
): DreamAction => ({
  kind: "rewrite",
  ids: [id],
  text: "rewritten",
  reasons,
  why,
});

const rows = ["a", "b", "c", "d"].map((id) => ({ id, text: `memory ${id}` }));
const plan = (analysers: Analyser[], snapshot = snapshotOf(rows)) =>
  planDream(snapshot, policy, { analysers });

describe("planDream", () => {
  it("keeps one action per memory, by precedence", () => {
    const result = plan([
      propose(rewrite("a"), merge("a", "b"), del("a", "noise"), conflict("c", "d"), rewrite("c")),
    ]);
    expect(result.actions.map((action) => [action.kind, action.ids])).toEqual([
      ["delete", ["a"]],
      ["conflict", ["c", "d"]],
    ]);
  });

  it("never merges away a memory that is in a conflict: the conflict comes first", () => {
    // "a" restates "b" and contradicts "c": merging a into b would hide the contradiction.
    const result = plan([propose(merge("b", "a"), conflict("a", "c", "c"))]);
    expect(result.actions.map((action) => [action.kind, action.ids])).toEqual([["conflict", ["a", "c"]]]);
  });

  it("drops a merge that loses a member, and a conflict that loses a side", () => {
    const result = plan([
      propose(merge("a", "b", "c"), del("c", "expired"), conflict("b", "d"), del("d", "noise")),
    ]);
    expect(result.actions.map((action) => action.kind)).toEqual(["delete", "delete"]);
  });

  it("turns a redaction of a memory that is deleted anyway into a credential deletion", () => {
    const result = plan([propose(rewrite("a", ["credential_redacted"]), del("a", "expired"))]);
    expect(result.actions).toHaveLength(1);
    expect(result.actions[0]).toMatchObject({ kind: "delete", reason: "credential" });
    expect(result.stats.deletes).toEqual({
      credential: 1,
      noise: 0,
      expired: 0,
      low_confidence: 0,
      injection: 0,
    });
  });

  it("never deletes, merges or rewrites a pinned memory, but redacts it", () => {
    const snapshot = snapshotOf([
      { id: "p", text: "memory p", metadata: { pinned: true } },
      { id: "q", text: "[PINNED] memory q" },
      { id: "r", text: "memory r" },
    ]);
    const result = plan(
      [
        propose(
          del("p"),
          merge("q", "r"),
          rewrite("q"),
          rewrite("p", ["credential_redacted"]),
          conflict("r", "q", "r"),
        ),
      ],
      snapshot,
    );
    expect(result.actions.map((action) => [action.kind, action.ids])).toEqual([
      ["rewrite", ["p"]],
      ["conflict", ["r", "q"]],
    ]);
    expect(result.actions[1]).toMatchObject({ suggested: "q" });
    expect(result.stats.pinnedSkipped).toBe(2);
  });

  it("never merges or rewrites an immutable memory, but may delete it", () => {
    const snapshot = snapshotOf([
      { id: "i", text: "memory i", category: "identity" },
      { id: "j", text: "memory j", category: "identity" },
      { id: "k", text: "memory k" },
    ]);
    const result = plan([propose(merge("i", "k"), rewrite("j"), del("j", "noise"))], snapshot);
    expect(result.actions.map((action) => [action.kind, action.ids])).toEqual([["delete", ["j"]]]);
  });

  it("is deterministic and deeply frozen, and records what it saw", () => {
    const snapshot = snapshotOf([
      { id: "x1", text: "ok thanks" },
      { id: "x2", text: "I prefer tabs", metadata: { type: "preference" } },
      { id: "x3", text: "User prefers Vim" },
    ]);
    const first = planDream(snapshot, policy);
    const second = planDream(snapshot, policy);
    const strip = (p: typeof first) => ({ ...p, stats: { ...p.stats, elapsedMs: 0 } });
    expect(strip(first)).toEqual(strip(second));
    expect(Object.isFrozen(first.actions[0])).toBe(true);
    expect(Object.isFrozen(first.stats.deletes)).toBe(true);
    expect(Object.keys(first.seen)).toEqual(["x1", "x2"]);
    expect(first.seen.x2).toMatchObject({ type: "preference", category: "preference", pinned: false });
    expect(first.stats).toMatchObject({ reviewed: 3, rewrites: 1, deletes: { noise: 1 } });
    expect(first.policy).toBe(policy);
  });

  it("runs every default analyser", () => {
    expect(DEFAULT_ANALYSERS.length).toBeGreaterThanOrEqual(5);
  });
});
