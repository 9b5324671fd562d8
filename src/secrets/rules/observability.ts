/**
 * Observability and developer tools: Datadog, Sentry, Grafana, New Relic, Linear and Postman.
 *
 * @module
 */

import type { SecretRule } from "../types.js";
import { pattern, prefixedRule } from "./shape.js";

export const OBSERVABILITY_RULES: readonly SecretRule[] = [
  {
    id: "datadog-api-key",
    kind: "datadog-api-key",
    reason:
      "Datadog API keys are 32 lower-case hex characters with no prefix (the shape of an MD5 or a trace id), so the rule needs `datadog`/`dd` + `api key` (`DD_API_KEY=`, `datadog api key is …`) at most 20 characters before the value.",
    confidence: "medium",
    keywords: ["datadog", "dd_", "dd-", "dd "],
    pattern: pattern(
      String.raw`(?:datadog|(?<![A-Za-z0-9])dd)[_ .\-]?(?:api[_ .\-]?)?key[^\n]{0,20}?(?<![A-Za-z0-9])(?<value>[a-f0-9]{32})(?![A-Za-z0-9])`,
      "i",
    ),
  },
  {
    id: "sentry-auth-token",
    kind: "sentry-auth-token",
    reason:
      "Sentry auth tokens: user tokens `sntryu_` + 64 hex, organisation tokens `sntrys_` + a base64 JSON payload (starts `eyJ`) of 60 or more characters.",
    confidence: "high",
    keywords: ["sntryu_", "sntrys_"],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9_\-])(?<value>sntryu_[a-f0-9]{64}|sntrys_eyJ[A-Za-z0-9+/=_]{60,400})(?![A-Za-z0-9+/=_\-])`,
    ),
  },
  prefixedRule({
    id: "grafana-service-account-token",
    kind: "grafana-service-account-token",
    reason: "Grafana service-account tokens: `glsa_` + 32 base62, `_`, an 8-hex checksum.",
    prefixes: ["glsa_"],
    body: "[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}",
  }),
  prefixedRule({
    id: "new-relic-user-api-key",
    kind: "new-relic-user-api-key",
    reason: "New Relic user API keys: `NRAK-` + 27 upper-case base36 characters.",
    prefixes: ["NRAK-"],
    body: "[A-Z0-9]{27}",
  }),
  prefixedRule({
    id: "linear-api-key",
    kind: "linear-api-key",
    reason: "Linear personal API keys: `lin_api_` + 40 base62 characters.",
    prefixes: ["lin_api_"],
    body: "[A-Za-z0-9]{40}",
  }),
  prefixedRule({
    id: "postman-api-key",
    kind: "postman-api-key",
    reason: "Postman API keys: `PMAK-` + 24 hex, `-`, 34 hex characters.",
    prefixes: ["PMAK-"],
    body: "[a-f0-9]{24}-[a-f0-9]{34}",
  }),
];
