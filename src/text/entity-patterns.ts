/**
 * The regular-expression pass of entity extraction: technical tokens a part-of-speech tagger
 * splits into pieces (paths, URLs, packages, versions, identifiers) and quoted titles.
 *
 * Rules run in order over the text; each rule's matches are masked out before the next rule
 * runs, so `better-sqlite3@12.11.1` is one package and one version, not also an identifier, and
 * `src/app.ts` is a path, not a domain.
 *
 * @module
 */

import type { EntitySpan, EntityType } from "./entities.js";

interface Part {
  readonly type: EntityType;
  /** Offsets within the match. */
  readonly start: number;
  readonly end: number;
}

interface Rule {
  readonly pattern: RegExp;
  /** The entities in one match (offsets relative to the match), or none to reject it. */
  readonly read: (match: string, masked: string) => readonly Part[];
}

const MASK = "\u0000";
// The mask inside a regex character class, so no rule's match runs through claimed text.
const MASK_CLASS = String.raw`\u0000`;

// Letters, digits and `_` in any script: what may not touch a match on either side.
const W = String.raw`\p{L}\p{N}_`;
// One path segment: dots, dashes, `@` and `+` appear in real file and directory names.
const SEGMENT = String.raw`[${W}.@+~\-]+`;
// npm / PEP 440 version after `@` or `==`: an optional range operator, digits, a pre-release tag.
const VERSION_SPEC = String.raw`(?:[\^~]|[<>]=?|=)?\d+(?:\.\d+)*(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?`;

// Extensions common enough in memory text ("edit config.json") that a bare `name.ext` is a file.
// `js` with a capitalised stem is a product instead ("Node.js"), caught by the earlier rule.
const FILE_EXTENSIONS = (
  "ts tsx mts cts js jsx mjs cjs json jsonl md mdx txt rst yaml yml toml ini conf cfg env " +
  "lock py ipynb rb go rs java kt swift c h cc cpp hpp cs php lua sh bash zsh ps1 sql db " +
  "sqlite csv tsv xml html css scss vue svelte log pdf docx xlsx png jpg jpeg gif svg webp " +
  "zip gz tgz tar wasm proto graphql tf"
)
  .split(" ")
  .join("|");

// Top-level domains that make `word.tld` a domain. Lower case only, and no TLD that is also a
// common English word ("in", "it", "me", "no", "so", "us") or file extension ("md", "sh", "py"):
// "done.It" or "finished.so" with a missing space must not become a URL.
const TLDS = (
  "com org net io dev ai app co edu gov info biz xyz tech cloud site page tv gg ly uk eu " +
  "de fr nl ca au nz jp cn br ch"
)
  .split(" ")
  .join("|");

