/**
 * Package registries: npm, PyPI and Docker Hub publish tokens.
 *
 * @module
 */

import { hasBase62Crc32 } from "../checksums.js";
import type { SecretRule } from "../types.js";
import { prefixedRule } from "./shape.js";

export const REGISTRY_RULES: readonly SecretRule[] = [
  prefixedRule({
    id: "npm-token",
    kind: "npm-token",
    reason:
      "npm access tokens (2021 format, GitHub's design): `npm_` + 30 random base62 + a 6-character base62 CRC32 of them, verified (`high` when it holds, `medium` when not).",
    prefixes: ["npm_"],
    body: "[A-Za-z0-9]{36}",
    assess: ({ value }) => (hasBase62Crc32(value, "npm_") ? "high" : "medium"),
  }),
  prefixedRule({
    id: "pypi-token",
    kind: "pypi-token",
    reason:
      "PyPI API tokens are macaroons: `pypi-` + base64url starting `AgEIcHlwaS5vcmc` (the encoded location `pypi.org`), 50 or more characters after it.",
    prefixes: ["pypi-AgEIcHlwaS5vcmc"],
    body: String.raw`[A-Za-z0-9_\-]{50,1000}`,
  }),
  prefixedRule({
    id: "dockerhub-pat",
    kind: "dockerhub-pat",
    reason: "Docker Hub personal access tokens: `dckr_pat_` + 27 base64url characters.",
    prefixes: ["dckr_pat_"],
    body: String.raw`[A-Za-z0-9_\-]{27}`,
  }),
];
