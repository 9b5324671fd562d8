/**
 * A note with every credential redacted before it is cut into snippets. Redacting snippet by
 * snippet misses what spans snippets: a PEM private key is one finding across its lines, and only
 * the snippet holding its `BEGIN` line matches, leaving the base64 lines after it whole. The whole
 * note is scanned instead, and each finding becomes `[REDACTED:<kind>]` followed by as many line
 * breaks as it covered, so every line keeps its number and `path#Lx-Ly` addresses stay true.
 *
 * @module
 */

import type { SecretScanner } from "../secrets/types.js";

/**
 * @example
 * redactNote("key:\n-----BEGIN PRIVATE KEY-----\nMIIE…\n-----END PRIVATE KEY-----\nnext", scanner);
 * // => "key:\n[REDACTED:private-key]\n\n\nnext"
 */
export function redactNote(text: string, scanner: SecretScanner): string {
  const findings = [...scanner.find(text)].sort((a, b) => a.start - b.start);
  if (findings.length === 0) return text;
  let result = "";
  let at = 0;
  for (const finding of findings) {
    if (finding.start < at) continue;
    const breaks = text.slice(finding.start, finding.end).match(/\r\n|\r|\n/gu) ?? [];
    result += `${text.slice(at, finding.start)}[REDACTED:${finding.kind}]${breaks.join("")}`;
    at = finding.end;
  }
  return result + text.slice(at);
}
