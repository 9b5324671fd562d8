/**
 * Replacing found secrets in a text.
 *
 * @module
 */

import type { Finding } from "./types.js";

/**
 * `text` with each finding's span replaced by `[REDACTED:<kind>]` (or `[<label>:<kind>]`: output
 * masks say `MASKED`, since the stored text still holds the value). Findings must not overlap
 * (a scanner's `find` guarantees it); they may come in any order.
 *
 * @example
 * applyRedactions("pw hunter2!x", [{ kind: "password", ruleId: "x", start: 3, end: 12, labelStart: 0, confidence: "medium" }]);
 * // "pw [REDACTED:password]"
 */
export function applyRedactions(text: string, findings: readonly Finding[], label = "REDACTED"): string {
  if (findings.length === 0) return text;
  const ordered = [...findings].sort((a, b) => a.start - b.start);
  let result = "";
  let at = 0;
  for (const finding of ordered) {
    result += `${text.slice(at, finding.start)}[${label}:${finding.kind}]`;
    at = finding.end;
  }
  return result + text.slice(at);
}
