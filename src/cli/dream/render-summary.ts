/**
 * The lines a dream run ends with: the mem0-dream skill's summary and the OpenClaw protocol's
 * "Consolidation complete." block (specs/mem0.md §B.1 step 6 and §A.4), filled from the plan and
 * what the apply did.
 *
 * @module
 */

import type { ApplyResult } from "../../dream/apply/apply-plan.js";
import type { DreamPlan } from "../../dream/plan.js";

export function renderDreamComplete(result: ApplyResult): string {
  const { merged, pruned, conflictsResolved, skipped } = result.counts;
  return `Dream complete — merged: ${merged}, pruned: ${pruned}, conflicts resolved: ${conflictsResolved}, skipped: ${skipped}`;
}

export function renderConsolidationBlock(plan: DreamPlan, result: ApplyResult): string {
  const applied = (predicate: (index: number) => boolean) =>
    result.actions.filter((outcome) => outcome.status === "applied" && predicate(outcome.index)).length;
  const action = (index: number) => plan.actions[index];
  const deletedFor = (reasons: readonly string[]) =>
    applied((index) => {
      const planned = action(index);
      return planned?.kind === "delete" && reasons.includes(planned.reason);
    });
  const mergedGroups = result.actions.filter(
    (outcome) => outcome.status === "applied" && outcome.kind === "merge",
  );
  return [
    "Consolidation complete.",
    `- Reviewed: ${plan.reviewed}`,
    `- Deleted (credentials/secrets): ${deletedFor(["credential"])}`,
    `- Deleted (expired/stale): ${deletedFor(["expired"])}`,
    // Noise and vague memories are not stale: they never stated a fact. Counted apart.
    `- Deleted (noise): ${deletedFor(["noise"])}`,
    `- Deleted (low confidence): ${deletedFor(["low_confidence"])}`,
    // Not in Mem0's block: a possible injection a person accepted.
    ...(deletedFor(["injection"]) > 0
      ? [`- Deleted (possible injection): ${deletedFor(["injection"])}`]
      : []),
    `- Merged: ${mergedGroups.length} groups into ${mergedGroups.length} memories`,
    `- Rewritten: ${result.counts.rewritten}`,
    `- Final count: ${result.counts.finalCount}`,
    `- Issues found: ${issues(plan, result)}`,
    ...secretsLine(result),
  ].join("\n");
}

/** Only when the run took credentials out (not in Mem0's block, which has no such step). */
function secretsLine(result: ApplyResult): string[] {
  const { memories, history, messages, purged } = result.secrets;
  if (memories === 0) return [];
  const undo = purged
    ? "purged from run preimages too: undo restores them without the values"
    : "the run's preimages keep them for undo; `lucid purge <id>` or --purge-secrets erases them";
  return [
    `- Credentials scrubbed: ${memories} memories, ${history} history rows, ${messages} messages (${undo})`,
  ];
}

function issues(plan: DreamPlan, result: ApplyResult): string {
  const notes: string[] = [];
  if (plan.review.length > 0)
    notes.push(
      `${plan.review.length} possible duplicate(s), conflict(s) or injection(s) wait for review (lucid dream on a terminal asks)`,
    );
  if (result.counts.conflictsSkipped > 0)
    notes.push(`${result.counts.conflictsSkipped} conflict(s) left for review`);
  if (result.counts.stale > 0)
    notes.push(`${result.counts.stale} action(s) skipped: memories changed since the plan`);
  return notes.length === 0 ? "none" : notes.join("; ");
}
