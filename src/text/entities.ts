/**
 * Entity mentions in memory text: the names, titles and technical tokens that let a question
 * about "Caroline" or "billing-api" find every memory that mentions them, whatever the wording.
 *
 * Two passes over the same text: regular expressions for technical tokens (see
 * `entity-patterns.ts`), then wink-nlp's part-of-speech tagger for proper nouns (see
 * `proper-nouns.ts`), skipping words the first pass already claimed.
 *
 * @module
 */

import { findPatternEntities } from "./entity-patterns.js";
import { findProperNouns } from "./proper-nouns.js";
import { straightenQuotes } from "./quotes.js";

export const ENTITY_TYPES = [
  /** A proper noun: a person, place, organisation or product ("Caroline", "New York", "AWS"). */
  "name",
  /** Text in quotation marks, usually a title ("Becoming Nicole", 'Dune'). */
  "quoted",
  /** A file-system path or file name ("/etc/nginx.conf", "src/app.ts", "~/.lucid", "config.json"). */
  "path",
  /** A package name, when written as one ("@scope/name", "lodash@4.17.21", "requests==2.31"). */
  "package",
  /** A version number: a leading `v` or at least two dots ("v2", "v1.2.3", "12.11.1"). */
  "version",
  /** A code identifier ("user_id", "getUserById", "MAX_RETRIES", "billing-api"). */
  "identifier",
  /** A URL, domain or IPv4 address ("https://example.com/x", "example.com", "10.0.0.1"). */
  "url",
] as const;

export type EntityType = (typeof ENTITY_TYPES)[number];

/** One entity mentioned in a text. */
export interface Entity {
  /** As written, minus surrounding quotes and trailing punctuation ("Caroline", "v1.2.3"). */
  readonly name: string;
  /**
   * What mentions are matched on: lower case, single spaces, a proper noun's possessive `'s`
   * dropped and a version's leading `v` dropped ("caroline", "1.2.3").
   */
  readonly key: string;
  readonly type: EntityType;
}

/** An entity found at `start`–`end` (UTF-16 offsets) in the text; internal to the extractors. */
export interface EntitySpan {
  readonly type: EntityType;
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

const WHITESPACE_RUN = /\s+/gu;
const POSSESSIVE = /'s?$/u;
const VERSION_PREFIX = /^v/u;
const MIN_LENGTH = 2;
// Longer than any name, path or URL worth matching on; what matches beyond it is a pasted blob.
const MAX_LENGTH = 512;

/**
 * The entities mentioned in `text`, in order of first appearance, one per key and type.
 *
 * Never throws; returns `[]` for empty text. Synchronous: the wink-nlp English model is loaded
 * on the first call (about 100 ms) and reused.
 *
 * @example
 * extractEntities("User's project lucid-memory uses better-sqlite3@12.11.1 and lives in ~/code/lucid");
 * // => [
 * //   { name: "lucid-memory", key: "lucid-memory", type: "identifier" },
 * //   { name: "better-sqlite3", key: "better-sqlite3", type: "package" },
 * //   { name: "12.11.1", key: "12.11.1", type: "version" },
 * //   { name: "~/code/lucid", key: "~/code/lucid", type: "path" },
 * // ]
 */
export function extractEntities(text: string): Entity[] {
  if (text.length === 0) return [];
  // Folding keeps every offset (see `straightenQuotes`), so both passes share one coordinate space.
  const folded = straightenQuotes(text);
  const patterns = findPatternEntities(folded);
  const spans = [...patterns, ...findProperNouns(folded, patterns)].sort((a, b) => a.start - b.start);

  const seen = new Set<string>();
  const entities: Entity[] = [];
  for (const span of spans) {
    const entity = toEntity(span);
    if (entity.name.length < MIN_LENGTH || entity.name.length > MAX_LENGTH) continue;
    const id = `${entity.type}\u0000${entity.key}`;
    if (seen.has(id)) continue;
    seen.add(id);
    entities.push(entity);
  }
  return entities;
}

function toEntity(span: EntitySpan): Entity {
  let name = span.name.replace(WHITESPACE_RUN, " ").trim();
  if (span.type === "name") name = name.replace(POSSESSIVE, "");
  let key = name.toLowerCase();
  if (span.type === "version") key = key.replace(VERSION_PREFIX, "");
  return { name, key, type: span.type };
}
