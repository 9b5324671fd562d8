/**
 * Keyword-anchored rules: a secret with no format of its own, recognised by what stands before it
 * — `Authorization: Bearer …`, `password: …`, `API_KEY=…`, "the wifi password is …". Their values
 * pass the generic allow-rules (placeholders, identifiers, UUIDs…) and a shape test
 * (`looksLikePassword` / `looksLikeToken`), and they report `medium`: a provider rule matching the
 * same value wins.
 *
 * @module
 */

import { type SecretField, secretField } from "../field-names.js";
import type { Candidate, Confidence, SecretRule } from "../types.js";
import { looksLikePassword, looksLikeToken } from "../value-shape.js";
import { pattern, trimSentenceEnd } from "./shape.js";

// A value after an operator: quoted (anything up to the closing quote) or bare (up to a space,
// quote, separator or bracket, so `<YOUR_KEY>` and `${KEY}` never yield a value).
const QUOTED_OR_BARE = String.raw`(?:(?<q>["'\`])(?<quoted>[^"'\`\r\n]{1,300})\k<q>|(?<value>[^\s"'\`,;<>()\[\]{}]{1,300}))`;
// The same after a phrase, where typographic quotes occur too.
const PHRASE_VALUE = String.raw`(?:["'\`“‘](?<quoted>[^"'\`”’\r\n]{1,200})["'\`”’]|(?<value>[^\s"'\`”’]{1,200}))`;

// The value may start the next line after a colon: "Square access token:\n…".
const ASSIGNMENT = String.raw`(?<![A-Za-z0-9_.$\-])(?<name>(?:--?)?[A-Za-z_$][A-Za-z0-9_.\-]{0,60})["'\]]?[ \t]*(?::=|=>|->|=|:(?:[ \t]*\r?\n)?)[ \t]*${QUOTED_OR_BARE}`;

// "… for the staging db" between the keyword and the verb.
const FOR_CLAUSE = String.raw`(?:[ \t]+(?:for|of|on|to|at|del|de|für|fürs|pour|du|van|voor|per|di|da|do|för)[ \t]+[^\n.,;:!?]{1,40}?)?`;
// One word naming what the password is for, before a colon: "Kennwort Cluster-Login:", not a word
// about passwords in general ("password manager: 1Password", "password reset: …").
const QUALIFIER = String.raw`(?:[ \t]+(?!(?:manager|policy|policies|reset|hint|rules?|length|strength|field|prompt|expiry|change|hash|vault|store|generator|protected|requirements?|protection)\b)[A-Za-zÀ-ÿ0-9-]{2,20}(?=[ \t]*(?::|：)))?`;
// "wifi password at home: …", "email password — …": a label and a dash or colon, no verb.
const SEPARATOR = String.raw`[ \t]*(?::|：|—|–|->|[ \t]-)[ \t]*(?:\r?\n[ \t]*)?`;
// The word for password in the languages people write notes in, beside English.
const PASSWORD_WORDS_ANY_LANGUAGE = String.raw`pass(?:word|phrase|code)|passwd|pwd|pw|mdp|contrase[ñn]a|clave|senha|mot de passe|passwort|kennwort|wachtwoord|l[öo]senord|has[łl]o|parola|salasana|adgangskode|пароль|パスワード|pasuwaado|密码|密碼|비밀번호`;
// Longer verbs first: "is now X" must not read "now" as the value.
const VERB = String.raw`[ \t]+(?:is now|is still|(?:has been |was |got |is )?(?:changed|rotated|reset|set|updated) to|is|was)[ \t]*:?[ \t]+`;

// `-p` is a password only where a command logs in; elsewhere it is a port or "parents" (`mkdir -p`).
const AUTH_COMMAND =
  /\b(?:login|sshpass|mysql|mysqldump|mariadb|psql|mongo(?:sh|dump|restore)?|redis-cli|curl|wget|ftp|lftp|smbclient|htpasswd|rsync|sqlcmd|mssql-cli)\b/u;

