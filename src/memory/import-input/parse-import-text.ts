/**
 * An import file's text, in any format Lucid reads: JSONL of Lucid or Mem0 records (`lucid export`),
 * a JSON array of them, a Mem0 `getAll` or search dump (`{ "results": [...] }`, the platform's
 * `{ "count", "results" }` too), or the Markdown file Mem0's export skill writes. Each bad entry
 * becomes an error with its position and the reason; the good ones are still returned.
 *
 * @module
 */

import type { ImportRecord } from "../types.js";
import { importRecordOf } from "./import-fields.js";
import { isMem0Markdown, parseMem0Markdown } from "./mem0-markdown.js";

export type ImportFormat = "jsonl" | "json" | "mem0-markdown";

export interface ImportEntry {
  /** Where it is: the line for JSONL and Markdown, the 1-based record number in a JSON document. */
  line: number;
  record: ImportRecord;
}

export interface ImportEntryError {
  line: number;
  code: string;
  message: string;
}

/** Code of an entry that is not a memory at all (bad JSON, wrong types); the import's own codes cover the rest. */
export const INVALID_LINE = "INVALID_LINE";

/**
 * @example
 * parseImportText('{"results":[{"memory":"Likes tea","user_id":"alice"}]}');
 * // => { format: "json", records: [{ line: 1, record: { text: "Likes tea", user_id: "alice" } }], errors: [] }
 */
export function parseImportText(input: string): {
  format: ImportFormat;
  records: ImportEntry[];
  errors: ImportEntryError[];
} {
  const text = input.replace(/^\uFEFF/u, "");
  const records: ImportEntry[] = [];
  const errors: ImportEntryError[] = [];
  const add = (line: number, object: unknown) => {
    try {
      records.push({ line, record: importRecordOf(asObject(object)) });
    } catch (error) {
      errors.push({ line, code: INVALID_LINE, message: (error as Error).message });
    }
  };
  if (isMem0Markdown(text)) {
    for (const entry of parseMem0Markdown(text)) add(entry.line, entry.object);
    return { format: "mem0-markdown", records, errors };
  }
  const document = jsonDocument(text);
  if (document !== undefined) {
    for (const [index, object] of document.entries()) add(index + 1, object);
    return { format: "json", records, errors };
  }
  text.split(/\r?\n/u).forEach((line, index) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      errors.push({
        line: index + 1,
        code: INVALID_LINE,
        message: `not valid JSON (${(error as Error).message}).`,
      });
      return;
    }
    add(index + 1, value);
  });
  return { format: "jsonl", records, errors };
}

/** The records of a whole-file JSON document (an array, or a dump with `results`), else undefined. */
function jsonDocument(text: string): unknown[] | undefined {
  const start = text.trimStart()[0];
  if (start !== "[" && start !== "{") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return recordsOfDocument(value);
}

/**
 * The records of an import document: an array, or a Mem0 dump with a `results` array; undefined for
 * anything else (a single JSON object is one JSONL line).
 */
export function recordsOfDocument(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (
    typeof value === "object" &&
    value !== null &&
    Array.isArray((value as { results?: unknown }).results)
  ) {
    return (value as { results: unknown[] }).results;
  }
  return undefined;
}

function asObject(value: unknown): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(
      'not a JSON object; each entry must be one memory, e.g. {"text": "…", "user_id": "alice"}.',
    );
  }
  return value as Record<string, unknown>;
}
