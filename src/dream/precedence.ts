/**
 * Which action wins when analysers propose several for one memory. A memory appears in at most
 * one action of a plan; the highest-precedence proposal keeps it:
 *
 *   credential (delete or redact) > expired > noise > low_confidence > conflict > merge > rewrite
 *
 * Removing a secret matters most; a memory that is going away anyway (expired, noise, vague)
 * needs no conflict, merge or rewrite; a conflict comes before a merge, so a memory that
 * contradicts another is never merged away with a look-alike (the merge that would take it is
 * dropped whole) and the contradiction reaches the user; a merge settles a memory's text, so a
 * rewrite of the same memory waits for the next dream. See docs/dream-plan.md.
 *
 * @module
 */

import type { DreamAction } from "./plan.js";

export const PRECEDENCE = [
  "credential",
  "expired",
  "noise",
  "low_confidence",
  // A possible injection a person accepted: a delete like the others before it.
  "injection",
  "conflict",
  "merge",
  "rewrite",
] as const;

export type PrecedenceClass = (typeof PRECEDENCE)[number];

/**
 * The precedence class of an action.
 *
 * @example
 * precedenceClass({ kind: "delete", reason: "noise", … }); // => "noise"
 * precedenceClass({ kind: "rewrite", reasons: ["credential_redacted"], … }); // => "credential"
 */
export function precedenceClass(action: DreamAction): PrecedenceClass {
  switch (action.kind) {
    case "delete":
      return action.reason;
    case "rewrite":
      return action.reasons.includes("credential_redacted") ? "credential" : "rewrite";
    default:
      return action.kind;
  }
}

/** Lower is stronger. */
export function precedenceRank(action: DreamAction): number {
  return PRECEDENCE.indexOf(precedenceClass(action));
}
