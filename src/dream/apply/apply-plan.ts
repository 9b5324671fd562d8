/**
 * Applying a dream plan: one store transaction, in the order merges → resolved conflicts →
 * deletions → rewrites, with a run record holding the preimage of every touched memory so that
 * `undoRun` can put everything back. An action whose memories changed after the plan was made is
 * skipped and reported, never applied to text the plan did not see.
 *
 * @module
 */

import { randomBytes } from "node:crypto";
import { LucidError } from "../../errors.js";
import { scopeFilter } from "../../filters/scope-of-filters.js";
import type { MemoryContext } from "../../memory/context.js";
import { embedTexts } from "../../memory/embed-texts.js";
import { sessionScopeKey } from "../../memory/scope.js";
import type { MemoryStoreOps } from "../../store/store.js";
import { extractEntities } from "../../text/entities.js";
import { contentHash } from "../../text/normalise.js";
import { type DreamAction, type DreamPlan, type MergeAction, PLAN_VERSION } from "../plan.js";
import { type ApplyDecisions, type ApplyMode, type ConflictChoice, conflictKey } from "./decisions.js";
import { reminderText, upsertReminder } from "./reminder.js";
import { RunLog } from "./run-log.js";

export interface ApplyOptions {
  readonly mode?: ApplyMode;
  /** Keep one reminder memory when conflicts were left unresolved (what `--auto` does). */
  readonly remindOfConflicts?: boolean;
}

export type ActionStatus = "applied" | "skipped" | "stale";

export interface ActionOutcome {
  readonly index: number;
  readonly kind: DreamAction["kind"];
  readonly ids: readonly string[];
  readonly status: ActionStatus;
  /** Why it was skipped or found stale. */
  readonly note?: string;
}

export interface ApplyCounts {
  readonly merged: number;
  readonly pruned: number;
  readonly conflictsResolved: number;
  readonly conflictsSkipped: number;
  readonly rewritten: number;
  /** Actions not applied: stale ones, and kinds or conflicts left out by the decisions. */
  readonly skipped: number;
  readonly stale: number;
  /** Memories in the scope after the run. */
  readonly finalCount: number;
}

export interface ApplyResult {
  readonly runId: string;
  readonly actions: readonly ActionOutcome[];
  readonly counts: ApplyCounts;
}

const ORDER: readonly DreamAction["kind"][] = ["merge", "conflict", "delete", "rewrite"];

export async function applyPlan(
  context: MemoryContext,
  plan: DreamPlan,
  decisions: ApplyDecisions = {},
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  checkPlan(plan);
  const include = new Set(decisions.include ?? ORDER);
  const indexed = plan.actions.map((action, index) => ({ action, index }));
  const ordered = ORDER.flatMap((kind) => indexed.filter(({ action }) => action.kind === kind));
  const choice = (action: DreamAction): ConflictChoice =>
    action.kind === "conflict" ? (decisions.conflicts?.[conflictKey(action)] ?? "skip") : "skip";
  const wanted = (action: DreamAction) =>
    include.has(action.kind) && (action.kind !== "conflict" || choice(action) !== "skip");

  const unresolved = plan.actions.filter((action) => action.kind === "conflict" && !wanted(action)).length;
  const remind = options.remindOfConflicts === true && unresolved > 0;
  const texts = ordered.flatMap(({ action }) =>
    wanted(action) && (action.kind === "merge" || action.kind === "rewrite") ? [action.text] : [],
  );
  const vectors = await embedTexts(context, remind ? [...texts, reminderText(unresolved)] : texts, "update");
  const vectorOf = new Map(texts.map((text, position) => [text, vectors[position] as Float32Array]));
  const runId = newRunId(context.clock.now());
  const actor = `dream:${runId}`;
  const startedAt = context.clock.now().toISOString();
  const scopeKey = sessionScopeKey(plan.scope);

  return context.store.transaction(async (tx) => {
    const log = new RunLog(tx);
    const writer = new ActionWriter(tx, log, actor, startedAt, vectorOf);
    const outcomes: ActionOutcome[] = [];
    for (const { action, index } of ordered) {
      const base = { index, kind: action.kind, ids: action.ids };
      if (!wanted(action)) {
        outcomes.push({
          ...base,
          status: "skipped",
          note: action.kind === "conflict" ? "unresolved" : "not selected",
        });
        continue;
      }
      const stale = await staleIds(tx, plan, action.ids);
      if (stale.length > 0) {
        outcomes.push({ ...base, status: "stale", note: `changed since the plan: ${stale.join(", ")}` });
        continue;
      }
      await writer.apply(action, choice(action));
      outcomes.push({ ...base, status: "applied" });
    }
    if (remind) {
      await upsertReminder({
        tx,
        log,
        scope: plan.scope,
        unresolved,
        now: startedAt,
        actor,
        embedding: vectors.at(-1) as Float32Array,
      });
    }
    const counts = await countOutcomes(tx, plan, outcomes);
    const committedAt = context.clock.now().toISOString();
    await tx.insertDreamRun(
      {
        id: runId,
        scopeKey,
        scope: plan.scope,
        mode: options.mode ?? "sdk",
        plan,
        decisions,
        outcome: { actions: outcomes, counts },
        startedAt,
        committedAt,
        undoneAt: null,
      },
      await log.finish(),
    );
    await tx.recordDreamCompletion(scopeKey, committedAt);
    outcomes.sort((a, b) => a.index - b.index);
    return { runId, actions: outcomes, counts };
  });
}

