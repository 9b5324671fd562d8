/**
 * Validation of the values callers pass in: memory text, timestamps, ids, metadata.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import { IDENTITY_METADATA_KEYS } from "./scope.js";

export const DEFAULT_MAX_TEXT_BYTES = 32 * 1024;

/** Whitespace, format characters (zero-width space, joiners, BOM, soft hyphen) and controls only. */
const INVISIBLE_ONLY = /^[\s\p{Cf}\p{Cc}]*$/u;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;

/** `String.prototype.toWellFormed`, which ES2023's typings do not have yet. */
function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, "\uFFFD");
}

/** What `checkText` says of the text it checks: a memory's, or a search query. */
const TEXT_WORDS = {
  memory: {
    subject: "Memory text",
    pass: 'Pass the fact to remember, e.g. "User prefers tabs".',
    shorten: "Split it into smaller facts, or raise maxTextBytes.",
  },
  query: {
    subject: "The search query",
    pass: 'Pass what to look for, e.g. "which editor does the user prefer?".',
    shorten: "Shorten it: a query is held to the same limit as a memory (maxTextBytes).",
  },
} as const;

/** Trims and checks a memory's text (or a query); blank or oversized text is refused before anything is written. */
export function checkText(text: unknown, maxBytes: number, kind: keyof typeof TEXT_WORDS = "memory"): string {
  const words = TEXT_WORDS[kind];
  if (typeof text !== "string") {
    throw new LucidError("INVALID_ARGUMENT", `${words.subject} must be a string, got ${typeof text}.`);
  }
  // A lone surrogate cannot be stored as UTF-8: it would come back as U+FFFD while `add` returned
  // the original. It becomes U+FFFD here, so what is returned is what is stored.
  const trimmed = wellFormed(text).trim();
  if (INVISIBLE_ONLY.test(trimmed)) {
    throw new LucidError(
      "EMPTY_TEXT",
      trimmed.length === 0
        ? `${words.subject} is empty. ${words.pass}`
        : `${words.subject} has only invisible characters (zero-width spaces, joiners, control characters). ${words.pass}`,
    );
  }
  const bytes = Buffer.byteLength(trimmed, "utf8");
  if (bytes > maxBytes) {
    throw new LucidError(
      "TEXT_TOO_LONG",
      `${words.subject} is ${bytes} bytes, over the limit of ${maxBytes}. ${words.shorten}`,
      { details: { bytes, maxBytes } },
    );
  }
  return trimmed;
}

/** A timestamp as the store keeps it: ISO-8601 UTC with milliseconds. */
export function toIsoTimestamp(value: string | Date | number, what: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `${what} is not a valid date: ${JSON.stringify(value)}. Use an ISO-8601 string such as 2026-11-30T09:00:00Z.`,
    );
  }
  return date.toISOString();
}

export function checkId(id: unknown, what = "id"): string {
  if (typeof id !== "string" || id.trim().length === 0 || id.length > 200 || /\s/.test(id)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `${what} must be a non-empty string without whitespace (at most 200 characters), got ${JSON.stringify(id)}.`,
    );
  }
  return id;
}

/**
 * A deep copy of caller metadata without identity keys (they would let metadata spoof a scope), so
 * later changes to the caller's object never reach the store and the store never changes it.
 */
export function copyMetadata(metadata: unknown): Record<string, unknown> {
  if (metadata === undefined || metadata === null) return {};
  if (typeof metadata !== "object" || Array.isArray(metadata)) {
    throw new LucidError("INVALID_ARGUMENT", 'metadata must be a plain object, e.g. { source: "chat" }.');
  }
  let copy: Record<string, unknown>;
  try {
    copy = JSON.parse(JSON.stringify(metadata)) as Record<string, unknown>;
  } catch (error) {
    throw new LucidError("INVALID_ARGUMENT", "metadata must be JSON-serialisable (no cycles or BigInt).", {
      cause: error,
    });
  }
  for (const key of IDENTITY_METADATA_KEYS) delete copy[key];
  return copy;
}

/** `value` when it is a number from 0 to 1; `INVALID_ARGUMENT` naming the option otherwise. */
export function checkUnitInterval(value: unknown, name: string): number {
  if (typeof value !== "number" || !(value >= 0 && value <= 1)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `${name} must be a number from 0 to 1, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}
