/**
 * `lucid dream` modes: `--dry-run` (report only), interactive (on a terminal), `--yes` (apply
 * everything but conflicts), `--auto` and `--if-due` (automatic, behind the lease and the gate).
 *
 * @module
 */

import { type ScopeOptions, scopeFromOptions, scopeKey } from "../../core/scope.js";
import { acceptReview } from "../../dream/accept-review.js";
import type { ApplyResult } from "../../dream/apply/apply-plan.js";
import type { AutoResult } from "../../dream/apply/auto.js";
import type { DreamPlanOptions } from "../../dream/dream-api.js";
import { renderGateLine } from "../../dream/gate/gate.js";
import type { DreamPlan } from "../../dream/plan.js";
import { renderReport } from "../../dream/render-report.js";
import { shutdownSignal } from "../../edge/shutdown-signal.js";
import { isLucidError, LucidError } from "../../errors.js";
import type { Memory } from "../../sdk/memory.js";
import type { CommandOutput } from "../command.js";
import type { CliIo } from "../io.js";
import { plural } from "../output/format.js";
import type { Style } from "../output/style.js";
import { askDecisions, CANCELLED } from "./interactive.js";
import { createPrompter } from "./prompter.js";
import { renderConsolidationBlock, renderDreamComplete } from "./render-summary.js";

export interface DreamRun {
  readonly memory: Memory;
  readonly scope: ScopeOptions;
  readonly planOptions: DreamPlanOptions;
  readonly io: CliIo;
  readonly style: Style;
  readonly json: boolean;
  /** What may be printed of a plan (credentials masked unless `--reveal`); the plan applied is the one made. */
  readonly shown: <T>(value: T) => Promise<T>;
  /** `--purge-secrets`: preimages lose the credentials the run removes (undo gives them up). */
  readonly purgeSecrets: boolean;
}

/** Whether a person can answer questions: both ends are a terminal, and output is not JSON. */
export function interactive(run: DreamRun): boolean {
  return !run.json && run.io.stdin.isTTY === true && run.io.stdout.isTTY === true;
}

export async function dryRun(run: DreamRun, note: string): Promise<CommandOutput> {
  const plan = await run.shown(await run.memory.dream.plan(run.scope, run.planOptions));
  const report = await reportOf(run, plan);
  return {
    json: { ...plan },
    render() {
      run.io.stderr.write(`${run.style.dim(note)}\n`);
      return report;
    },
  };
}

/** The report, a question per conflict, `Apply? [Y/n]`, then the run and its summary. */
export async function interactiveRun(run: DreamRun): Promise<CommandOutput> {
  const plan = await run.memory.dream.plan(run.scope, run.planOptions);
  const shown = await run.shown(plan);
  run.io.stdout.write(`${await reportOf(run, shown)}\n`);
  if (plan.actions.length === 0 && plan.review.length === 0) return { json: { ...shown }, render: () => "" };
  const prompter = createPrompter(run.io);
  try {
    const answers = await askDecisions(shown, prompter);
    if (answers === null && prompter.interrupted) throw new LucidError("INTERRUPTED", CANCELLED);
    if (answers === null) return { json: { applied: false, plan: shown }, render: () => CANCELLED };
    const { decisions } = answers;
    const accepted = acceptReview(plan, answers.accepted);
    const result = await interruptible((signal) =>
      run.memory.dream.apply(accepted, decisions, {
        mode: "interactive",
        signal,
        purgeSecrets: run.purgeSecrets,
      }),
    );
    // Counts only: the plan applied (review items accepted included), not the masked one shown.
    return applied(accepted, result);
  } finally {
    prompter.close();
  }
}

/** `--yes`: apply everything the plan proposes except conflicts, which need a person. */
export async function yesRun(run: DreamRun): Promise<CommandOutput> {
  const plan = await run.memory.dream.plan(run.scope, run.planOptions);
  const shown = await run.shown(plan);
  if (plan.actions.length === 0)
    return { json: { applied: false, plan: shown }, render: () => renderReport(shown) };
  const result = await interruptible((signal) =>
    run.memory.dream.apply(plan, {}, { mode: "yes", signal, purgeSecrets: run.purgeSecrets }),
  );
  return applied(shown, result, `${await reportOf(run, shown)}\n`);
}

