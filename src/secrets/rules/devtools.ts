/**
 * CI, code-quality and secret-manager credentials: CircleCI, Buildkite, SonarQube, Doppler and
 * 1Password service accounts.
 *
 * @module
 */

import type { SecretRule } from "../types.js";
import { pattern, prefixedRule, START } from "./shape.js";

export const DEVTOOLS_RULES: readonly SecretRule[] = [
  prefixedRule({
    id: "circleci-pat",
    kind: "circleci-pat",
    reason:
      "CircleCI personal API tokens: `CCIPAT_` + 22 base62, `_`, 40 lower-case hex characters, so an environment variable such as `CCIPAT_NAME` never matches.",
    prefixes: ["CCIPAT_"],
    body: "[A-Za-z0-9]{22}_[a-f0-9]{40}",
  }),
  prefixedRule({
    id: "buildkite-api-token",
    kind: "buildkite-api-token",
    reason: "Buildkite user API access tokens: `bkua_` + 40 lower-case letters and digits.",
    prefixes: ["bkua_"],
    body: "[a-z0-9]{40}",
  }),
  prefixedRule({
    id: "sonarqube-token",
    kind: "sonarqube-token",
    reason:
      "SonarQube user, project-analysis and global-analysis tokens: `squ_`, `sqp_` or `sqa_` + 40 lower-case hex characters.",
    prefixes: ["squ_", "sqp_", "sqa_"],
    body: "[a-f0-9]{40}",
  }),
  {
    id: "doppler-token",
    kind: "doppler-token",
    reason:
      "Doppler personal, CLI, service, service-account, SCIM and audit tokens: `dp.pt.`, `dp.ct.`, `dp.st.` (optionally with the config name, `dp.st.prd.`), `dp.sa.`, `dp.scim.` or `dp.audit.` + 40–44 base62 characters. Keyword-anchored rules read a dotted value as a file or code name, so without this rule `DOPPLER_TOKEN=dp.st.…` goes unseen.",
    confidence: "high",
    keywords: ["dp.pt.", "dp.ct.", "dp.st.", "dp.sa.", "dp.scim.", "dp.audit."],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9_.\-])(?<value>dp\.(?:pt|ct|sa|scim|audit|st(?:\.[a-z0-9_\-]{2,35})?)\.[A-Za-z0-9]{40,44})(?![A-Za-z0-9_\-])`,
    ),
  },
  {
    id: "1password-service-account-token",
    kind: "1password-service-account-token",
    reason:
      "1Password service-account tokens: `ops_` + a base64 JSON document (so `ops_eyJ`) of 250–4000 characters, `+`, `/` and `=` padding included (the cap keeps a long run of base64 with `ops_eyJ` in it from costing quadratic time). The whole token is the value: the keyword rules' value would stop at its first `+` or `/`, or after 300 characters, and leave the rest unredacted.",
    confidence: "high",
    keywords: ["ops_eyj"],
    pattern: pattern(`${START}(?<value>ops_eyJ[A-Za-z0-9+/_\\-]{250,4000}={0,3})(?![A-Za-z0-9+/=_\\-])`),
  },
];
