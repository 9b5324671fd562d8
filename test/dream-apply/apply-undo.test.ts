import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MemoryContext } from "../../src/core/context.js";
import { applyPlan } from "../../src/dream/apply/apply-plan.js";
import { AUTO_DECISIONS, conflictKey } from "../../src/dream/apply/decisions.js";
import { REMINDER_SOURCE } from "../../src/dream/apply/reminder.js";
import { undoRun } from "../../src/dream/apply/undo-run.js";
import type { ConflictAction, DreamAction, DreamPlan } from "../../src/dream/plan.js";
import { type ExportRecord, type Memory, openMemory } from "../../src/index.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("dream-apply");
const embedder = scriptedEmbedder(3, (text) => [1, text.length % 5, text.includes("a") ? 1 : 0]);
const clock = { current: new Date("2026-06-01T00:00:00Z"), now: () => clock.current };

let memory: Memory;
let context: MemoryContext;
const ids: Record<string, string> = {};

async function add(key: string, text: string, metadata: Record<string, unknown> = {}): Promise<void> {
  const { results } = await memory.add(text, { userId: "alice", metadata });
  ids[key] = results[0]?.id ?? "";
}

async function exportAll(): Promise<string> {
  const lines: ExportRecord[] = [];
  for await (const record of memory.exportMemories()) lines.push(record);
  return lines.map((line) => JSON.stringify(line)).join("\n");
}

/** A plan over the current store, seeing every memory as it is now. */
async function planOf(actions: DreamAction[]): Promise<DreamPlan> {
  const seen: Record<string, { hash: string; updatedAt: string }> = {};
  for (const id of actions.flatMap((action) => action.ids)) {
    const item = await memory.get(id);
    if (item !== null) seen[id] = { hash: item.hash, updatedAt: item.updatedAt };
  }
  return {
    version: 1,
    scope: { user_id: "alice" },
    now: clock.current.toISOString(),
    policy: {},
    reviewed: 6,
    actions,
    review: [],
    seen,
    stats: {
      reviewed: 6,
      deletes: { credential: 0, noise: 0, expired: 0, low_confidence: 0, injection: 0 },
      merges: 0,
      merged: 0,
      conflicts: 0,
      rewrites: 0,
      pinnedSkipped: 0,
      elapsedMs: 0,
    },
  };
}

const why = { rule: "test", detail: "hand-made plan" };

beforeEach(async () => {
  memory = await openMemory({ path: files.path(), embedder, clock });
  context = await memory.ready();
  await add("dupA", "User prefers dark mode", { confidence: 0.6 });
  await add("dupB", "User likes the dark theme", { confidence: 0.9 });
  await add("noise", "ok thanks");
  await add("vim", "User prefers Vim");
  await add("code", "User prefers VS Code");
  await add("first", "I prefer tabs");
});
afterEach(async () => {
  await memory.close();
});

function actions(): { merge: DreamAction; del: DreamAction; conflict: ConflictAction; rewrite: DreamAction } {
  return {
    merge: {
      kind: "merge",
      ids: [ids.dupB ?? "", ids.dupA ?? ""],
      keep: ids.dupB ?? "",
      text: "User prefers the dark theme",
      why,
    },
    del: { kind: "delete", ids: [ids.noise ?? ""], reason: "noise", why },
    conflict: {
      kind: "conflict",
      ids: [ids.vim ?? "", ids.code ?? ""],
      topic: "preferred editor",
      suggested: ids.code ?? "",
      why,
    },
    rewrite: {
      kind: "rewrite",
      ids: [ids.first ?? ""],
      text: "User prefers tabs",
      reasons: ["first_person"],
      why,
    },
  };
}