const TRAILING_PUNCTUATION = /[.,;:!?'"\]}>]$/u;
const HAS_LETTER = /\p{L}/u;
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const FILE_EXTENSION = /\.\p{L}[\p{L}\p{N}]{0,9}$/u;
const ABBREVIATION = /^(?:[^.]\.)+[^.]$/u;
const DATE_LIKE = /^\d{1,2}\.\d{1,2}\.\d{4}$/u;

/** Drops sentence punctuation after a match, and a `)` that closes a parenthesis opened before it. */
function trimEnd(match: string): number {
  let end = match.length;
  for (;;) {
    const last = match.slice(0, end);
    if (TRAILING_PUNCTUATION.test(last)) end -= 1;
    else if (last.endsWith(")") && count(last, "(") < count(last, ")")) end -= 1;
    else return end;
  }
}

function count(text: string, char: string): number {
  let n = 0;
  for (const c of text) if (c === char) n += 1;
  return n;
}

/** The whole match, trailing punctuation trimmed, as one entity if `accept` likes it. */
function whole(type: EntityType, accept: (text: string) => boolean = () => true): Rule["read"] {
  return (match) => {
    const end = trimEnd(match);
    const text = match.slice(0, end);
    return text.length > 0 && accept(text) ? [{ type, start: 0, end }] : [];
  };
}

/** `name@1.2.3` / `name==1.2.3`: the package, and the version when it is a number. */
function packageWithVersion(match: string): readonly Part[] {
  const at = match.lastIndexOf("@") > 0 ? match.lastIndexOf("@") : match.indexOf("==");
  if (at <= 0) return whole("package")(match, match);
  const parts: Part[] = [{ type: "package", start: 0, end: at }];
  const version = /\d/u.exec(match.slice(at));
  if (version !== null) parts.push({ type: "version", start: at + version.index, end: match.length });
  return parts;
}

/** Absolute paths need two segments or an extension, so slash commands ("/help") are not paths. */
function isRootedPath(path: string): boolean {
  if (!path.startsWith("/")) return true;
  return path.split("/").filter(Boolean).length >= 2 || FILE_EXTENSION.test(path);
}

/** Relative paths need an extension or a trailing slash: "and/or", "TCP/IP" and "24/7" are not paths. */
function isRelativePath(path: string): boolean {
  return HAS_LETTER.test(path) && (FILE_EXTENSION.test(path) || path.endsWith("/"));
}

/** A bare file name has a letter before its extension and is not an abbreviation ("u.s.c", "a.m"). */
function isFileName(file: string): boolean {
  return HAS_LETTER.test(file.slice(0, file.lastIndexOf("."))) && !ABBREVIATION.test(file);
}

function isIpv4(address: string): boolean {
  const host = address.split(":")[0] ?? "";
  return host.split(".").every((octet) => Number(octet) <= 255);
}

// Everyday hyphenated English that is shaped like kebab-case: any part from this list, or a
// two-word compound ending in -ing/-ed ("decision-making", "open-minded"), is not an identifier.
const COMPOUND_PARTS: ReadonlySet<string> = new Set(
  (
    "a an the and or of to in on at by for with up down out off over under via per " +
    "self well non co re pre post semi anti multi ex mid all half full part long short high low " +
    "real open old new first second third one two three four five year years day days week weeks " +
    "month months time term end side based like free friendly related aware known made way"
  ).split(" "),
);
const COMPOUND_HEAD = /^[a-z]+(?:ing|[^e]ed)$/u;

function isKebabIdentifier(word: string): boolean {
  const parts = word.split("-");
  if (!HAS_LETTER.test(word) || parts.some((part) => part.length < 2 || COMPOUND_PARTS.has(part))) {
    return false;
  }
  const last = parts[parts.length - 1] ?? "";
  return !(parts.length === 2 && /^[a-z]+$/u.test(parts[0] ?? "") && COMPOUND_HEAD.test(last));
}

/** A quoted span is an entity when something other than already-claimed text is inside it. */
function quoted(match: string, masked: string): readonly Part[] {
  const inner = masked.slice(1, -1);
  const content = match.slice(1, -1);
  if (!HAS_LETTER_OR_DIGIT.test(inner) || content.trim().length < 2) return [];
  const start = 1 + (content.length - content.trimStart().length);
  const end = match.length - 1 - (content.length - content.trimEnd().length);
  return [{ type: "quoted", start, end }];
}

const rx = (source: string, flags = "gu") => new RegExp(source, flags);

const RULES: readonly Rule[] = [
  // URLs with a scheme first: everything inside them (paths, domains, versions) belongs to them.
  {
    pattern: rx(
      String.raw`(?<![${W}])(?:https?|ftp|wss?|ssh|git|file):\/\/[^\s<>"'\x60${MASK_CLASS}]+`,
      "giu",
    ),
    read: whole("url"),
  },
  // "Node.js", "Vue.js": products named after a file extension; not file names.
  {
    pattern: rx(String.raw`(?<![${W}.\/\-])\p{Lu}[\p{L}\p{N}]*\.js(?![${W}\-]|\.[\p{L}\p{N}])`),
    read: whole("name"),
  },
  // Windows paths: C:\foo\bar.
  {
    pattern: rx(String.raw`(?<![${W}])[A-Za-z]:\\[^\s<>"'|*?${MASK_CLASS}]+`),
    read: whole("path", (path) => path.length > 3),
  },
  // Rooted paths: /etc/nginx.conf, ~/.lucid/config.json, ./src, ../lib.
  {
    pattern: rx(String.raw`(?<![${W}.\/~:@\-\\])(?:~|\.\.?)?(?:\/${SEGMENT})+\/?`),
    read: whole("path", isRootedPath),
  },
  // Relative paths: src/app.ts, test/text/.
  {
    pattern: rx(String.raw`(?<![${W}.\/~:@\-\\])${SEGMENT}(?:\/${SEGMENT})+\/?`),
    read: whole("path", isRelativePath),
  },
  // Scoped packages, with an optional version: @scope/name, @scope/name@1.2.3.
  {
    pattern: rx(String.raw`(?<![${W}.\/@\-])@[a-z0-9][\w.\-]*\/[a-z0-9][\w.\-]*(?:@${VERSION_SPEC})?`, "giu"),
    read: packageWithVersion,
  },
  // Pinned packages: lodash@4.17.21, requests==2.31.0. The version must start with a digit, so
  // e-mail addresses (name@example.com) never match.
  {
    pattern: rx(
      String.raw`(?<![${W}.\/@\-])[a-z0-9][\w.\-]*(?:@|==)${VERSION_SPEC}(?![${W}]|\.[\p{L}\p{N}])`,
      "giu",
    ),
    read: packageWithVersion,
  },
  // Bare file names and dotfiles: config.json, README.md, .env, .gitignore.
  {
    pattern: rx(
      String.raw`(?<![${W}.\/~:@\-\\])[${W}\-]+(?:\.[${W}\-]+)*\.(?:${FILE_EXTENSIONS})(?![${W}\-]|\.[\p{L}\p{N}])`,
    ),
    read: whole("path", isFileName),
  },
  {
    pattern: rx(String.raw`(?<=^|[\s("'\x60])\.[a-z][a-z0-9_\-]*(?:\.[a-z0-9]+)*(?![${W}\-])`),
    read: whole("path"),
  },
  // IPv4 addresses, with an optional port: 10.0.0.1, 127.0.0.1:8080.
  {
    pattern: rx(String.raw`(?<![${W}.])(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?(?![${W}]|\.\d)`),
    read: whole("url", isIpv4),
  },
  // Domains, with an optional port and path: example.com, api.example.co.uk/v1, localhost:3000.
  {
    pattern: rx(
      String.raw`(?<![${W}.@\-\/])(?:(?:[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?\.)+(?:${TLDS})|localhost(?=:\d))(?::\d{1,5})?(?:\/[^\s<>"'\x60${MASK_CLASS}]*)?(?![${W}\-])`,
    ),
    read: whole("url"),
  },
  // Versions: a leading v (v2, v1.2.3-beta.1) or at least two dots (12.11.1). One dot is left
  // out: "3.5 hours", "$4.99" and "7.5/10" are far more common in memory text than "Python 3.11".
  {
    pattern: rx(
      String.raw`(?<![${W}.\-])(?:[vV]\d+(?:\.\d+)*|\d+(?:\.\d+){2,})(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?(?:\+[0-9A-Za-z.]+)?(?![${W}]|\.[\p{L}\p{N}])`,
    ),
    read: whole("version", (version) => !DATE_LIKE.test(version)),
  },
  // snake_case and SCREAMING_CASE: user_id, MAX_RETRIES, __private_field.
  {
    pattern: rx(String.raw`(?<![${W}\-])_*[A-Za-z0-9]+(?:_+[A-Za-z0-9]+)+_*(?![${W}\-])`),
    read: whole("identifier", (word) => HAS_LETTER.test(word)),
  },
  // camelCase: getUserById, iOS. PascalCase ("TypeScript") is left to the tagger as a name.
  {
    pattern: rx(String.raw`(?<![${W}\-])[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+(?![${W}\-])`),
    read: whole("identifier"),
  },
  // kebab-case: billing-api, lucid-memory, better-sqlite3; lower case only ("Jean-Luc" is a name).
  {
    pattern: rx(String.raw`(?<![${W}.@\/\-])[a-z0-9]+(?:-[a-z0-9]+)+(?![${W}@\/]|-[\p{L}\p{N}])`),
    read: whole("identifier", isKebabIdentifier),
  },
  // Quoted titles last, so a quoted identifier or path keeps its own type. No quote may hug a
  // space inside. Single quotes must not touch a letter outside ("Caroline's", "kids'"), and
  // inside them only an apostrophe between letters may appear ('Harry Potter and the
  // Philosopher's Stone').
  { pattern: rx(String.raw`"(?=[^\s"])[^"\n]{1,60}(?<=[^\s"])"`), read: quoted },
  {
    pattern: rx(
      String.raw`(?<![\p{L}\p{N}])'(?=[^\s'])(?:[^'\n]|(?<=\p{L})'(?=\p{L})){1,60}(?<=[^\s'])'(?![\p{L}\p{N}])`,
    ),
    read: quoted,
  },
];

/**
 * Technical entities and quoted titles in `text`, with their offsets.
 *
 * @example
 * findPatternEntities("see src/app.ts").map((span) => span.name); // => ["src/app.ts"]
 */
export function findPatternEntities(text: string): EntitySpan[] {
  const spans: EntitySpan[] = [];
  let masked = text;
  for (const rule of RULES) {
    const found: EntitySpan[] = [];
    for (const match of masked.matchAll(rule.pattern)) {
      const offset = match.index;
      const original = text.slice(offset, offset + match[0].length);
      for (const part of rule.read(original, match[0])) {
        const name = original.slice(part.start, part.end);
        found.push({ type: part.type, name, start: offset + part.start, end: offset + part.end });
      }
    }
    if (found.length === 0) continue;
    spans.push(...found);
    masked = mask(masked, found);
  }
  return spans;
}

function mask(text: string, spans: readonly EntitySpan[]): string {
  let out = "";
  let cursor = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    if (span.start < cursor) continue;
    out += text.slice(cursor, span.start) + MASK.repeat(span.end - span.start);
    cursor = span.end;
  }
  return out + text.slice(cursor);
}
