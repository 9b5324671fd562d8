/**
 * Cloud platforms: Google, Azure, DigitalOcean, Heroku, Databricks and HashiCorp Vault.
 *
 * @module
 */

import type { SecretRule } from "../types.js";
import { END, pattern, prefixedRule } from "./shape.js";

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

export const CLOUD_RULES: readonly SecretRule[] = [
  prefixedRule({
    id: "google-api-key",
    kind: "google-api-key",
    reason: "Google API keys (Maps, Gemini, Firebase…): `AIza` + 35 base64url characters.",
    prefixes: ["AIza"],
    body: String.raw`[A-Za-z0-9_\-]{35}`,
  }),
  prefixedRule({
    id: "google-oauth-client-secret",
    kind: "google-oauth-client-secret",
    reason: "Google OAuth client secrets: `GOCSPX-` + 28 base64url characters.",
    prefixes: ["GOCSPX-"],
    body: String.raw`[A-Za-z0-9_\-]{28}`,
  }),
  prefixedRule({
    id: "google-oauth-access-token",
    kind: "google-oauth-access-token",
    reason: "Google OAuth access tokens: `ya29.` + 30 or more base64url characters.",
    prefixes: ["ya29."],
    body: String.raw`[A-Za-z0-9_\-]{30,1000}`,
  }),
  {
    id: "azure-storage-account-key",
    kind: "azure-storage-account-key",
    reason:
      "Azure Storage connection strings carry `AccountKey=` + the 64-byte account key in base64 (86 characters + `==`). The secret is the key, not the whole connection string.",
    confidence: "high",
    keywords: ["accountkey="],
    pattern: pattern(`AccountKey=(?<value>[A-Za-z0-9+/]{86}==)(?![A-Za-z0-9+/=])`, "i"),
  },
  {
    id: "azure-ad-client-secret",
    kind: "azure-ad-client-secret",
    reason:
      "Microsoft Entra (Azure AD) client secrets: 3 characters, a digit, `Q~`, then 31–34 characters of `A-Za-z0-9_~.-`; the `Q~` at a fixed offset is what makes the shape specific.",
    confidence: "high",
    keywords: ["q~"],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9_~.\-])(?<value>[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34})(?![A-Za-z0-9_~.\-])`,
    ),
  },
  prefixedRule({
    id: "digitalocean-token",
    kind: "digitalocean-token",
    reason:
      "DigitalOcean personal access, OAuth and refresh tokens: `dop_v1_`, `doo_v1_` or `dor_v1_` + 64 hex characters.",
    prefixes: ["dop_v1_", "doo_v1_", "dor_v1_"],
    body: "[a-f0-9]{64}",
  }),
  {
    id: "heroku-api-key",
    kind: "heroku-api-key",
    reason:
      "Legacy Heroku API keys are bare UUIDs, which also name every other record, so the rule needs `heroku` at most 40 characters before it (`HEROKU_API_KEY=…`, `heroku token is …`).",
    confidence: "medium",
    keywords: ["heroku"],
    pattern: pattern(String.raw`heroku[^\n]{0,40}?(?<![A-Za-z0-9\-])(?<value>${UUID})(?![A-Za-z0-9\-])`, "i"),
  },
  prefixedRule({
    id: "heroku-api-key-v2",
    kind: "heroku-api-key",
    reason: "Heroku's newer keys: `HRKU-AA` + 58 base64url characters.",
    prefixes: ["HRKU-AA"],
    body: String.raw`[A-Za-z0-9_\-]{58}`,
  }),
  prefixedRule({
    id: "databricks-token",
    kind: "databricks-token",
    reason: "Databricks personal access tokens: `dapi` + 32 hex characters, optionally `-<digit>`.",
    prefixes: ["dapi"],
    body: "[a-f0-9]{32}(?:-[0-9])?",
  }),
  {
    id: "hashicorp-vault-token",
    kind: "hashicorp-vault-token",
    reason:
      "HashiCorp Vault service and batch tokens (Vault ≥ 1.10): `hvs.` + 90–120 or `hvb.` + 138–300 base64url characters.",
    confidence: "high",
    keywords: ["hvs.", "hvb."],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9_.\-])(?<value>hvs\.[A-Za-z0-9_\-]{90,120}|hvb\.[A-Za-z0-9_\-]{138,300})${END}`,
    ),
  },
];
