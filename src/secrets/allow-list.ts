/**
 * Value allow-rules: captured values that are not secrets even though a rule's shape matched —
 * placeholders, references to where a secret lives, and values that are something else (a UUID,
 * a version, a file name). Each has an id and a reason, rendered into docs/secrets.md.
 *
 * `every` rules guard every built-in rule; `generic` rules guard only the keyword-anchored ones
 * (`password: …`, `token=…`), whose values have no fixed format to vouch for them.
 *
 * @module
 */

export interface AllowRule {
  readonly id: string;
  readonly scope: "every" | "generic";
  readonly reason: string;
  readonly matches: (value: string) => boolean;
}

// Values that are the name of a type, a literal or a word about the secret, never the secret:
// `password: string`, `token=None`, `api_key: required`, `secret: 1Password`.
const NOT_A_VALUE = new Set(
  (
    "none null nil undefined true false yes no required optional string str text number int " +
    "integer bool boolean bytes secretstr secret secrets password passwd pass token tokens key " +
    "apikey changeme todo tbd n/a na empty default hidden masked omitted unset notset env vault " +
    "1password bitwarden lastpass keychain keyring doppler admin root guest user username test " +
    "testing demo sample example " +
    // Names of algorithms and encodings with digits in them: `password: bcrypt`, `pass: sha256`.
    "base32 base58 base64 md5 sha1 sha224 sha256 sha384 sha512 sha3 argon2 argon2id pbkdf2 " +
    "utf8 utf16 ascii7 oauth1 oauth2 http2 http3 tls12 tls13 ipv4 ipv6 x509 pkcs8 pkcs12 ed25519"
  ).split(" "),
);

/** Which run of consecutive codes a character belongs to: digits, lower case or upper case. */
function sequenceOf(code: number): number {
  if (code >= 48 && code <= 57) return 1;
  if (code >= 97 && code <= 122) return 2;
  if (code >= 65 && code <= 90) return 3;
  return 0;
}

/** A run of eight ascending characters (`12345678`, `abcdefgh`): typed by a person, not random. */
function hasAscendingRun(value: string): boolean {
  let run = 1;
  for (let index = 1; index < value.length; index++) {
    const previous = value.charCodeAt(index - 1);
    const current = value.charCodeAt(index);
    run =
      current === previous + 1 && sequenceOf(current) !== 0 && sequenceOf(current) === sequenceOf(previous)
        ? run + 1
        : 1;
    if (run >= 8) return true;
  }
  return false;
}

/** One short unit repeated (`abcabcabc`, `password=password=…`): typed or pasted filler, not a secret. */
function isRepetition(value: string): boolean {
  for (let unit = 1; unit <= 16 && unit * 2 <= value.length + 1; unit++) {
    let repeats = true;
    for (let index = unit; index < value.length && repeats; index++)
      repeats = value[index] === value[index - unit];
    if (repeats) return true;
  }
  return false;
}

