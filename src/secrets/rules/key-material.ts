/**
 * Key material and signed tokens: PEM, OpenSSH and PGP private keys, age identities and JWTs.
 *
 * @module
 */

import { isBech32 } from "../checksums.js";
import type { Candidate, SecretRule } from "../types.js";
import { END, pattern } from "./shape.js";

// A key block's body: base64 lines, plus the RFC 1421 / RFC 4880 header lines some blocks carry.
// Header alternatives come first so `Proc-Type:` is not read as base64 up to its hyphen.
const body = (headers: string) => String.raw`(?:(?:${headers}):[^\n]*|[A-Za-z0-9+/=\s])*`;

/** A block without its END line (pasted truncated) stops after its last base64 line, not in the prose after it. */
function trimBlock({ value }: Candidate): string {
  if (value.endsWith("-----")) return value;
  let end = value.length;
  for (const line of value.matchAll(/[A-Za-z0-9+/=]{16,}/g)) end = line.index + line[0].length;
  return value.slice(0, end);
}

/** A block with no run of 32 base64 characters is a mention of the header, not a key. */
function hasKeyBody({ value }: Candidate) {
  const bodyStart = value.indexOf("-----", 10) + 5;
  return /[A-Za-z0-9+/]{32}/.test(value.slice(bodyStart)) ? "high" : null;
}

function isJwtHeader(part: string): boolean {
  try {
    const header: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return (
      typeof header === "object" && header !== null && typeof (header as { alg?: unknown }).alg === "string"
    );
  } catch {
    return false;
  }
}

export const KEY_MATERIAL_RULES: readonly SecretRule[] = [
  {
    id: "private-key",
    kind: "private-key",
    reason:
      "PEM private keys (PKCS#1 `RSA`, SEC1 `EC`, `DSA`, PKCS#8, `ENCRYPTED`): the whole block from `-----BEGIN … PRIVATE KEY-----` to its END line, or to the last base64 line when pasted without one. Needs a 32-character base64 run, so a sentence naming the header is not a key.",
    confidence: "high",
    keywords: ["private key-----"],
    pattern: pattern(
      `(?<value>-----BEGIN (?!OPENSSH )(?:[A-Z0-9]+ ){0,3}PRIVATE KEY-----${body("Proc-Type|DEK-Info")}(?:-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY-----)?)`,
    ),
    trim: trimBlock,
    assess: hasKeyBody,
  },
  {
    id: "openssh-private-key",
    kind: "openssh-private-key",
    reason:
      "OpenSSH private keys (`ssh-keygen` default since 7.8): the whole `-----BEGIN OPENSSH PRIVATE KEY-----` block.",
    confidence: "high",
    keywords: ["openssh private key"],
    pattern: pattern(
      String.raw`(?<value>-----BEGIN OPENSSH PRIVATE KEY-----[A-Za-z0-9+/=\s]*(?:-----END OPENSSH PRIVATE KEY-----)?)`,
    ),
    trim: trimBlock,
    assess: hasKeyBody,
  },
  {
    id: "pgp-private-key",
    kind: "pgp-private-key",
    reason:
      "OpenPGP secret keys: the whole ASCII-armoured `-----BEGIN PGP PRIVATE KEY BLOCK-----` block, armour headers included.",
    confidence: "high",
    keywords: ["pgp private key block"],
    pattern: pattern(
      `(?<value>-----BEGIN PGP PRIVATE KEY BLOCK-----${body("Version|Comment|Hash|Charset")}(?:-----END PGP PRIVATE KEY BLOCK-----)?)`,
    ),
    trim: trimBlock,
    assess: hasKeyBody,
  },
  {
    id: "age-secret-key",
    kind: "age-secret-key",
    reason:
      "age identities: `AGE-SECRET-KEY-1` + 58 bech32 characters; the bech32 checksum is verified (`high` when it holds, `medium` when not).",
    confidence: "high",
    keywords: ["age-secret-key-1"],
    pattern: pattern(
      `(?<![A-Za-z0-9])(?<value>AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})(?![A-Za-z0-9])`,
    ),
    assess: ({ value }) => (isBech32(value) ? "high" : "medium"),
  },
  {
    id: "jwt",
    kind: "jwt",
    reason:
      "JSON Web Tokens: three base64url parts separated by dots whose first part decodes to a JSON object with an `alg` field (a JSON header always encodes to `eyJ`). Bearer credentials until they expire; the claims often hold personal data too.",
    confidence: "high",
    keywords: ["eyj"],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9_\-.])(?<value>(?<header>eyJ[A-Za-z0-9_\-]{10,})\.[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]*)${END}`,
    ),
    assess: ({ groups }) => (isJwtHeader(groups.header ?? "") ? "high" : null),
  },
];