describe("applying a plan", () => {
  it("merges, resolves, deletes and rewrites in one run that undo reverts exactly", async () => {
    const before = await exportAll();
    const { merge, del, conflict, rewrite } = actions();
    const plan = await planOf([rewrite, del, conflict, merge]);
    const result = await applyPlan(
      context,
      plan,
      { conflicts: { [conflictKey(conflict)]: "B" } },
      { mode: "yes" },
    );
    expect(result.counts).toMatchObject({
      merged: 1,
      pruned: 1,
      conflictsResolved: 1,
      rewritten: 1,
      skipped: 0,
      finalCount: 3,
    });
    expect(result.actions.map((action) => action.status)).toEqual([
      "applied",
      "applied",
      "applied",
      "applied",
    ]);

    const kept = await memory.get(ids.dupB ?? "");
    expect(kept).toMatchObject({
      memory: "User prefers the dark theme",
      metadata: { lineage: [ids.dupA], confidence: 0.9, source: "dream" },
    });
    expect(await memory.get(ids.dupA ?? "")).toBeNull();
    expect(await memory.get(ids.vim ?? "")).toBeNull();
    expect(await memory.get(ids.code ?? "")).not.toBeNull();
    expect((await memory.get(ids.first ?? ""))?.memory).toBe("User prefers tabs");
    const history = await memory.history(ids.dupB ?? "");
    expect(history.at(-1)).toMatchObject({
      action: "UPDATE",
      previous_value: "User likes the dark theme",
      actor: `dream:${result.runId}`,
    });

    const found = await memory.search("dark theme", {
      filters: { user_id: "alice" },
      mode: "keyword",
      threshold: 0,
    });
    expect(found.results.map((item) => item.id)).toEqual([ids.dupB]);

    const undone = await undoRun(context, result.runId ?? "");
    expect(undone).toEqual({
      runId: result.runId,
      restored: 5,
      removed: 0,
      keptDuplicates: [],
      keptOtherScope: [],
    });
    expect(await exportAll()).toBe(before);
    const again = await memory.search("mode", {
      filters: { user_id: "alice" },
      mode: "keyword",
      threshold: 0,
    });
    expect(again.results.map((item) => item.id)).toEqual([ids.dupA]);
    await expect(undoRun(context, result.runId ?? "")).rejects.toMatchObject({ code: "ALREADY_UNDONE" });
  });

  it("skips actions on memories that changed after the plan was made", async () => {
    const { del, rewrite } = actions();
    const plan = await planOf([del, rewrite]);
    await memory.update(ids.first ?? "", "I prefer tabs, width 2");
    const result = await applyPlan(context, plan);
    expect(result.actions.map((action) => [action.kind, action.status])).toEqual([
      ["delete", "applied"],
      ["rewrite", "stale"],
    ]);
    expect((await memory.get(ids.first ?? ""))?.memory).toBe("I prefer tabs, width 2");
    expect(result.counts).toMatchObject({ stale: 1, skipped: 1, pruned: 1 });
  });

  it("refuses to undo over later changes unless forced", async () => {
    const { rewrite } = actions();
    const result = await applyPlan(context, await planOf([rewrite]));
    await memory.update(ids.first ?? "", "User prefers tabs over spaces");
    await expect(undoRun(context, result.runId ?? "")).rejects.toMatchObject({
      code: "UNDO_CONFLICT",
      details: { changed: [ids.first] },
    });
    expect((await memory.get(ids.first ?? ""))?.memory).toBe("User prefers tabs over spaces");
    await undoRun(context, result.runId ?? "", { force: true });
    expect((await memory.get(ids.first ?? ""))?.memory).toBe("I prefer tabs");
  });

  it("in auto mode skips conflicts and keeps one reminder, updated and never duplicated", async () => {
    const { conflict, del } = actions();
    const first = await applyPlan(context, await planOf([conflict, del]), AUTO_DECISIONS, {
      mode: "auto",
      remindOfConflicts: true,
    });
    expect(first.counts).toMatchObject({ conflictsSkipped: 1, pruned: 1 });
    const reminders = async () =>
      (await memory.getAll({ filters: { user_id: "alice", source: REMINDER_SOURCE } })).results;
    expect(await reminders()).toHaveLength(1);
    expect((await reminders())[0]).toMatchObject({ metadata: { category: "task_learning", conflicts: 1 } });

    clock.current = new Date("2026-06-03T00:00:00Z");
    await applyPlan(context, await planOf([conflict]), AUTO_DECISIONS, {
      mode: "auto",
      remindOfConflicts: true,
    });
    const after = await reminders();
    expect(after).toHaveLength(1);
    expect(after[0]?.updatedAt).toBe("2026-06-03T00:00:00.000Z");

    // Undoing the second run restores the first run's reminder; undoing the first removes it.
    const runs = await context.store.listRuns({ kind: "dream", limit: 10 });
    await undoRun(context, runs[0]?.id ?? "");
    expect((await reminders())[0]?.updatedAt).toBe("2026-06-01T00:00:00.000Z");
    const firstUndo = await undoRun(context, first.runId ?? "");
    expect(firstUndo.removed).toBe(1);
    expect(await reminders()).toHaveLength(0);
    expect(await memory.get(ids.noise ?? "")).not.toBeNull();
    clock.current = new Date("2026-06-01T00:00:00Z");
  });

  it("refuses something that is not a plan", async () => {
    await expect(applyPlan(context, { version: 9 } as unknown as DreamPlan)).rejects.toMatchObject({
      code: "INVALID_PLAN",
    });
    await expect(undoRun(context, "dream-nope")).rejects.toMatchObject({ code: "RUN_NOT_FOUND" });
  });
});
