/**
 * The interactive dream of Mem0's `mem0-dream` skill: after the report, one question per conflict
 * (`A`, `B` or `skip`, case-insensitive, empty = skip), then `Apply? [Y/n]`. An answer it does not
 * understand is met with the choices and the question again; end of input (Ctrl-D) or Ctrl-C at
 * any question cancels the whole run, and nothing is applied.
 *
 * @module
 */

import { type ApplyDecisions, type ConflictChoice, conflictKey } from "../../dream/apply/decisions.js";
import type { DreamPlan } from "../../dream/plan.js";
import type { Prompter } from "./prompter.js";

export const CANCELLED = "Cancelled. No changes made.";

/** Asks about each conflict, then whether to apply; null when the answer is no, or input ended. */
export async function askDecisions(plan: DreamPlan, prompter: Prompter): Promise<ApplyDecisions | null> {
  const conflicts: Record<string, ConflictChoice> = {};
  for (const action of plan.actions) {
    if (action.kind !== "conflict") continue;
    const question = `[mem0:${action.ids[0]}] vs [mem0:${action.ids[1]}] — "${action.topic}" [A/B/skip] `;
    const choice = await askChoice(prompter, question);
    if (choice === null) return null;
    conflicts[conflictKey(action)] = choice;
  }
  return (await askYes(prompter, "Apply? [Y/n] ")) === true ? { conflicts } : null;
}

async function askChoice(prompter: Prompter, question: string): Promise<ConflictChoice | null> {
  for (;;) {
    const raw = await prompter.ask(question);
    if (raw === null) return null;
    const answer = raw.toLowerCase();
    if (answer === "" || answer === "skip" || answer === "s") return "skip";
    if (answer === "a") return "A";
    if (answer === "b") return "B";
    prompter.say(
      `Answer A to keep the first, B to keep the second, or skip (or Enter) to leave both; Ctrl-D cancels.`,
    );
  }
}

async function askYes(prompter: Prompter, question: string): Promise<boolean | null> {
  for (;;) {
    const raw = await prompter.ask(question);
    if (raw === null) return null;
    const answer = raw.toLowerCase();
    if (answer === "" || answer === "y" || answer === "yes") return true;
    if (answer === "n" || answer === "no") return false;
    prompter.say("Answer y (or Enter) to apply, or n to cancel.");
  }
}
