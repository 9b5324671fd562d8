/**
 * GitHub and GitLab tokens: prefixed formats (GitLab's token families as GitLab's token-prefix
 * table names them and gitleaks measures them). GitHub's 2021 tokens end in a base62 CRC32 of their
 * random part; a match whose checksum holds is reported `high`, one whose checksum fails (a
 * hand-edited or truncated token, or a format change) still `medium`, since the prefix and exact
 * length already make it a token.
 *
 * @module
 */

import { hasBase62Crc32 } from "../checksums.js";
import type { Candidate, Confidence, SecretRule } from "../types.js";
import { prefixedRule } from "./shape.js";

// GitLab 17+ "routable" tokens append `.`-separated routing parts to the random body.
const GITLAB_ROUTING = String.raw`(?:\.[A-Za-z0-9_\-]{2,20}){0,2}`;

/** A GitLab token family: its prefix, then `body` and the optional routing suffix. */
function gitlabRule(id: string, what: string, prefix: string, body: string, format: string): SecretRule {
  return prefixedRule({
    id,
    kind: id,
    reason: `${what}: \`${prefix}\` + ${format}.`,
    prefixes: [prefix],
    body: `${body}${GITLAB_ROUTING}`,
  });
}

function checksummed(prefix: string) {
  return ({ value }: Candidate): Confidence => (hasBase62Crc32(value, prefix) ? "high" : "medium");
}

const GITHUB_FORMAT =
  "`{prefix}` + 36 base62 characters (30 random + a 6-character base62 CRC32 of them, verified: `high` when it holds, `medium` when not).";

function githubRule(id: string, kind: string, prefix: string, what: string): SecretRule {
  return prefixedRule({
    id,
    kind,
    reason: `${what}: ${GITHUB_FORMAT.replace("{prefix}", prefix)}`,
    prefixes: [prefix],
    body: "[A-Za-z0-9]{36}",
    assess: checksummed(prefix),
  });
}

export const SOURCE_CONTROL_RULES: readonly SecretRule[] = [
  githubRule("github-pat", "github-pat", "ghp_", "GitHub classic personal access token"),
  githubRule("github-oauth-token", "github-oauth-token", "gho_", "GitHub OAuth access token"),
  githubRule("github-app-user-token", "github-app-token", "ghu_", "GitHub App user-to-server token"),
  githubRule(
    "github-app-installation-token",
    "github-app-token",
    "ghs_",
    "GitHub App installation (server-to-server) token",
  ),
  githubRule("github-refresh-token", "github-refresh-token", "ghr_", "GitHub App refresh token"),
  prefixedRule({
    id: "github-fine-grained-pat",
    kind: "github-fine-grained-pat",
    reason:
      "Fine-grained personal access tokens: `github_pat_` + 22 base62, `_`, 59 base62 (82 characters after the prefix).",
    prefixes: ["github_pat_"],
    body: "[A-Za-z0-9]{22}_[A-Za-z0-9]{59}",
  }),
  prefixedRule({
    id: "gitlab-pat",
    kind: "gitlab-pat",
    reason:
      "GitLab personal, project and group access tokens: `glpat-` + at least 20 base64url characters (20 before GitLab 17, longer with a `.`-separated routing suffix since).",
    prefixes: ["glpat-"],
    body: String.raw`[A-Za-z0-9_\-]{20,100}(?:\.[A-Za-z0-9_\-]{2,20}){0,2}`,
  }),
  prefixedRule({
    id: "gitlab-runner-token",
    kind: "gitlab-runner-token",
    reason: "GitLab runner authentication tokens: `glrt-` + at least 20 base64url characters.",
    prefixes: ["glrt-"],
    body: String.raw`[A-Za-z0-9_\-]{20,100}(?:\.[A-Za-z0-9_\-]{2,20}){0,2}`,
  }),
  prefixedRule({
    id: "gitlab-deploy-token",
    kind: "gitlab-deploy-token",
    reason: "GitLab deploy tokens: `gldt-` + at least 20 base64url characters.",
    prefixes: ["gldt-"],
    body: String.raw`[A-Za-z0-9_\-]{20,100}`,
  }),
  gitlabRule(
    "gitlab-ci-job-token",
    "GitLab CI/CD job tokens (valid while the job runs, with the triggering user's project access)",
    "glcbt-",
    String.raw`[A-Za-z0-9]{1,5}_[A-Za-z0-9_\-]{20,100}`,
    "a 1–5 character partition id, `_`, then at least 20 base64url characters",
  ),
  gitlabRule(
    "gitlab-trigger-token",
    "GitLab pipeline trigger tokens",
    "glptt-",
    "[a-f0-9]{40}",
    "40 lower-case hex characters",
  ),
  gitlabRule(
    "gitlab-feed-token",
    "GitLab feed tokens (RSS/Atom and calendar feeds with the user's private data)",
    "glft-",
    String.raw`[A-Za-z0-9_\-]{20,100}`,
    "at least 20 base64url characters",
  ),
  gitlabRule(
    "gitlab-incoming-mail-token",
    "GitLab incoming e-mail tokens (create issues and merge requests by mail as the user)",
    "glimt-",
    String.raw`[A-Za-z0-9_\-]{25,100}`,
    "at least 25 base64url characters",
  ),
  gitlabRule(
    "gitlab-agent-token",
    "GitLab agent for Kubernetes tokens",
    "glagent-",
    String.raw`[A-Za-z0-9_\-]{50,100}`,
    "at least 50 base64url characters",
  ),
  gitlabRule(
    "gitlab-oauth-app-secret",
    "GitLab OAuth application secrets",
    "gloas-",
    String.raw`[A-Za-z0-9_\-]{64,100}`,
    "at least 64 base64url characters",
  ),
  gitlabRule(
    "gitlab-scim-token",
    "GitLab SCIM OAuth tokens (provision and deprovision a group's users)",
    "glsoat-",
    String.raw`[A-Za-z0-9_\-]{20,100}`,
    "at least 20 base64url characters",
  ),
  gitlabRule(
    "gitlab-feature-flag-client-token",
    "GitLab feature-flag client tokens",
    "glffct-",
    String.raw`[A-Za-z0-9_\-]{20,100}`,
    "at least 20 base64url characters",
  ),
  prefixedRule({
    id: "gitlab-runner-registration-token",
    kind: "gitlab-runner-registration-token",
    reason:
      "Legacy GitLab runner registration tokens: `GR1348941` (`GR` and the rotation date 2022-02-25 in hex) + 20 base64url characters.",
    prefixes: ["GR1348941"],
    body: String.raw`[A-Za-z0-9_\-]{20}`,
  }),
];