/** A bare value followed by `(` is a function being called: `key = deriveKey(secret)`. */
function isCall({ value, start, text, groups }: Candidate): boolean {
  return groups.quoted === undefined && text[start + value.length] === "(";
}

// Declaration keywords and articles before a one-word name qualify nothing: `const pass = …`, `the key: …`.
const NOT_A_QUALIFIER = new Set(
  "export const let var val def set local my our your his her their the a an this self private public protected static final readonly declare string str int auto".split(
    " ",
  ),
);

/**
 * The field name an assignment gives: its identifier, plus the word before it when the name is a
 * single word in prose, so "GPG key: …" reads as `GPG_key` and "SMTP pass: …" as `SMTP_pass`.
 */
function assignedField({ groups, text, matchStart }: Candidate): SecretField | undefined {
  const name = groups.name ?? "";
  if (/^[A-Za-z]+$/.test(name)) {
    const before = /([A-Za-z][A-Za-z0-9]*)[ \t]+$/.exec(
      text.slice(Math.max(0, matchStart - 40), matchStart),
    )?.[1];
    if (before !== undefined && !NOT_A_QUALIFIER.has(before.toLowerCase()))
      return secretField(`${before}_${name}`);
  }
  return secretField(name);
}

/** Bare values lose sentence punctuation; in a query string (`?user=a&password=b&ssl=1`) they end at `&`. */
function trimAssignment(candidate: Candidate): string {
  if (candidate.groups.quoted !== undefined) return candidate.value;
  const before = candidate.text[candidate.matchStart - 1];
  const value = before === "?" || before === "&" ? (candidate.value.split("&")[0] ?? "") : candidate.value;
  return trimSentenceEnd({ ...candidate, value });
}

function decodesToUserAndPassword({ value }: Candidate): Confidence | null {
  const decoded = Buffer.from(value, "base64").toString("latin1");
  const match = /^([\x21-\x39\x3b-\x7e]{1,100}):([\x20-\x7e]{1,200})$/.exec(decoded);
  return match !== null && looksLikeBasicPassword(match[2] ?? "") ? "medium" : null;
}

function looksLikeBasicPassword(password: string): boolean {
  return password.length >= 4 && !/^(?:password|pass|secret|changeme)$/i.test(password);
}

/**
 * How many of lower case, upper case, digits and any other character a value mixes: a login's
 * password is told from a name by three of them. (`charClasses` leaves `-`, `_`, `.` out of its
 * symbols, for identifiers; here they count.)
 */
function classCount(value: string): number {
  return [/[a-z]/u, /[A-Z]/u, /\d/u, /[^A-Za-z0-9]/u].filter((test) => test.test(value)).length;
}

