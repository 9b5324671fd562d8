/**
 * Which field names hold a secret: `DB_PASSWORD`, `apiKey`, `client-secret`, but not `key_id`,
 * `token_url`, `cache_key` or `max_tokens`. Names are split into words on `_`, `-`, `.` and
 * camelCase humps, and judged word by word, so `monkey` and `keyboard` never count as `key`.
 *
 * @module
 */

export type SecretField = "password" | "secret";

const PASSWORD_WORDS = new Set(
  "password passwd pwd pass passphrase passcode pw pword dbpassword dbpass rootpassword adminpassword userpassword".split(
    " ",
  ),
);

const SECRET_WORDS = new Set(
  (
    "secret token key apikey credential credentials creds auth pat accesskey secretkey privatekey " +
    "signingkey masterkey authkey authtoken accesstoken refreshtoken apitoken bottoken clientsecret " +
    "appsecret apisecret sessionkey encryptionkey " +
    // Session cookies: whoever holds one is logged in.
    "phpsessid jsessionid sessid sessionid aspsessionid"
  ).split(" "),
);

/** Field allow-rules: names that contain a secret word but describe something else. */
export interface FieldAllowRule {
  readonly id: string;
  readonly reason: string;
  readonly words: ReadonlySet<string>;
}

const words = (list: string) => new Set(list.split(" "));

export const FIELD_ALLOW_RULES: readonly FieldAllowRule[] = [
  {
    id: "non-secret-suffix",
    reason:
      "A name ending in an attribute of the secret (`key_id`, `token_url`, `password_hash`, `secret_name`, `token_type`, `password_min_length`, `api_key_header`) holds metadata, an identifier or a digest, not the secret.",
    words: words(
      "id ids type types url uri urls endpoint host name names file path dir length len size count " +
        "expiry expires expiration ttl timeout header format prefix suffix version field env var " +
        "policy rotation mode enabled required label hint min max rule regex pattern reset hash " +
        "hashed digest checksum fingerprint sha sha1 sha256 md5 etag arn ref location provider " +
        "store manager vault method kind scope scopes usage limit strength generator helper",
    ),
  },
  {
    id: "non-secret-key-qualifier",
    reason:
      "`key` qualified as a lookup, public or identifying key (`public_key`, `cache_key`, `primary_key`, `sort_key`, `idempotency_key`, `object_key`, `gpg_key`, `host_key`) names data or a fingerprint, not a credential.",
    words: words(
      "public pub cache sort partition primary foreign idempotency object row map lookup dedupe " +
        "dedup composite unique index hot short shortcut translation i18n react routing storage s3 " +
        "meta gpg pgp gnupg release host fingerprint",
    ),
  },
  {
    id: "trailing-word",
    reason:
      "The secret word must end the name, or be followed only by an environment or encoding word (`DB_PASSWORD_PROD`, `api_key_v2`, `token_b64`): `passThroughOnException`, `ProgressTokenSchema` and `TOKEN_STRINGS` are about something else.",
    words: words(
      "value prod production staging stage dev development test local live sandbox raw plain " +
        "plaintext b64 base64 hex encoded new old current primary secondary backup v1 v2 v3 1 2 3",
    ),
  },
  {
    id: "counter-token-qualifier",
    reason:
      "`token` qualified as a count or cursor (`max_tokens`, `input_token`, `next_page_token`, `continuation_token`, `cursor_token`) is an LLM token count or a pagination cursor.",
    words: words(
      "max input output prompt completion total page next continuation cursor pagination sync resume",
    ),
  },
];

const [SUFFIX, KEY_QUALIFIER, TRAILING, TOKEN_QUALIFIER] = FIELD_ALLOW_RULES.map((rule) => rule.words) as [
  ReadonlySet<string>,
  ReadonlySet<string>,
  ReadonlySet<string>,
  ReadonlySet<string>,
];

/** `dbPassword` → `db password`, `AWS_SECRET-key.v2` → `aws secret key v2`, lower-cased. */
export function fieldWords(name: string): string[] {
  return name
    .replace(/^-+/, "")
    .split(/[_.\-$]+|(?<=[a-z0-9])(?=[A-Z])/)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}

/**
 * Whether a field name holds a password, another secret, or neither.
 *
 * @example
 * secretField("DB_PASSWORD"); // "password"
 * secretField("stripeApiKey"); // "secret"
 * secretField("access_key_id"); // undefined (non-secret suffix)
 */
export function secretField(name: string): SecretField | undefined {
  const parts = fieldWords(name);
  const last = parts[parts.length - 1];
  if (last === undefined || SUFFIX.has(last)) return undefined;
  // `pass` and `pw` alone are as often a boolean or a test result as a password: only compounds count.
  if (parts.length === 1 && (last === "pass" || last === "pw")) return undefined;
  // The secret word is the last word, or the one before a trailing environment/encoding word.
  const index = parts.length >= 2 && TRAILING.has(last) ? parts.length - 2 : parts.length - 1;
  const word = parts[index] ?? "";
  const before = parts[index - 1];
  // "PGPASSWORD", "MYSQLPASSWORD": a tool's name glued to the word.
  if (PASSWORD_WORDS.has(word) || (word.length > 8 && /(?:password|passwd)$/u.test(word))) return "password";
  if (!SECRET_WORDS.has(word)) return undefined;
  if (word === "key" && before !== undefined && KEY_QUALIFIER.has(before)) return undefined;
  if (word === "token" && before !== undefined && TOKEN_QUALIFIER.has(before)) return undefined;
  return "secret";
}
