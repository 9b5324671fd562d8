/**
 * Which action wins when analysers propose several for one memory. A memory appears in at most
 * one action of a plan; the highest-precedence proposal keeps it:
 *
 *   credential (delete or redact) > expired > noise > low_confidence > merge > conflict > rewrite
 *
 * Removing a secret matters most; a memory that is going away anyway (expired, noise, vague)
 * needs no merge, conflict or rewrite; a merge settles a memory's text, so a rewrite of the same
 * memory waits for the next dream. See docs/dream-plan.md.
 *
 * @module
 */

import type { DreamAction } from "./plan.js";

export const PRECEDENCE = [
  "credential",
  "expired",
  "noise",
  "low_confidence",
  "merge",
  "conflict",
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
