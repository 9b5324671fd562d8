/**
 * The interactive dream of Mem0's `mem0-dream` skill: after the report, one question per conflict
 * (`A`, `B` or `skip`, case-insensitive, empty = skip), one per review item (a possible conflict is
 * asked like a conflict; a possible duplicate `Merge them? [y/N]`; a possible injection `Delete it?
 * [y/N]`), then `Apply? [Y/n]`. An answer it does not
 * understand is met with the choices and the question again; end of input (Ctrl-D) or Ctrl-C at
 * any question cancels the whole run, and nothing is applied.
 *
 * @module
 */

import { type ApplyDecisions, type ConflictChoice, conflictKey } from "../../dream/apply/decisions.js";
import type { ConflictAction, DreamAction, DreamPlan } from "../../dream/plan.js";
import type { Prompter } from "./prompter.js";

export const CANCELLED = "Cancelled. No changes made.";

export interface Answers {
  readonly decisions: ApplyDecisions;
  /** The review items accepted, by their index in `plan.review`: their proposals join the plan. */
  readonly accepted: readonly number[];
}

/** Asks about each conflict and review item, then whether to apply; null when the answer is no, or input ended. */
export async function askDecisions(plan: DreamPlan, prompter: Prompter): Promise<Answers | null> {
  const conflicts: Record<string, ConflictChoice> = {};
  const ask = async (action: ConflictAction, label: string): Promise<ConflictChoice | null> => {
    const question = `[mem0:${action.ids[0]}] vs [mem0:${action.ids[1]}] — ${label}"${action.topic}" [A/B/skip] `;
    const choice = await askChoice(prompter, question);
    if (choice !== null) conflicts[conflictKey(action)] = choice;
    return choice;
  };
  for (const action of plan.actions) {
    if (action.kind === "conflict" && (await ask(action, "")) === null) return null;
  }
  const accepted: number[] = [];
  for (const [index, item] of plan.review.entries()) {
    const { proposal } = item;
    const answer =
      proposal.kind === "conflict"
        ? await ask(proposal, "possible conflict ").then((choice) =>
            choice === null ? null : choice !== "skip",
          )
        : proposal.kind === "merge"
          ? await askYesNo(prompter, `${refs(proposal)} — possible duplicate: merge them? [y/N] `, MERGE_HELP)
          : await askYesNo(
              prompter,
              `${refs(proposal)} — possible injection (${proposal.why.detail}): delete it? [y/N] `,
              INJECTION_HELP,
            );
    if (answer === null) return null;
    if (answer) accepted.push(index);
  }
  return (await askYes(prompter, "Apply? [Y/n] ")) === true ? { decisions: { conflicts }, accepted } : null;
}

const MERGE_HELP = "Answer y to merge them into one, or n (or Enter) to keep both; Ctrl-D cancels.";
const INJECTION_HELP = "Answer y to delete it (undoable), or n (or Enter) to keep it; Ctrl-D cancels.";

const refs = (action: DreamAction) => action.ids.map((id) => `[mem0:${id}]`).join(" ~ ");

async function askYesNo(prompter: Prompter, question: string, help: string): Promise<boolean | null> {
  for (;;) {
    const raw = await prompter.ask(question);
    if (raw === null) return null;
    const answer = raw.toLowerCase();
    if (answer === "" || answer === "n" || answer === "no" || answer === "skip") return false;
    if (answer === "y" || answer === "yes") return true;
    prompter.say(help);
  }
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
