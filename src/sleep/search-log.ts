/**
 * A search log to replay (`lucid sleep record --file LOG.jsonl`): one search a line,
 * `{"at": ISO, "query": "…", "hits": [{"path": "memory/2026-11-04.md", "startLine": 4, "endLine": 5, "score": 0.93}]}`,
 * lines 1-based and inclusive. Parsed, never trusted: each bad line is reported with its number and
 * what is wrong, and the good ones are still returned.
 *
 * @module
 */

import type { RecallHitInput } from "./record-recalls.js";

export interface LoggedSearch {
  /** 1-based line of the log. */
  readonly line: number;
  readonly at: string;
  readonly query: string;
  readonly hits: readonly RecallHitInput[];
}

export interface LogError {
  readonly line: number;
  readonly message: string;
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/iu;

/**
 * @example
 * parseSearchLog('{"at":"2026-11-05T09:00:00Z","query":"kyoto","hits":[{"path":"memory/2026-11-04.md","startLine":3,"endLine":3,"score":0.9}]}');
 * // => { searches: [{ line: 1, at: "2026-11-05T09:00:00Z", query: "kyoto", hits: [ … ] }], errors: [] }
 */
export function parseSearchLog(text: string): { searches: LoggedSearch[]; errors: LogError[] } {
  const searches: LoggedSearch[] = [];
  const errors: LogError[] = [];
  text
    .replace(/^\uFEFF/u, "")
    .split(/\r?\n/u)
    .forEach((raw, index) => {
      const line = index + 1;
      if (raw.trim() === "") return;
      try {
        searches.push({ line, ...readSearch(JSON.parse(raw) as unknown) });
      } catch (error) {
        const message =
          error instanceof SyntaxError ? `not valid JSON (${error.message}).` : (error as Error).message;
        errors.push({ line, message });
      }
    });
  return { searches, errors };
}

function readSearch(value: unknown): Omit<LoggedSearch, "line"> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error('not a JSON object; each line is one search: {"at", "query", "hits"}.');
  }
  const { at, query, hits } = value as Record<string, unknown>;
  if (typeof at !== "string" || !INSTANT.test(at) || Number.isNaN(Date.parse(at))) {
    throw new Error(`"at" must be an ISO timestamp with its offset, got ${JSON.stringify(at)}.`);
  }
  if (typeof query !== "string" || query.trim() === "")
    throw new Error('"query" must be the text searched for.');
  if (!Array.isArray(hits)) throw new Error('"hits" must be a list.');
  return { at, query, hits: hits.map((hit, index) => readHit(hit, index)) };
}

function readHit(value: unknown, index: number): RecallHitInput {
  const where = `hits[${index}]`;
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error(`${where} must be an object.`);
  const { path, startLine, endLine, score, snippet } = value as Record<string, unknown>;
  if (typeof path !== "string" || path.trim() === "")
    throw new Error(`${where}.path must be a workspace-relative path.`);
  if (!Number.isInteger(startLine) || (startLine as number) < 1)
    throw new Error(`${where}.startLine must be a line number from 1.`);
  if (!Number.isInteger(endLine) || (endLine as number) < (startLine as number)) {
    throw new Error(`${where}.endLine must be a line number from startLine on.`);
  }
  if (typeof score !== "number" || !(score >= 0 && score <= 1))
    throw new Error(`${where}.score must be a number from 0 to 1.`);
  if (snippet !== undefined && typeof snippet !== "string") throw new Error(`${where}.snippet must be text.`);
  return {
    path,
    startLine: startLine as number,
    endLine: endLine as number,
    score,
    ...(snippet === undefined ? {} : { snippet }),
  };
}