export const ALLOW_RULES: readonly AllowRule[] = [
  {
    id: "placeholder-marker",
    scope: "every",
    reason:
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text documents a literal ${…} placeholder.
      "`xxxxx`, `XXXXX`, `...`, `…`, `****`, `###`, `<…>`, `${…}`, `{{…}}` and `[REDACTED…]` mark a blank to fill in or a value already hidden; a random token essentially never contains them.",
    // Case-sensitive runs of five: mixed-case `XxXx` turns up in random base62 about once in 10^4 tokens.
    matches: (value) =>
      /x{5}|X{5}/.test(value) ||
      /\.\.\.|…|\*{3}|#{3}|<[^>]*>|\$\{|\{\{|\[(?:redacted|hidden|masked)/i.test(value),
  },
  {
    id: "placeholder-word",
    scope: "every",
    reason:
      "Documentation words (`example`, `placeholder`, `changeme`, `dummy`, `redacted`, `sample`, `your-…-here`, `replace-me`, `insert-…`) inside a value mark it as an illustration; AWS's own examples end in `EXAMPLE`. Words of five letters or more, so random tokens do not trip it.",
    matches: (value) =>
      /example|placeholder|change[_-]?me|dummy|redacted|sample|replace[_-]?me|insert[_-]?(?:your|api|key|token|secret)|your[_-]?(?:own[_-]?)?(?:api[_-]?)?(?:key|token|secret|password|pass)|[_-]here$/i.test(
        value,
      ),
  },
  {
    id: "env-reference",
    scope: "every",
    reason:
      "A reference to where the secret lives (`$VAR`, `%VAR%`, `process.env.X`, `os.environ[…]`, `secrets.X`, `op://…`, `vault:…`, a Key Vault or Secrets Manager reference) is configuration, not the secret.",
    // A crypt(3) hash (`$apr1$salt$hash`) starts like `$VAR` but has three `$` or more.
    matches: (value) =>
      /^\$[A-Za-z_{(](?![^$]*\$[^$]*\$)|^%[A-Za-z_]+%$|process\.env|import\.meta\.env|os\.environ|getenv\(|ENV\[|^env\(|^secrets\.|^vault:|^op:\/\/|^@Microsoft\.KeyVault|^arn:aws:secretsmanager|^!(?:Ref|Sub)\b/i.test(
        value,
      ),
  },
  {
    id: "low-variety",
    scope: "every",
    reason:
      "Eight identical characters in a row, eight ascending ones (`12345678`, `abcdefgh`), or one short unit repeated throughout (`abcabcabc`) happen in random tokens with probability below one in a million; they mark a typed filler such as `ghp_aaaaaaaa…` or `sk-1234567890…`.",
    matches: (value) => /(.)\1{7}/.test(value) || hasAscendingRun(value) || isRepetition(value),
  },
  {
    id: "not-a-value",
    scope: "generic",
    reason:
      "Type names, literals and words about secrets (`string`, `None`, `required`, `changeme`, `1Password`, `vault`, `test`) follow `password:` in code and prose without being one.",
    matches: (value) => NOT_A_VALUE.has(value.toLowerCase()),
  },
  {
    id: "public-key-prefix",
    scope: "generic",
    reason:
      "Keys public by design, by their documented prefix: Stripe publishable keys (`pk_live_`, `pk_test_`), Supabase publishable keys (`sb_publishable_`), PostHog project keys (`phc_`) and Mapbox public tokens (`pk.`). They ship in web pages; a generic rule that sees one after the word `key` has not found a secret.",
    matches: (value) => /^(?:pk_(?:live|test)_|sb_publishable_|phc_|pk\.)/u.test(value),
  },
  {
    id: "uuid",
    scope: "generic",
    reason:
      "UUIDs name records (request ids, user ids, trace ids) far more often than they authenticate; only the Heroku rule, which needs the word `heroku` nearby, accepts one.",
    matches: (value) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value),
  },
  {
    id: "version-string",
    scope: "generic",
    reason: "`v2.14.3-beta.1` and `20.11.1` are versions: digits and dots with an optional tag.",
    matches: (value) => /^v?\d+(?:\.\d+){1,3}(?:[-+][0-9A-Za-z.-]+)?$/.test(value),
  },
  {
    id: "date-time",
    scope: "generic",
    reason:
      "ISO dates and times (`2024-05-01`, `2024-05-01T10:00:00Z`) carry digits and symbols like a password but are not secret.",
    matches: (value) => /^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+Z?)?$/.test(value),
  },
  {
    id: "file-name",
    scope: "generic",
    reason:
      "A value ending in a file extension (`5f4dcc3b….jpg`, `aGVsbG8.png`) is a file name, however random its stem: uploads and content-addressed assets are named by hashes and base64.",
    matches: (value) =>
      /\.(?:png|jpe?g|gif|webp|svg|ico|pdf|txt|json|ya?ml|toml|md|csv|zip|tar|gz|tgz|ts|js|mjs|py|rb|go|html?|css|mp[34]|wav|log|bin|pem\.pub|pub)$/i.test(
        value,
      ),
  },
  {
    id: "url-or-path",
    scope: "generic",
    reason:
      "A URL or file path after `token_url:` or `key_file=` points at a secret; credentials inside a URL are the URL rules' job.",
    matches: (value) => /^[a-z][a-z0-9+.-]*:\/\/|^(?:\.{0,2}\/|~\/|[A-Za-z]:\\)/i.test(value),
  },
  {
    id: "code-expression",
    scope: "generic",
    reason:
      "A dotted chain of identifiers (`this.options.token`, `matchResult?.pass`, `exports.TokenSchema`, `config::KEY`) is code that reads a secret from somewhere, not the secret. A password with a dot in it still passes when a part after a dot starts with a digit or symbol.",
    matches: (value) =>
      /^[!~-]*[A-Za-z_$][\w$]*(?:(?:\?\.|!\.|\.|::|->)[A-Za-z_$][\w$]*)+(?:\?\.|\.|!|\?)?$/.test(value),
  },
  {
    id: "regex-source",
    scope: "generic",
    reason:
      "A regular expression (`[A-Za-z0-9._~+/-]+=*`, `\\d{4}`) describes what a token looks like; character classes with ranges and escapes do not occur in real tokens.",
    matches: (value) => /\[[^\]]*-[^\]]*\][+*?{]|\\[dwsDWS]/.test(value),
  },
  {
    id: "identifier",
    scope: "generic",
    reason:
      "snake_case, kebab-case, Title-Case, camelCase, PascalCase and CONSTANT_CASE words (`not-required`, `refresh_token`, `SecretStr`, `API_KEY`, `Access-Control-Expose-Headers`) are names of things; a secret is not made of dictionary-shaped parts joined by separators. One word with digits after it (`Summer2024`, `hunter2`, `sunflower42`) is not an identifier: it is how people make up passwords.",
    matches: (value) =>
      /^(?:(?:[A-Z]?[a-z]+|[A-Z]+)\d*(?:[_.-](?:[A-Z]?[a-z]+|[A-Z]+)\d*)+|[A-Z]?[a-z]+|[A-Z]+|[A-Za-z][a-z]+(?:[A-Z][a-z]+)+\d*)$/.test(
        value,
      ),
  },
];

const EVERY = ALLOW_RULES.filter((rule) => rule.scope === "every");
const ALL = ALLOW_RULES;

/**
 * The first allow-rule that matches `value`, or undefined.
 *
 * @example
 * allowedBy("sk-xxxxxxxxxxxx", false)?.id; // "placeholder-marker"
 * allowedBy("not-required", true)?.id; // "identifier"
 */
export function allowedBy(value: string, generic: boolean): AllowRule | undefined {
  for (const rule of generic ? ALL : EVERY) if (rule.matches(value)) return rule;
  return undefined;
}
