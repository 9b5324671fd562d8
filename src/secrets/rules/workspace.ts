/**
 * Work apps: Atlassian (Jira, Confluence, Bitbucket) API tokens and Notion integration tokens.
 *
 * @module
 */

import { crc32 } from "../checksums.js";
import type { Candidate, Confidence, SecretRule } from "../types.js";
import { pattern, prefixedRule } from "./shape.js";

/**
 * Atlassian tokens end in `=` and the CRC32 of everything before their last 8 characters, in
 * upper-case hex (checked against published scanner test tokens).
 */
function atlassianChecksum({ value }: Candidate): Confidence {
  const sum = crc32(value.slice(0, -8)).toString(16).toUpperCase().padStart(8, "0");
  return sum === value.slice(-8) ? "high" : "medium";
}

export const WORKSPACE_RULES: readonly SecretRule[] = [
  {
    id: "atlassian-api-token",
    kind: "atlassian-api-token",
    reason:
      "Atlassian API tokens (Jira, Confluence, Bitbucket; `ATATT3`) and organisation / access tokens (`ATCTT3`): the prefix, 100–300 base64url characters (lengths vary; 192 in all in tokens seen), `=`, then the CRC32 of everything before it as 8 upper-case hex digits, verified: `high` when it holds, `medium` when not.",
    confidence: "high",
    keywords: ["atatt3", "atctt3"],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9_\-])(?<value>AT[AC]TT3[A-Za-z0-9_\-]{100,300}=[A-F0-9]{8})(?![A-Za-z0-9_\-=])`,
    ),
    assess: atlassianChecksum,
  },
  prefixedRule({
    id: "notion-token",
    kind: "notion-token",
    reason:
      "Notion integration and API tokens (format since late 2024): `ntn_` + 11 digits + 35 base62 characters. The legacy `secret_` + 43 form has too generic a prefix for a rule of its own and is left to the keyword rules.",
    prefixes: ["ntn_"],
    body: "[0-9]{11}[A-Za-z0-9]{35}",
  }),
];
