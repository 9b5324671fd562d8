/**
 * Cloud platforms and infrastructure: Google, Azure, DigitalOcean, Heroku, Databricks, HashiCorp
 * Vault and HCP Terraform, Cloudflare, Supabase, PlanetScale, Tailscale and Pulumi.
 *
 * @module
 */

import { crc32 } from "../checksums.js";
import type { Candidate, Confidence, SecretRule } from "../types.js";
import { looksLikeToken } from "../value-shape.js";
import { END, pattern, prefixedRule, START } from "./shape.js";

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

/**
 * Cloudflare's scannable tokens end in the CRC32 of their 40 random characters as 8 lower-case
 * hex digits (checked against the published test tokens of two independent scanners).
 */
function cloudflareChecksum({ value }: Candidate): Confidence {
  const sum = crc32(value.slice(-48, -8)).toString(16).padStart(8, "0");
  return sum === value.slice(-8) ? "high" : "medium";
}

const CLOUDFLARE_FORMAT =
  "40 base62 characters, then the CRC32 of those 40 as 8 lower-case hex digits, verified: `high` when it holds, `medium` when not (a hand-edited token, or a change of format). Legacy Cloudflare tokens have no prefix and are left to the keyword rules.";

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
  {
    id: "terraform-cloud-token",
    kind: "terraform-cloud-token",
    reason:
      "HCP Terraform (Terraform Cloud) and Terraform Enterprise API tokens: 14 base62 characters, the literal `.atlasv1.`, then 60–70 base64url characters (`=` included). The `.atlasv1.` infix is the anchor; a URL path such as `/atlasv1/` has no 14-character id before it.",
    confidence: "high",
    keywords: [".atlasv1."],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9_.\-])(?<value>[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_\-=]{60,70})(?![A-Za-z0-9_\-=])`,
    ),
  },
  prefixedRule({
    id: "cloudflare-api-token",
    kind: "cloudflare-api-token",
    reason: `Cloudflare user and account API tokens (scannable format, 2026): \`cfut_\` or \`cfat_\` + ${CLOUDFLARE_FORMAT}`,
    prefixes: ["cfut_", "cfat_"],
    body: "[A-Za-z0-9]{40}[a-f0-9]{8}",
    assess: cloudflareChecksum,
  }),
  prefixedRule({
    id: "cloudflare-global-api-key",
    kind: "cloudflare-global-api-key",
    reason: `Cloudflare Global API Keys (scannable format, full account access): \`cfk_\` + ${CLOUDFLARE_FORMAT}`,
    prefixes: ["cfk_"],
    body: "[A-Za-z0-9]{40}[a-f0-9]{8}",
    assess: cloudflareChecksum,
  }),
  prefixedRule({
    id: "supabase-secret-key",
    kind: "supabase-secret-key",
    reason:
      "Supabase secret API keys (successors of the `service_role` JWT): `sb_secret_` + 28–64 base64url characters (22 random, `_`, an 8-character check segment in keys seen so far) that pass the generic token test, so `sb_secret_key_goes_in_the_env_file` never matches. `sb_publishable_` keys are public by design and not flagged.",
    prefixes: ["sb_secret_"],
    body: String.raw`[A-Za-z0-9_\-]{28,64}`,
    assess: ({ value }) => (looksLikeToken(value.slice("sb_secret_".length)) ? "high" : null),
  }),
  prefixedRule({
    id: "supabase-access-token",
    kind: "supabase-access-token",
    reason:
      "Supabase personal access tokens (CLI, Management API): `sbp_`, optionally a version such as `v0_`, then 40 lower-case hex characters.",
    prefixes: ["sbp_"],
    body: "(?:v[0-9]_)?[a-f0-9]{40}",
  }),
  {
    id: "planetscale-token",
    kind: "planetscale-token",
    reason:
      "PlanetScale service tokens, database passwords and OAuth tokens: `pscale_tkn_`, `pscale_pw_` or `pscale_oauth_` + 32–64 characters of `A-Za-z0-9_-.=`; a sentence's final `.` is left out. As the password of a `mysql://` URL the same span is reported with this kind, the more specific one.",
    confidence: "high",
    keywords: ["pscale_tkn_", "pscale_pw_", "pscale_oauth_"],
    pattern: pattern(
      `${START}(?<value>pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_\\-.=]{32,64})(?![A-Za-z0-9_\\-.=])`,
    ),
    trim: ({ value }) => value.replace(/\.+$/, ""),
    assess: ({ value }) => (value.length - value.indexOf("_", 7) - 1 >= 32 ? "high" : null),
  },
  prefixedRule({
    id: "tailscale-key",
    kind: "tailscale-key",
    reason:
      "Tailscale API access tokens, pre-auth keys, OAuth client secrets, SCIM and webhook keys: `tskey-` + the key type (`api`, `auth`, `client`, `scim`, `webhook`), `-`, a 6–32 character key id, `-`, a 16–64 character secret (both base62). Tailscale's own documentation example has an ascending digit run and is dropped by `low-variety`.",
    prefixes: ["tskey-"],
    body: "(?:api|auth|client|scim|webhook)-[A-Za-z0-9]{6,32}-[A-Za-z0-9]{16,64}",
  }),
  prefixedRule({
    id: "pulumi-access-token",
    kind: "pulumi-access-token",
    reason:
      "Pulumi Cloud access tokens: `pul-` + 40 lower-case hex characters, so `pul-request-template` never matches.",
    prefixes: ["pul-"],
    body: "[a-f0-9]{40}",
  }),
];
