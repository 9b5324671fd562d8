/**
 * The deterministic text rewrites of a dream, shared by the rewrites analyser and by credential
 * redaction (a redacted memory gets the same clean-up in the same action): first person to third,
 * an "As of YYYY-MM-DD" anchor for categories that need one, and a flag for over-long text.
 *
 * For `too_long` nothing is cut: shortening a fact without understanding it loses meaning. Only a
 * few wordy phrases with exact short equivalents are replaced; if the text is still too long the
 * rewrite carries the flag, and a later step (a person, or an LLM where one is configured) can
 * compress it. A rewrite whose only reason is `too_long` may therefore keep the text as it is.
 *
 * @module
 */

import type { Policy } from "../../policy/policy.js";
import { toThirdPerson } from "../../text/person.js";
import { hasTimeAnchor, withTimeAnchor } from "../../text/time-anchor.js";
import { categoryOf, isoDate } from "../memory-facts.js";
import type { RewriteReason } from "../plan.js";
import type { SnapshotMemory } from "../snapshot.js";

export interface ImprovedText {
  readonly text: string;
  readonly reasons: readonly RewriteReason[];
  /** What changed, for `why.evidence`. */
  readonly evidence: Readonly<Record<string, string | number | readonly string[]>>;
}

/** Exact equivalents only: each replacement keeps the meaning word for word. */
const WORDY: readonly (readonly [RegExp, string])[] = [
  [/\bin order to\b/giu, "to"],
  [/\bdue to the fact that\b/giu, "because"],
  [/\bat this point in time\b/giu, "now"],
  [/\bat the present time\b/giu, "now"],
  [/\bin the event that\b/giu, "if"],
  [/\bfor the purpose of\b/giu, "for"],
  [/\bhas the ability to\b/giu, "can"],
  [/\bis able to\b/giu, "can"],
  [/\ba large number of\b/giu, "many"],
  [/\bprior to\b/giu, "before"],
  [/[ \t]{2,}/gu, " "],
];

/** Roles whose "I" is not the user: their first person is left alone. */
const NOT_THE_USER = new Set(["assistant", "agent", "system", "tool"]);

/**
 * @example
 * improveText(memory, "I moved billing-api to Fly.io", policy);
 * // => { text: "As of 2026-03-01, the user moved billing-api to Fly.io", reasons: ["first_person", "missing_anchor"], … }
 */
export function improveText(memory: SnapshotMemory, text: string, policy: Policy): ImprovedText {
  const reasons: RewriteReason[] = [];
  const evidence: Record<string, string | number | readonly string[]> = {};
  let next = text;
  const role = memory.metadata.role ?? memory.metadata.speaker;
  if (!(typeof role === "string" && NOT_THE_USER.has(role.toLowerCase()))) {
    const person = toThirdPerson(next);
    if (person.replaced.length > 0) {
      reasons.push("first_person");
      evidence.firstPerson = [...new Set(person.replaced)];
      next = person.text;
    }
  }
  const category = categoryOf(memory, policy);
  if (category !== null && policy.anchorCategories.includes(category) && !hasTimeAnchor(next)) {
    const date = isoDate(memory.createdAt);
    reasons.push("missing_anchor");
    evidence.anchor = date;
    next = withTimeAnchor(next, date);
  }
  if (next.length > policy.maxLength) {
    for (const [pattern, replacement] of WORDY) next = next.replace(pattern, replacement);
    if (next.length > policy.maxLength) {
      reasons.push("too_long");
      evidence.length = next.length;
      evidence.maxLength = policy.maxLength;
    }
  }
  return { text: next, reasons, evidence };
}
