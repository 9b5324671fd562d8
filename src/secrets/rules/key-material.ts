/**
 * Key material and signed tokens: PEM, OpenSSH and PGP private keys, age identities and JWTs.
 *
 * @module
 */

import { isBech32 } from "../checksums.js";
import type { Candidate, SecretRule } from "../types.js";
import { END, pattern } from "./shape.js";

// A line break inside a key block: a real one, or the `\n` / `\r\n` escape a JSON or code string
// holds instead (a GCP service-account key file's `private_key`; `\\n` when that JSON is itself
// quoted again).
const ESCAPED_BREAK = String.raw`\\+[rn]`;
// A key block's body: base64 lines, plus the RFC 1421 / RFC 4880 header lines some blocks carry.
// Header alternatives come first so `Proc-Type:` is not read as base64 up to its hyphen; a header
// line ends at a line break of either kind.
const body = (headers: string) =>
  String.raw`(?:(?:${headers}):(?:[^\n\\]|\\(?![rn]))*|[A-Za-z0-9+/=\s]|${ESCAPED_BREAK})*`;

/** The block with its escaped line breaks read as real ones, so a line's base64 is measured alone. */
function unescapeBreaks(block: string): string {
  return block.replace(/\\+[rn]/g, "\n");
}

/** A block without its END line (pasted truncated) stops after its last base64 line, not in the prose after it. */
function trimBlock({ value }: Candidate): string {
  if (value.endsWith("-----")) return value;
  let end = value.length;
  // `\nMIIE…` is an escape and a line; the `n` joining the run does not move where the run ends.
  for (const line of value.matchAll(/[A-Za-z0-9+/=]{16,}/g)) end = line.index + line[0].length;
  return value.slice(0, end);
}

/**
 * A block closed by its END line is a key whatever its length (a short or cut-down body pasted
 * into a note is still key material) when its body is base64 lines, one of 16 characters at least;
 * an unclosed one needs a run of 32 base64 characters, or it is a sentence naming the header.
 * Escaped line breaks count as line breaks, never as base64.
 */
function hasKeyBody({ value }: Candidate) {
  const bodyStart = value.indexOf("-----", 10) + 5;
  const closed = value.endsWith("-----");
  const body = unescapeBreaks(
    closed ? value.slice(bodyStart, value.lastIndexOf("-----END")) : value.slice(bodyStart),
  );
  // Closed and short: every line of the body a base64 line (prose between two headers has spaces).
  const base64Body = /^\s*[A-Za-z0-9+/=]{16,}(?:\s*\n\s*[A-Za-z0-9+/=]+)*\s*$/.test(body);
  return /[A-Za-z0-9+/]{32}/.test(body) || (closed && base64Body) ? "high" : null;
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

// The crypt(3) formats of htpasswd and /etc/shadow: MD5 (`$1$`, Apache `$apr1$`), SHA-256/512
// (`$5$`, `$6$`, with an optional `rounds=N$`), bcrypt (`$2a$`/`$2b$`/`$2y$` + cost) and yescrypt (`$y$`).
const CRYPT_HASH = [
  String.raw`\$(?:1|apr1|5|6)\$(?:rounds=\d+\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{22,86}`,
  String.raw`\$2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}`,
  String.raw`\$y\$[./A-Za-z0-9]{1,12}\$[./A-Za-z0-9]{8,64}\$[./A-Za-z0-9]{22,86}`,
  String.raw`\$argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]{8,}\$[A-Za-z0-9+/]{16,}`,
].join("|");

export const KEY_MATERIAL_RULES: readonly SecretRule[] = [
  {
    id: "crypt-password-hash",
    kind: "password-hash",
    reason:
      "A password hash in a crypt(3) format (an htpasswd or /etc/shadow entry: `$apr1$`, `$1$`, `$5$`, `$6$`, `$2b$`, `$y$`, `$argon2id$`): not the password, but whoever has it can guess the password offline, and a memory has no use for it.",
    confidence: "high",
    keywords: ["$1$", "$apr1$", "$5$", "$6$", "$2", "$y$", "$argon2"],
    pattern: pattern(String.raw`(?<![A-Za-z0-9$])(?<value>${CRYPT_HASH})(?![./A-Za-z0-9$])`),
  },
  {
    id: "private-key",
    kind: "private-key",
    reason:
      "PEM private keys (PKCS#1 `RSA`, SEC1 `EC`, `DSA`, PKCS#8, `ENCRYPTED`): the whole block from `-----BEGIN … PRIVATE KEY-----` to its END line, or to the last base64 line when pasted without one. A block with its END line is a key whatever the length of its base64 body (one line of 16 characters will do); one without needs a 32-character base64 run, so a sentence naming the header is not a key. Line breaks may be real or the `\\n` / `\\r\\n` escapes of a JSON or code string (a GCP service-account or Firebase Admin key file's `private_key`): the span then ends at the END line inside the string, and escapes never count as base64.",
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
      "OpenSSH private keys (`ssh-keygen` default since 7.8): the whole `-----BEGIN OPENSSH PRIVATE KEY-----` block, a short body too when the END line closes it; escaped line breaks as for `private-key`.",
    confidence: "high",
    keywords: ["openssh private key"],
    pattern: pattern(
      `(?<value>-----BEGIN OPENSSH PRIVATE KEY-----(?:[A-Za-z0-9+/=\\s]|${ESCAPED_BREAK})*(?:-----END OPENSSH PRIVATE KEY-----)?)`,
    ),
    trim: trimBlock,
    assess: hasKeyBody,
  },
  {
    id: "pgp-private-key",
    kind: "pgp-private-key",
    reason:
      "OpenPGP secret keys: the whole ASCII-armoured `-----BEGIN PGP PRIVATE KEY BLOCK-----` block, armour headers included; escaped line breaks as for `private-key`.",
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