/** Writes one action's changes, recording each memory's preimage before its first change. */
class ActionWriter {
  constructor(
    private readonly tx: MemoryStoreOps,
    private readonly log: RunLog,
    private readonly actor: string,
    private readonly now: string,
    private readonly vectors: ReadonlyMap<string, Float32Array>,
  ) {}

  async apply(action: DreamAction, choice: ConflictChoice): Promise<void> {
    switch (action.kind) {
      case "merge":
        return this.merge(action);
      case "conflict":
        return this.remove(choice === "A" ? action.ids[1] : action.ids[0]);
      case "delete":
        return this.remove(action.ids[0]);
      case "rewrite":
        return this.rewrite(action.ids[0], action.text, {});
    }
  }

  private async merge(action: MergeAction): Promise<void> {
    const rows = await this.tx.getMemories(action.ids);
    const keep = rows.find((row) => row.id === action.keep);
    if (keep === undefined)
      throw new LucidError("INVALID_PLAN", `Merge keeps ${action.keep}, which is not in its group.`);
    const others = action.ids.filter((id) => id !== action.keep);
    const confidences = rows
      .map((row) => row.metadata.confidence)
      .filter((value) => typeof value === "number");
    const previous = Array.isArray(keep.metadata.lineage) ? keep.metadata.lineage.map(String) : [];
    await this.rewrite(action.keep, action.text, {
      lineage: [...new Set([...previous, ...others])],
      source: "dream",
      ...(confidences.length > 0 ? { confidence: Math.max(...(confidences as number[])) } : {}),
    });
    for (const id of others) await this.remove(id);
  }

  private async rewrite(id: string, text: string, metadataChanges: Record<string, unknown>): Promise<void> {
    const row = await this.tx.getMemory(id);
    if (row === null) return;
    // A `too_long` flag keeps the text as it is: nothing to write, and no history row.
    if (text === row.text && Object.keys(metadataChanges).length === 0) return;
    await this.log.touch(id);
    await this.tx.updateMemory(id, {
      text,
      hash: contentHash(text),
      category: row.category,
      metadata: { ...row.metadata, ...metadataChanges },
      updatedAt: this.now,
      expiresAt: row.expiresAt,
      ...(text === row.text ? {} : { embedding: this.vectors.get(text), entities: extractEntities(text) }),
    });
    await this.tx.addHistory({
      memoryId: id,
      action: "UPDATE",
      previousValue: row.text,
      newValue: text,
      actor: this.actor,
      createdAt: this.now,
    });
  }

  private async remove(id: string): Promise<void> {
    await this.log.touch(id);
    const row = await this.tx.getMemory(id);
    if (row === null) return;
    await this.tx.deleteMemory(id);
    await this.tx.addHistory({
      memoryId: id,
      action: "DELETE",
      previousValue: row.text,
      newValue: null,
      actor: this.actor,
      createdAt: this.now,
    });
  }
}

/** Ids whose memory is gone or differs from what the plan saw. */
async function staleIds(tx: MemoryStoreOps, plan: DreamPlan, ids: readonly string[]): Promise<string[]> {
  const rows = new Map((await tx.getMemories(ids)).map((row) => [row.id, row]));
  return ids.filter((id) => {
    const seen = plan.seen[id];
    const row = rows.get(id);
    return (
      seen === undefined || row === undefined || row.hash !== seen.hash || row.updatedAt !== seen.updatedAt
    );
  });
}

async function countOutcomes(
  tx: MemoryStoreOps,
  plan: DreamPlan,
  outcomes: readonly ActionOutcome[],
): Promise<ApplyCounts> {
  const applied = (kind: DreamAction["kind"]) =>
    outcomes.filter((outcome) => outcome.kind === kind && outcome.status === "applied").length;
  const conflictsResolved = applied("conflict");
  const { total } = await tx.listMemories({ filter: scopeFilter(plan.scope), limit: 1, offset: 0 });
  return {
    merged: applied("merge"),
    pruned: applied("delete"),
    conflictsResolved,
    conflictsSkipped: outcomes.filter((outcome) => outcome.kind === "conflict").length - conflictsResolved,
    rewritten: applied("rewrite"),
    skipped: outcomes.filter((outcome) => outcome.status !== "applied").length,
    stale: outcomes.filter((outcome) => outcome.status === "stale").length,
    finalCount: total,
  };
}

function checkPlan(plan: DreamPlan): void {
  if (
    typeof plan !== "object" ||
    plan === null ||
    plan.version !== PLAN_VERSION ||
    !Array.isArray(plan.actions)
  ) {
    throw new LucidError(
      "INVALID_PLAN",
      `This is not a version ${PLAN_VERSION} dream plan. Make a new one with dream.plan() (lucid dream --dry-run --json).`,
    );
  }
  if (typeof plan.seen !== "object" || plan.seen === null || Object.keys(plan.scope ?? {}).length === 0) {
    throw new LucidError(
      "INVALID_PLAN",
      "The plan lacks its scope or what it saw of its memories. Make a new plan.",
    );
  }
}

/** Sortable and readable: `dream-20261130T091500-3fa2`. */
function newRunId(now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "");
  return `dream-${stamp}-${randomBytes(2).toString("hex")}`;
}
