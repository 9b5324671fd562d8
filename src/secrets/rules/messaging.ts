/**
 * Messaging and e-mail APIs: Twilio, SendGrid, Mailgun, Mailchimp and Brevo.
 *
 * @module
 */

import type { SecretRule } from "../types.js";
import { END, pattern, prefixedRule, START } from "./shape.js";

export const MESSAGING_RULES: readonly SecretRule[] = [
  {
    id: "twilio-api-key",
    kind: "twilio-api-key",
    reason:
      "Twilio API key SIDs: `SK` + 32 hex characters. Case-sensitive `SK` and bounded on both sides, so words such as `task` or `desk` never reach the hex check.",
    confidence: "high",
    keywords: ["sk"],
    pattern: pattern(`${START}(?<value>SK[0-9a-fA-F]{32})${END}`),
  },
  {
    id: "twilio-auth-token",
    kind: "twilio-auth-token",
    reason:
      "Twilio auth tokens are 32 lower-case hex characters with no prefix, so the rule needs `twilio` at most 80 characters before the value. The account SID (`AC` + 32 hex) next to it is an identifier and is skipped: its hex follows a letter.",
    confidence: "medium",
    keywords: ["twilio"],
    pattern: pattern(
      String.raw`twilio[^\n]{0,80}?(?<![A-Za-z0-9])(?<value>[0-9a-f]{32})(?![A-Za-z0-9])`,
      "i",
    ),
  },
  prefixedRule({
    id: "sendgrid-api-key",
    kind: "sendgrid-api-key",
    reason: "SendGrid API keys: `SG.` + 22 base64url, `.`, 43 base64url characters.",
    prefixes: ["SG."],
    body: String.raw`[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}`,
  }),
  prefixedRule({
    id: "mailgun-api-key",
    kind: "mailgun-api-key",
    reason: "Mailgun private API keys (classic format): `key-` + 32 lower-case hex characters.",
    prefixes: ["key-"],
    body: "[a-f0-9]{32}",
  }),
  {
    id: "mailchimp-api-key",
    kind: "mailchimp-api-key",
    reason: "Mailchimp API keys: 32 lower-case hex characters, then `-us` and the data-centre number.",
    confidence: "high",
    keywords: ["-us"],
    pattern: pattern(`${START}(?<value>[a-f0-9]{32}-us[0-9]{1,2})${END}`),
  },
  prefixedRule({
    id: "brevo-api-key",
    kind: "brevo-api-key",
    reason:
      "Brevo (formerly Sendinblue) API and SMTP keys: `xkeysib-` or `xsmtpsib-` + 64 lower-case hex, `-`, 16 base62 characters.",
    prefixes: ["xkeysib-", "xsmtpsib-"],
    body: "[a-f0-9]{64}-[A-Za-z0-9]{16}",
  }),
];
