/**
 * Rewrites: memories whose text should change but whose fact stays — first person turned into
 * third, a missing "As of YYYY-MM-DD" anchor on project and operational memories, and over-long
 * text flagged (see `improve-text.ts` for what each does and does not change).
 *
 * @module
 */

import type { Analyser } from "../analyser.js";
import type { RewriteAction } from "../plan.js";
import { improveText } from "./improve-text.js";

/**
 * @example
 * analyseRewrites(snapshot, policy);
 * // => [{ kind: "rewrite", ids: ["m2"], text: "User prefers tabs", reasons: ["first_person"], why: … }]
 */
export const analyseRewrites: Analyser = (snapshot, policy) => {
  const actions: RewriteAction[] = [];
  for (const memory of snapshot.memories) {
    const improved = improveText(memory, memory.text, policy);
    if (improved.reasons.length === 0) continue;
    actions.push({
      kind: "rewrite",
      ids: [memory.id],
      text: improved.text,
      reasons: improved.reasons,
      why: {
        rule: improved.reasons.join("+"),
        detail: describe(improved.reasons),
        evidence: improved.evidence,
      },
    });
  }
  return actions;
};

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  first_person: "written in the first person",
  missing_anchor: "no date says when it was true",
  too_long: "longer than the policy's maxLength",
  credential_redacted: "held a credential",
};

function describe(reasons: readonly string[]): string {
  return reasons.map((reason) => DESCRIPTIONS[reason] ?? reason).join("; ");
}
