/**
 * The import format: JSONL, one memory a line, in Lucid's export form or Mem0's (`memory` for the
 * text, `createdAt` or `created_at`…). Each bad line becomes an error with its line number and the
 * reason; the good lines are still returned. Keys it does not know (Mem0's `hash`, `score`,
 * `categories`…) are ignored, so Mem0 exports load as they are.
 *
 * @module
 */

import { SCOPE_KEYS } from "../../core/scope.js";
import type { ImportRecord } from "../../memory/types.js";

export interface ImportLine {
  /** 1-based line number in the input. */
  line: number;
  record: ImportRecord;
}

export interface LineError {
  line: number;
  code: string;
  message: string;
}

/** Code of a line that is not a memory at all (bad JSON, wrong types); the SDK's codes cover the rest. */
export const INVALID_LINE = "INVALID_LINE";

/** A field and the names it may go by, first name preferred. */
const ALIASES = {
  text: ["text", "memory"],
  createdAt: ["created_at", "createdAt"],
  updatedAt: ["updated_at", "updatedAt"],
  expiresAt: ["expires_at", "expiresAt", "expiration_date"],
  thread: ["thread"],
  actorId: ["actor_id", "actorId"],
} as const;

export function parseImportLines(input: string): { records: ImportLine[]; errors: LineError[] } {
  const records: ImportLine[] = [];
  const errors: LineError[] = [];
  const lines = input.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((text, i) => {
    if (text.trim() === "") return;
    const line = i + 1;
    try {
      records.push({ line, record: toRecord(parseLine(text)) });
    } catch (error) {
      errors.push({ line, code: INVALID_LINE, message: (error as Error).message });
    }
  });
  return { records, errors };
}

function parseLine(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`not valid JSON (${(error as Error).message}).`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(
      'not a JSON object; each line must be one memory, e.g. {"text": "…", "user_id": "alice"}.',
    );
  }
  return value as Record<string, unknown>;
}

function toRecord(object: Record<string, unknown>): ImportRecord {
  const text = aliased(object, "text");
  if (text === undefined) throw new Error('has no "text" (or "memory").');
  const record: ImportRecord = { text };
  const id = optionalString(object, "id");
  if (id !== undefined) record.id = id;
  for (const key of SCOPE_KEYS) {
    const value = optionalString(object, key);
    if (value !== undefined) record[key] = value;
  }
  const category = optionalString(object, "category");
  if (category !== undefined) record.category = category;
  const metadata = object.metadata;
  if (metadata !== undefined && metadata !== null) {
    if (typeof metadata !== "object" || Array.isArray(metadata))
      throw new Error('"metadata" must be a JSON object.');
    record.metadata = metadata as Record<string, unknown>;
  }
  for (const field of ["createdAt", "updatedAt", "expiresAt", "thread", "actorId"] as const) {
    const value = aliased(object, field);
    if (value !== undefined) record[field] = value;
  }
  const position = object.thread_position ?? object.threadPosition;
  if (position !== undefined && position !== null) {
    if (typeof position !== "number" || !Number.isInteger(position) || position < 0)
      throw new Error(`"thread_position" must be a non-negative integer, got ${JSON.stringify(position)}.`);
    record.threadPosition = position;
  }
  return record;
}

/** The value under the field's first present name; two names with different values are an error. */
function aliased(object: Record<string, unknown>, field: keyof typeof ALIASES): string | undefined {
  const names = ALIASES[field].filter((name) => object[name] !== undefined && object[name] !== null);
  const values = names.map((name) => optionalString(object, name));
  if (new Set(values).size > 1) {
    throw new Error(`has both ${names.map((name) => `"${name}"`).join(" and ")} with different values.`);
  }
  return values[0];
}

function optionalString(object: Record<string, unknown>, key: string): string | undefined {
  const value = object[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new Error(`"${key}" must be a string, got ${JSON.stringify(value)}.`);
  return value;
}
