/**
 * The interactive dream of Mem0's `mem0-dream` skill: after the report, one question per conflict
 * (`A`, `B` or `skip`, case-insensitive, empty = skip), then `Apply? [Y/n]`.
 *
 * @module
 */

import { type ApplyDecisions, type ConflictChoice, conflictKey } from "../../dream/apply/decisions.js";
import type { DreamPlan } from "../../dream/plan.js";
import type { Prompter } from "./prompter.js";

export const CANCELLED = "Cancelled. No changes made.";

/** Asks about each conflict, then whether to apply; null when the answer is no. */
export async function askDecisions(plan: DreamPlan, prompter: Prompter): Promise<ApplyDecisions | null> {
  const conflicts: Record<string, ConflictChoice> = {};
  for (const action of plan.actions) {
    if (action.kind !== "conflict") continue;
    const question = `[mem0:${action.ids[0]}] vs [mem0:${action.ids[1]}] — "${action.topic}" [A/B/skip] `;
    conflicts[conflictKey(action)] = await askChoice(prompter, question);
  }
  return (await askYes(prompter, "Apply? [Y/n] ")) ? { conflicts } : null;
}

async function askChoice(prompter: Prompter, question: string): Promise<ConflictChoice> {
  for (;;) {
    const answer = (await prompter.ask(question)).toLowerCase();
    if (answer === "" || answer === "skip" || answer === "s") return "skip";
    if (answer === "a") return "A";
    if (answer === "b") return "B";
  }
}

async function askYes(prompter: Prompter, question: string): Promise<boolean> {
  for (;;) {
    const answer = (await prompter.ask(question)).toLowerCase();
    if (answer === "" || answer === "y" || answer === "yes") return true;
    if (answer === "n" || answer === "no") return false;
  }
}
