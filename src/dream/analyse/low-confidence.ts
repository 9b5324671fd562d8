/**
 * Low-confidence memories: `metadata.confidence` under the policy's bar (0.3, as Mem0's OpenCode
 * dream skill) and nothing specific in the text — no path, identifier, proper noun, number or
 * domain noun. A low-confidence memory that names something particular is kept: it may be the
 * only record of it.
 *
 * @module
 */

import { specificDetails } from "../../text/specificity.js";
import type { Analyser } from "../analyser.js";
import type { DeleteAction } from "../plan.js";

/**
 * @example
 * analyseLowConfidence(snapshot, policy);
 * // => [{ kind: "delete", ids: ["m4"], reason: "low_confidence", why: { rule: "low_confidence", detail: "confidence 0.2 < 0.3 and nothing specific", … } }]
 */
export const analyseLowConfidence: Analyser = (snapshot, policy) => {
  const actions: DeleteAction[] = [];
  for (const memory of snapshot.memories) {
    // Cheap gate first: entity extraction runs only for the few low-confidence memories.
    if (memory.confidence === null || memory.confidence >= policy.lowConfidence) continue;
    if (specificDetails(memory.text).length > 0) continue;
    actions.push({
      kind: "delete",
      ids: [memory.id],
      reason: "low_confidence",
      why: {
        rule: "low_confidence",
        detail: `confidence ${memory.confidence} < ${policy.lowConfidence} and nothing specific (no name, path, identifier, number or domain term)`,
        evidence: { confidence: memory.confidence, threshold: policy.lowConfidence },
      },
    });
  }
  return actions;
};
