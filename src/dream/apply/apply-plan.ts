/**
 * Applying a dream plan: one store transaction, in the order merges → resolved conflicts →
 * deletions → rewrites, with a run record holding the preimage of every touched memory so that
 * `undoRun` can put everything back. An action whose memories changed after the plan was made is
 * skipped and reported, never applied to text the plan did not see.
 *
 * The plan is parsed first (`parsePlan`), and its texts go through the one write path: a secret in
 * a merged or rewritten text is redacted by the policy, an over-long one refuses the plan.
 *
 * @module
 */

import type { MemoryContext } from "../../core/context.js";
import { embedTexts } from "../../core/embed-texts.js";
import { newRunId } from "../../core/run-id.js";
import { scopeKey } from "../../core/scope.js";
import { secretsGuardOf } from "../../core/secrets-guard.js";
import { createMemoryWriter, type MemoryWriter } from "../../core/write/memory-writer.js";
import { type PreparedText, prepareText } from "../../core/write/prepare-text.js";
import { isLucidError, LucidError } from "../../errors.js";
import { scopeFilter } from "../../filters/scope-of-filters.js";
import type { MemoryStoreOps } from "../../store/store.js";
import { parsePlan } from "../parse-plan.js";
import type { DreamAction, DreamPlan, MergeAction } from "../plan.js";
import { DREAM_RUN_KIND } from "../run-kind.js";
import { type ApplyDecisions, type ApplyMode, type ConflictChoice, conflictKey } from "./decisions.js";
import { refuseForeignIds } from "./refuse-foreign.js";
import { reminderText, upsertReminder } from "./reminder.js";
import { RunLog } from "./run-log.js";
import { SecretScrubber, type SecretsScrubbed } from "./secret-scrubber.js";

export interface ApplyOptions {
  readonly mode?: ApplyMode;
  /** Keep one reminder memory when conflicts were left unresolved (what `--auto` does). */
  readonly remindOfConflicts?: boolean;
  /**
   * Aborting it (Ctrl-C, SIGTERM) stops the apply between two actions: the transaction rolls back,
   * nothing is applied, and the lease is released (`INTERRUPTED`).
   */
  readonly signal?: AbortSignal;
  /**
   * A credential the run takes out of a memory is always scrubbed from the memory's history and its
   * scope's messages; the run's preimage keeps it, so undo is exact. With `purgeSecrets`, the
   * preimages (of this run and earlier ones) and recorded plans lose it too, and the file is
   * compacted: undo then restores those memories without the value.
   */
  readonly purgeSecrets?: boolean;
}

export type { SecretsScrubbed } from "./secret-scrubber.js";

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
  /** The run to undo; null when nothing was changed (every action stale or left out), so no run was recorded. */
  readonly runId: string | null;
  readonly actions: readonly ActionOutcome[];
  readonly counts: ApplyCounts;
  readonly secrets: SecretsScrubbed;
}

const ORDER: readonly DreamAction["kind"][] = ["merge", "conflict", "delete", "rewrite"];

/** `decisions.decline`, checked: whole indices of the plan's actions. */
function declinedIndices(decline: readonly number[] | undefined, actions: number): ReadonlySet<number> {
  if (decline === undefined) return new Set();
  if (
    !Array.isArray(decline) ||
    decline.some((index) => !Number.isInteger(index) || index < 0 || index >= actions)
  ) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `decline lists actions by their index in the plan, from 0 to ${actions - 1}; got ${JSON.stringify(decline)}.`,
      { details: { field: "decline" } },
    );
  }
  return new Set(decline);
}

/** Actions applied between two turns of the event loop. */
const YIELD_EVERY = 64;

