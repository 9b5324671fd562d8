/**
 * Amazon Web Services: access key ids have a fixed prefix; secret keys are 40 base64 characters
 * with no prefix at all, so they are only taken next to an AWS keyword.
 *
 * @module
 */

import { charClasses, isHex, shannonEntropy } from "../entropy.js";
import type { SecretRule } from "../types.js";
import { pattern } from "./shape.js";

export const AWS_RULES: readonly SecretRule[] = [
  {
    id: "aws-access-key-id",
    kind: "aws-access-key-id",
    reason:
      "Access key ids are `AKIA` (long-term), `ASIA` (STS), `ABIA`, `ACCA` or `A3T?` followed by 16 base32 characters (`A-Z2-7`), upper case, bounded by non-alphanumerics. Half of a key pair, but enough to target the account and always near the other half.",
    confidence: "high",
    keywords: ["akia", "asia", "abia", "acca", "a3t"],
    pattern: pattern(
      `(?<![A-Za-z0-9])(?<value>(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})(?![A-Za-z0-9])`,
    ),
  },
  {
    id: "aws-secret-access-key",
    kind: "aws-secret-access-key",
    reason:
      "Secret access keys are 40 characters of `A-Za-z0-9/+` with no prefix, so the rule needs `aws` or `secret access key` at most 50 characters before the value, and the value must mix upper case, lower case and a digit or `/`/`+` with at least 3.8 bits/char (random 40-character keys score 4.4–4.9; a 40-hex git SHA has no upper case and a path has `//`).",
    confidence: "medium",
    keywords: ["aws", "secret_access", "secretaccess", "secret access", "secret-access"],
    pattern: pattern(
      String.raw`(?:(?<![A-Za-z])aws|secret[_ .\-]?access[_ .\-]?key)[^\n]{0,50}?(?<![A-Za-z0-9/+])(?<value>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`,
      "i",
    ),
    assess: ({ value }) => {
      const { lower, upper, digit } = charClasses(value);
      const slashes = value.split("/").length - 1;
      if (!lower || !upper || !(digit || value.includes("+") || slashes > 0)) return null;
      if (isHex(value) || value.includes("//") || slashes > 4) return null;
      return shannonEntropy(value) >= 3.8 ? "medium" : null;
    },
  },
];