export async function autoRun(run: DreamRun): Promise<CommandOutput> {
  return leaseAware(run, async () =>
    autoOutput(
      await interruptible((signal) => run.memory.dream.auto(run.scope, { ...run.planOptions, signal })),
    ),
  );
}

/** Checks the gate; when it passes, runs `--auto`. */
export async function ifDueRun(run: DreamRun, options: { enabled: boolean }): Promise<CommandOutput> {
  return leaseAware(run, async () => {
    const due = await interruptible((signal) =>
      run.memory.dream.ifDue(run.scope, { ...options, plan: { ...run.planOptions, signal } }),
    );
    if (!due.ran || due.result === undefined) {
      const line = renderGateLine(due.gate);
      return { json: { ran: false, gate: due.gate }, render: () => line };
    }
    const output = autoOutput(due.result);
    return { json: { ran: true, gate: due.gate, ...output.json }, render: output.render };
  });
}

function autoOutput(result: AutoResult): CommandOutput {
  const { plan: _plan, line, ...rest } = result;
  return { json: { ...rest, line }, render: () => line };
}

function applied(plan: DreamPlan, result: ApplyResult, prefix = ""): CommandOutput {
  if (result.runId === null) {
    // Every action was stale (another dream, or another writer, got there first) or left out.
    const line = `Nothing applied: ${plural(result.counts.stale, "action was", "actions were")} stale — the memories changed since the plan (another dream ran?). Nothing to undo; run \`lucid dream\` again for a fresh plan.`;
    return { json: { applied: false, ...result }, render: () => `${prefix}${line}` };
  }
  return {
    json: { applied: true, ...result },
    render: () =>
      `${prefix}${renderDreamComplete(result)}\n\n${renderConsolidationBlock(plan, result)}\n\n` +
      `Run ${result.runId}. Undo it with: lucid dream undo ${result.runId}`,
  };
}

/**
 * While a dream holds its scope's lease, Ctrl-C or SIGTERM does not kill the process mid-write: the
 * apply stops at the next action, rolls back, releases the lease and exits 130 (`INTERRUPTED`).
 */
async function interruptible<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const { signal, dispose } = shutdownSignal();
  try {
    return await fn(signal);
  } finally {
    dispose();
  }
}

/** The loser of the lease exits cleanly, saying who holds it (as Mem0's auto dream does). */
async function leaseAware(run: DreamRun, fn: () => Promise<CommandOutput>): Promise<CommandOutput> {
  try {
    return await fn();
  } catch (error) {
    if (!isLucidError(error, "DREAM_LEASE_HELD")) throw error;
    const heldBy = error.details?.heldBy;
    const line = `[lucid dream --auto] ${error.message} Skipping.`;
    return {
      json: {
        ran: false,
        skipped: "lease_held",
        heldBy,
        scope: scopeKey(scopeFromOptions(run.scope)),
      },
      render: () => line,
    };
  }
}

/**
 * The report with each action's memories under it — their texts masked as every output is, and
 * cut to the terminal — so a person can judge each line where it stands.
 */
async function reportOf(run: DreamRun, plan: DreamPlan): Promise<string> {
  const ids = [
    ...new Set(
      [...plan.actions, ...plan.review.map((item) => item.proposal)].flatMap((action) => action.ids),
    ),
  ];
  const texts: Record<string, { text: string; createdAt: string }> = {};
  if (ids.length > 0) {
    // One read for all of them; expired memories included, since a plan prunes them.
    const { results } = await run.memory.getAll({
      ...run.scope,
      filters: { id: { in: ids } },
      pageSize: ids.length,
      showExpired: true,
    });
    for (const item of results) texts[item.id] = { text: item.memory, createdAt: item.createdAt };
  }
  const memories = new Map(Object.entries(await run.shown(texts)));
  const columns = run.io.stdout.isTTY === true ? run.io.stdout.columns : undefined;
  return renderReport(plan, { memories, ...(columns === undefined ? {} : { width: columns }) });
}