export async function applyPlan(
  context: MemoryContext,
  input: DreamPlan,
  decisions: ApplyDecisions = {},
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  const plan = parsePlan(input);
  throwIfInterrupted(options.signal);
  const include = new Set(decisions.include ?? ORDER);
  const declined = declinedIndices(decisions.decline, plan.actions.length);
  const indexed = plan.actions.map((action, index) => ({ action, index }));
  const ordered = ORDER.flatMap((kind) => indexed.filter(({ action }) => action.kind === kind));
  const choice = (action: DreamAction): ConflictChoice =>
    action.kind === "conflict" ? (decisions.conflicts?.[conflictKey(action)] ?? "skip") : "skip";
  const wanted = (action: DreamAction, index: number) =>
    include.has(action.kind) &&
    !declined.has(index) &&
    (action.kind !== "conflict" || choice(action) !== "skip");

  const unresolved = plan.actions.filter(
    (action, index) => action.kind === "conflict" && !wanted(action, index),
  ).length;
  const remind = options.remindOfConflicts === true && unresolved > 0;
  const texts = new Map<number, PreparedText>();
  for (const { action, index } of ordered) {
    if (wanted(action, index) && (action.kind === "merge" || action.kind === "rewrite")) {
      texts.set(index, planText(context, action, index));
    }
  }
  const reminder = remind ? prepareText(context, reminderText(unresolved)) : undefined;
  const toEmbed = [
    ...new Set([...texts.values(), ...(reminder === undefined ? [] : [reminder])].map((t) => t.text)),
  ];
  const vectors = await embedTexts(context, toEmbed, "update");
  const vectorOf = new Map(toEmbed.map((text, position) => [text, vectors[position] as Float32Array]));
  const runId = newRunId("dream", context.clock.now());
  const actor = `dream:${runId}`;
  const startedAt = context.clock.now().toISOString();
  const key = scopeKey(plan.scope);

  const purge = options.purgeSecrets === true;
  const result = await context.store.transaction(async (tx) => {
    await refuseForeignIds(tx, plan);
    const log = new RunLog(tx);
    const writer = createMemoryWriter(tx, { actor, at: startedAt, embedder: context.embedderStamp });
    const scrubber = new SecretScrubber(context, tx, log, purge);
    const apply = new ActionWriter(tx, writer, log, scrubber, (text) => vectorOf.get(text) as Float32Array);
    const outcomes: ActionOutcome[] = [];
    for (const [position, { action, index }] of ordered.entries()) {
      // The store's calls settle as microtasks: without a turn of the event loop now and then, a
      // signal (Ctrl-C) would not be seen until the whole transaction had run.
      if (position % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
      throwIfInterrupted(options.signal);
      const base = { index, kind: action.kind, ids: action.ids };
      if (!wanted(action, index)) {
        outcomes.push({
          ...base,
          status: "skipped",
          note: declined.has(index) ? "declined" : action.kind === "conflict" ? "unresolved" : "not selected",
        });
        continue;
      }
      const stale = await staleIds(tx, plan, action.ids);
      if (stale.length > 0) {
        outcomes.push({ ...base, status: "stale", note: `changed since the plan: ${stale.join(", ")}` });
        continue;
      }
      await apply.action(action, choice(action), texts.get(index));
      outcomes.push({ ...base, status: "applied" });
    }
    if (reminder !== undefined) {
      await upsertReminder({
        tx,
        writer,
        log,
        scope: plan.scope,
        unresolved,
        text: reminder,
        embedding: vectorOf.get(reminder.text) as Float32Array,
      });
    }
    await scrubber.finish(key);
    const counts = await countOutcomes(tx, plan, outcomes);
    const committedAt = context.clock.now().toISOString();
    const changes = await log.finish();
    throwIfInterrupted(options.signal);
    // A consolidation that changed nothing still counts for the gate, but leaves no run to undo.
    await tx.recordDreamCompletion(key, committedAt);
    outcomes.sort((a, b) => a.index - b.index);
    const secrets = scrubber.counts();
    if (changes.length === 0) return { runId: null, actions: outcomes, counts, secrets };
    await tx.insertRun(
      {
        id: runId,
        kind: DREAM_RUN_KIND,
        scopeKey: key,
        scope: plan.scope,
        mode: options.mode ?? "sdk",
        plan: recordedPlan(context, plan, texts),
        decisions,
        // The embedder of the preimages' vectors: undo after a re-embed embeds them again instead.
        outcome: { actions: outcomes, counts, embedder: context.embedderStamp, secrets },
        startedAt,
        committedAt,
        undoneAt: null,
      },
      changes,
    );
    return { runId, actions: outcomes, counts, secrets };
  });
  // Rewritten rows leave their old bytes in free pages and the log until the file is compacted.
  if (purge && result.secrets.memories > 0) {
    await context.store.compact();
  }
  return result;
}

/** A merge's or rewrite's text through the write path; a text the path refuses refuses the plan. */
function planText(
  context: MemoryContext,
  action: DreamAction & { text: string },
  index: number,
): PreparedText {
  try {
    return prepareText(context, action.text);
  } catch (error) {
    if (!isLucidError(error)) throw error;
    throw new LucidError(
      "INVALID_PLAN",
      `Action ${index} (${action.kind}) cannot be applied: ${error.message}`,
      {
        cause: error,
        details: { action: index, kind: action.kind, code: error.code },
      },
    );
  }
}

/**
 * The plan as the run ledger keeps it: each text as the write path made it, and every other string
 * an action carries screened by the secrets policy too, so a credential in a plan from outside is no
 * more stored in the run than in the memory.
 */
function recordedPlan(
  context: MemoryContext,
  plan: DreamPlan,
  texts: ReadonlyMap<number, PreparedText>,
): DreamPlan {
  const guard = secretsGuardOf(context);
  const screen = (text: string) => guard.screen(text).text;
  const actions = plan.actions.map((action, index): DreamAction => {
    const evidence = action.why.evidence;
    const why = {
      rule: screen(action.why.rule),
      detail: screen(action.why.detail),
      ...(evidence === undefined
        ? {}
        : {
            evidence: Object.fromEntries(
              Object.entries(evidence).map(([key, value]) => [
                key,
                typeof value === "string" ? screen(value) : Array.isArray(value) ? value.map(screen) : value,
              ]),
            ),
          }),
    };
    switch (action.kind) {
      case "merge":
      case "rewrite":
        return { ...action, text: texts.get(index)?.text ?? screen(action.text), why };
      case "conflict":
        return { ...action, topic: screen(action.topic), why };
      default:
        return { ...action, why };
    }
  });
  return { ...plan, actions };
}

/** Writes one action's changes, recording each memory's preimage before its first change. */
class ActionWriter {
  constructor(
    private readonly tx: MemoryStoreOps,
    private readonly writer: MemoryWriter,
    private readonly log: RunLog,
    private readonly secrets: SecretScrubber,
    private readonly vectorOf: (text: string) => Float32Array,
  ) {}

  async action(action: DreamAction, choice: ConflictChoice, text: PreparedText | undefined): Promise<void> {
    switch (action.kind) {
      case "merge":
        return this.merge(action, text as PreparedText);
      case "conflict":
        return this.remove(choice === "A" ? action.ids[1] : action.ids[0]);
      case "delete":
        return this.remove(action.ids[0]);
      case "rewrite":
        return this.rewrite(action.ids[0], text as PreparedText, {});
    }
  }

  private async merge(action: MergeAction, text: PreparedText): Promise<void> {
    const rows = await this.tx.getMemories(action.ids);
    const keep = rows.find((row) => row.id === action.keep);
    if (keep === undefined)
      throw new LucidError("INVALID_PLAN", `Merge keeps ${action.keep}, which is not in its group.`);
    const others = action.ids.filter((id) => id !== action.keep);
    const confidences = rows
      .map((row) => row.metadata.confidence)
      .filter((value) => typeof value === "number");
    const previous = Array.isArray(keep.metadata.lineage) ? keep.metadata.lineage.map(String) : [];
    await this.rewrite(action.keep, text, {
      lineage: [...new Set([...previous, ...others])],
      source: "dream",
      ...(confidences.length > 0 ? { confidence: Math.max(...(confidences as number[])) } : {}),
    });
    for (const id of others) await this.remove(id);
  }

  private async rewrite(
    id: string,
    text: PreparedText,
    metadataChanges: Record<string, unknown>,
  ): Promise<void> {
    const row = await this.tx.getMemory(id);
    if (row === null) return;
    // A `too_long` flag keeps the text as it is: nothing to write, and no history row.
    if (text.text === row.text && Object.keys(metadataChanges).length === 0) return;
    await this.log.touch(id);
    await this.writer.update(id, {
      text: { prepared: text, embedding: this.vectorOf(text.text) },
      metadata: { ...row.metadata, ...metadataChanges },
    });
    await this.secrets.removed(row, text.text);
  }

  private async remove(id: string): Promise<void> {
    await this.log.touch(id);
    const removed = await this.writer.remove(id);
    if (removed !== null) await this.secrets.removed(removed, null);
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

/** `INTERRUPTED` once the signal has fired; thrown inside the transaction, it rolls everything back. */
function throwIfInterrupted(signal: AbortSignal | undefined): void {
  if (signal?.aborted !== true) return;
  const name = typeof signal.reason === "string" ? signal.reason : "a signal";
  throw new LucidError(
    "INTERRUPTED",
    `Interrupted by ${name}: nothing was applied, and the scope's lease is released.`,
    {
      details: { signal: name },
    },
  );
}