export const GENERIC_RULES: readonly SecretRule[] = [
  {
    id: "bearer-token",
    kind: "bearer-token",
    reason:
      '`Bearer <token>` (an `Authorization` header, Mem0\'s `Bearer ` prefix): 16 or more RFC 6750 token characters that pass the generic token test, so "bearer tokens expire" never matches.',
    confidence: "medium",
    keywords: ["bearer"],
    pattern: pattern(String.raw`(?<![A-Za-z0-9])bearer[ \t]+(?<value>[A-Za-z0-9\-._~+/]{16,1000}=*)`, "i"),
    generic: true,
    assess: ({ value }) => (looksLikeToken(value) ? "medium" : null),
  },
  {
    id: "basic-auth-header",
    kind: "basic-auth-header",
    reason:
      '`Authorization: Basic <base64>`: the value must decode to printable `user:password` with a non-trivial password, so "basic plan" or "Basic information" never match.',
    confidence: "medium",
    keywords: ["basic"],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9])basic[ \t]+(?<value>[A-Za-z0-9+/]{8,500}={0,2})(?![A-Za-z0-9+/=])`,
      "i",
    ),
    assess: decodesToUserAndPassword,
  },
  {
    id: "password-assignment",
    kind: "password",
    reason:
      "A field whose name has a password word (`password`, `passwd`, `pwd`, `pass`, `passphrase`, `DB_PASSWORD`, `dbPassword`, `--password`) assigned with `=`, `:`, `:=`, `=>` or `->` (env files, YAML, JSON, code, CLI flags, query strings). The value needs six characters mixing letters with digits or symbols.",
    confidence: "medium",
    keywords: ["pass", "pwd", "pw"],
    pattern: pattern(ASSIGNMENT),
    generic: true,
    trim: trimAssignment,
    assess: (candidate) =>
      assignedField(candidate) === "password" && looksLikePassword(candidate.value) && !isCall(candidate)
        ? "medium"
        : null,
  },
  {
    id: "password-phrase",
    kind: "password",
    reason:
      'Prose that gives a password: "my password is …", "the wifi password is …", "the password for the staging db was changed to …", "the admin pw for grafana is …", "wifi password at home: …", "email password — …", the value on the next line, and the word in other languages ("contraseña del router: …", "Passwort fürs VPN: …", "パスワード：…"). Same value test as `password-assignment`, so "the password is in 1Password" or "the password is too short" never match.',
    confidence: "medium",
    keywords: [
      "mdp",
      "pass",
      "pwd",
      "pw",
      "contrase",
      "clave",
      "senha",
      "mot de passe",
      "passwort",
      "kennwort",
      "wachtwoord",
      "senord",
      "has",
      "parola",
      "salasana",
      "adgangskode",
      "пароль",
      "パスワード",
      "pasuwaado",
      "密码",
      "密碼",
      "비밀번호",
    ],
    pattern: pattern(
      `(?<![A-Za-z0-9])(?:${PASSWORD_WORDS_ANY_LANGUAGE})s?${FOR_CLAUSE}${QUALIFIER}(?:${VERB}|${SEPARATOR})${PHRASE_VALUE}`,
      "i",
    ),
    generic: true,
    trim: trimSentenceEnd,
    assess: ({ value }) => (looksLikePassword(value) ? "medium" : null),
  },
  {
    id: "password-label",
    kind: "password",
    reason:
      'A password written right after its label, with no `is` or `:`: "Amazon login password Fakeberry960", "wifi pwd sunflower42". Only a value with letters and digits (or symbols) counts, so "password manager", "password reset link" or "passwords rotated" never match.',
    confidence: "medium",
    keywords: ["pass", "pwd", "pw"],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9])(?:password|passwd|pwd|pw|passcode)[ \t]+(?!is\b|was\b)(?<value>[^\s"'\`,;()\[\]{}<>]{6,128})`,
      "i",
    ),
    generic: true,
    trim: trimSentenceEnd,
    assess: ({ value }) =>
      looksLikePassword(value) && /\p{L}/u.test(value) && /[\d\W]/u.test(value) && !value.includes("/")
        ? "medium"
        : null,
  },
  {
    id: "login-pair",
    kind: "password",
    reason:
      'A login written as user and password: "router admin / Fake82jH@1jYZ", "root:Tr0ub4dor&3". The password must be eight characters or more with three of lower case, upper case, digits and symbols, and no slash or colon; the user info of a URL (`postgres://user:password@host`) is for the URL rules to read, so a name after `/` never starts one, and paths ("admin/settings") and ids ("user:1000") never match.',
    confidence: "medium",
    keywords: ["admin", "root", "user", "login"],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9/])(?:admin|administrator|root|user(?:name)?|login)[ \t]*[/:][ \t]*(?<value>[^\s"'\`,;/:()\[\]{}<>]{8,128})(?![:/\w])`,
      "i",
    ),
    generic: true,
    trim: trimSentenceEnd,
    assess: ({ value }) => {
      return classCount(value) >= 3 ? "medium" : null;
    },
  },
  {
    id: "wifi-qr",
    kind: "password",
    reason:
      "The Wi-Fi string a QR code holds (`WIFI:T:WPA;S:<network>;P:<password>;;`, the ZXing format every phone reads): the `P:` field is the password.",
    confidence: "high",
    keywords: ["wifi:"],
    pattern: pattern(String.raw`WIFI:(?:[^;\n]*;)*?P:(?<value>(?:\\.|[^;\\\n])+);`, "i"),
    assess: ({ value }) => (value.length >= 4 ? "high" : null),
  },
  {
    id: "otpauth-secret",
    kind: "one-time-code",
    reason:
      "A two-factor provisioning URI (`otpauth://totp/…?secret=<base32>`, what an authenticator's QR code holds): whoever has the secret makes every code.",
    confidence: "high",
    keywords: ["otpauth://"],
    pattern: pattern(
      String.raw`otpauth://(?:totp|hotp)/[^\s?]*\?(?:[^\s#]*&)?secret=(?<value>[A-Z2-7]{16,}=*)`,
      "i",
    ),
    assess: () => "high",
  },
  {
    id: "cli-password",
    kind: "password",
    reason:
      "A password on a command line: `sshpass -p '…'`, `docker login -u me -p …`, `mysql -p…`, `--password …`, `curl -u user:…`. `-p` counts only beside a command that logs in (`login`, `sshpass`, `mysql`, `psql`, `curl`…), and the value must look like a password (letters with digits or symbols, no `:` or `/`), so `docker run -p 8080:80`, `mkdir -p build2` or `pytest -p no:cacheprovider` never match.",
    confidence: "medium",
    keywords: ["-p", "--password", "-u", "--user"],
    pattern: pattern(
      String.raw`(?<=[ \t]|^)(?:(?:-p|--password)(?:[ \t]+|=)?|(?:-u|--user)[ \t]+[^\s:'"]+:)(?:["'](?<quoted>[^"'\r\n]{4,128})["']|(?<value>[^\s"':/]{4,128}))(?![^\s])`,
    ),
    generic: true,
    assess: ({ value, text }) =>
      looksLikePassword(value) &&
      /\p{L}/u.test(value) &&
      (/--password/u.test(text) || AUTH_COMMAND.test(text))
        ? "medium"
        : null,
  },
  {
    id: "account-password",
    kind: "password",
    reason:
      'An account and its password after a service\'s name: "spotify: olu_a / Afrobeat99", "Netflix — olu@mail.example / Jollof#2025", "lab server login: kenji / Sakura#2207". The account is one token (a handle or an email) after `:` or a dash, and a slash with spaces around it (or, after an email, a comma) parts it from the password, six characters or more with a letter and a digit (so a key holding `/` is never split). Without the label before it, "iOS 17 / Android14" is a comparison, not a login.',
    confidence: "medium",
    keywords: ["/", "@"],
    pattern: pattern(
      String.raw`(?:[:—–]|[ \t]-)[ \t]*(?:[\w.+-]+(?:@[\w.-]+)?[ \t]+/|[\w.+-]+@[\w.-]+\.[a-z]{2,}[ \t]*,)[ \t]+(?<value>[^\s"'\`,;/()\[\]{}<>]{6,64})(?![\w/])`,
    ),
    generic: true,
    trim: trimSentenceEnd,
    assess: ({ value }) => (/\p{L}/u.test(value) && /\d/u.test(value) ? "medium" : null),
  },
  {
    id: "secret-assignment",
    kind: "generic-secret",
    reason:
      "A field whose name has a secret word (`secret`, `token`, `key`, `api_key`, `auth`, `credentials`, `client_secret`, `X-API-Key`…) assigned a value that passes the generic token test: at least 10 characters, a letter, a digit (or 20+ mixed-case letters at ≥ 3.8 bits/char) and Shannon entropy ≥ 3.0 bits/char (2.5 for hex). Names ending in an attribute (`_id`, `_url`, `_hash`…) or qualifying `key`/`token` as data (`cache_key`, `max_tokens`) are excluded.",
    confidence: "medium",
    keywords: ["secret", "token", "key", "auth", "cred", "pat", "sessid", "sessionid"],
    pattern: pattern(ASSIGNMENT),
    generic: true,
    trim: trimAssignment,
    assess: (candidate) =>
      assignedField(candidate) === "secret" && looksLikeToken(candidate.value) && !isCall(candidate)
        ? "medium"
        : null,
  },
  {
    id: "secret-label",
    kind: "generic-secret",
    reason:
      'A key or token written right after the word, with no `is` or `:`: "vault unseal key 3kq9ZpX2…", "jupyter token 7fKq2mX9…". Only a value of 20 characters or more that passes the generic token test and is not only hex (a hash or fingerprint after "key" is not a secret), so "token bucket", "key rotation" or "key 3b9c0e…" never match.',
    confidence: "medium",
    keywords: ["key", "token", "secret"],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9_\-])(?:key|token|secret)[ \t]+(?<value>[A-Za-z0-9_\-+/=]{20,200})(?![A-Za-z0-9_\-+/=.@:])`,
      "i",
    ),
    generic: true,
    assess: ({ value }) => (looksLikeToken(value) && !/^[0-9a-f]+$/iu.test(value) ? "medium" : null),
  },
  {
    id: "login-lines",
    kind: "password",
    reason:
      "A login written as two lines, the account's email address and then the password alone on the next line, as notes and password exports list them. The password must be eight characters or more with three of lower case, upper case, digits and symbols, and neither an address nor a path.",
    confidence: "medium",
    keywords: ["@"],
    pattern: pattern(
      String.raw`(?<![^\n])[ \t]*[\w.+-]+@[\w-]+(?:\.[\w-]+)+[ \t]*\r?\n[ \t]*(?<value>[^\s]{8,64})[ \t]*(?![^\r\n])`,
    ),
    generic: true,
    assess: ({ value }) => {
      if (/[@/]/u.test(value) || !looksLikePassword(value)) return null;
      return classCount(value) >= 3 ? "medium" : null;
    },
  },
  {
    id: "pgpass-line",
    kind: "password",
    reason:
      "A line of PostgreSQL's password file (`~/.pgpass`, `hostname:port:database:username:password`): the fifth field. The port must be a number (or `*`) and the host start with a letter (or be `*`), so times and ratios never match.",
    confidence: "medium",
    keywords: [":"],
    pattern: pattern(
      String.raw`(?<![\w.:-])(?:[A-Za-z][\w.-]*|\*):(?:\d{2,5}|\*):(?:[\w.-]+|\*):(?:[\w.-]+|\*):(?<value>[^\s:]{6,128})(?![^\s])`,
    ),
    generic: true,
    assess: ({ value }) => (looksLikePassword(value) ? "medium" : null),
  },
  {
    id: "secret-phrase",
    kind: "generic-secret",
    reason:
      'Prose that gives a key or token: "the api key is …", "the staging token is now …", "client secret for the app is …". Same value test as `secret-assignment`.',
    confidence: "medium",
    keywords: ["key", "token", "secret", "credential"],
    pattern: pattern(
      String.raw`(?<![A-Za-z0-9])(?:api[ _\-]?key|access[ _\-]?key|secret[ _\-]?key|(?:auth|access|api|bot|bearer|refresh)[ _\-]?token|token|client[ _\-]?secret|secret|credentials?)${FOR_CLAUSE}${VERB}${PHRASE_VALUE}`,
      "i",
    ),
    generic: true,
    trim: trimSentenceEnd,
    assess: ({ value }) => (looksLikeToken(value) ? "medium" : null),
  },
];
