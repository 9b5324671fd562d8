/**
 * Possible injections: memories that read as an instruction to the agent — an imperative addressed
 * to the assistant about tools, credentials, links or other users, or overriding its instructions
 * (the injection judge, `injection/judge-injection.ts`). A dream never deletes one on its own: each
 * is a `possible-injection` review item whose proposal, a delete with reason `injection`, a person
 * accepts. `planDream` keeps such a memory out of merges and rewrites, so its words are never
 * spread into another memory.
 *
 * Pure: the verdict reads the text only. A pinned memory is a person's choice and is not flagged.
 *
 * @module
 */

import { cueWords, injectionEvidence, judgeInjection } from "../../injection/judge-injection.js";
import type { ReviewItem } from "../plan.js";
import type { DreamSnapshot } from "../snapshot.js";

/**
 * @example
 * injectionCandidates(snapshot);
 * // => [{ kind: "possible-injection", proposal: { kind: "delete", ids: ["m9"], reason: "injection", … }, why: … }]
 */
export function injectionCandidates(snapshot: DreamSnapshot): ReviewItem[] {
  const items: ReviewItem[] = [];
  for (const memory of snapshot.memories) {
    if (memory.pinned) continue;
    const verdict = judgeInjection(memory.text);
    if (!verdict.injection) continue;
    const cues = cueWords(verdict).slice(0, 4);
    const why = {
      rule: "injection-judge",
      detail: `reads as an instruction to the agent (score ${verdict.score.toFixed(2)}${cues.length === 0 ? "" : `: ${cues.map((cue) => JSON.stringify(cue)).join(", ")}`})`,
      evidence: injectionEvidence(verdict),
    };
    items.push({
      kind: "possible-injection",
      proposal: { kind: "delete", ids: [memory.id], reason: "injection", why },
      why,
    });
  }
  return items;
}
