/**
 * How recall signals are keyed, as OpenClaw keys them (`openclaw-dreaming.md` §4), so a workspace's
 * signals mean the same to both: an entry per snippet range, a claim hash per snippet text, a query
 * hash per query.
 *
 * @module
 */

import { createHash } from "node:crypto";

/** A snippet as stored: whitespace collapsed, trimmed, at most this many characters. */
export const MAX_SNIPPET_CHARS = 800;

/** `memory:<path>:<startLine>:<endLine>`: one entry per range of one note. */
export function recallKey(path: string, startLine: number, endLine: number): string {
  return `memory:${path}:${startLine}:${endLine}`;
}

/** The range's address as people and citations write it: `memory/2026-11-04.md#L3-L5`. */
export function noteAddress(path: string, startLine: number, endLine: number): string {
  return `${path}#L${startLine}-L${endLine}`;
}

/** The snippet as it is stored: one line, trimmed, cut to {@link MAX_SNIPPET_CHARS}. */
export function storedSnippet(text: string): string {
  return text.replace(/\s+/gu, " ").trim().slice(0, MAX_SNIPPET_CHARS);
}

/** The first 12 hex characters of the SHA-1 of the stored snippet: the same claim in any range. */
export function claimHash(snippet: string): string {
  return sha1(storedSnippet(snippet)).slice(0, 12);
}

/** The first 12 hex characters of the SHA-1 of the lower-cased query. */
export function queryHash(query: string): string {
  return sha1(query.toLowerCase()).slice(0, 12);
}

function sha1(text: string): string {
  return createHash("sha1").update(text, "utf8").digest("hex");
}
