/**
 * One imported memory's fields, under Lucid's names or Mem0's (`memory` for the text, `created_at`,
 * `expiration_date`, `categories`…). Keys neither uses (Mem0's `hash`, `score`, `owner`…) are
 * ignored, so a Mem0 record loads as it is.
 *
 * @module
 */

import { SCOPE_KEYS, type Scope, scopeValue } from "../../core/scope.js";
import type { ImportRecord } from "../types.js";

const MAX_POSITION = 2_147_483_647;

/** A field and the names it may go by, first name preferred. */
const ALIASES = {
  text: ["text", "memory", "data"],
  createdAt: ["created_at", "createdAt"],
  updatedAt: ["updated_at", "updatedAt"],
  // The instant. Mem0's `expiration_date` (a day) is read only without one: a `getAll` item carries
  // both, and they never spell the same value.
  expiresAt: ["expires_at", "expiresAt", "expirationDate"],
  expirationDay: ["expiration_date"],
  thread: ["thread"],
  actorId: ["actor_id", "actorId"],
} as const;

/**
 * The record a JSON object describes.
 *
 * @throws Error with a message saying what is wrong (the caller adds where it is).
 * @example
 * importRecordOf({ memory: "Likes tea", user_id: "alice", created_at: "2024-05-01T10:00:00Z", hash: "…" });
 * // => { text: "Likes tea", user_id: "alice", createdAt: "2024-05-01T10:00:00Z" }
 */
export function importRecordOf(object: Record<string, unknown>): ImportRecord {
  const text = aliased(object, "text");
  if (text === undefined) throw new Error('has no "text" (or "memory").');
  const record: ImportRecord = { text };
  const id = optionalString(object, "id");
  if (id !== undefined) record.id = id;
  for (const key of SCOPE_KEYS) {
    const value = optionalScope(object, key);
    if (value !== undefined) record[key] = value;
  }
  const metadata = object.metadata;
  if (metadata !== undefined && metadata !== null) {
    if (typeof metadata !== "object" || Array.isArray(metadata))
      throw new Error('"metadata" must be a JSON object.');
    record.metadata = { ...(metadata as Record<string, unknown>) };
  }
  const category = optionalString(object, "category") ?? mem0Category(object, record);
  if (category !== undefined) record.category = category;
  for (const field of ["createdAt", "updatedAt", "expiresAt", "thread", "actorId"] as const) {
    const value = aliased(object, field);
    if (value !== undefined) record[field] = value;
  }
  const day = aliased(object, "expirationDay");
  if (record.expiresAt === undefined && day !== undefined) record.expiresAt = day;
  const position = object.thread_position ?? object.threadPosition;
  if (position !== undefined && position !== null) {
    // PostgreSQL keeps it in an integer column: past 2³¹ − 1 it would be the database's error.
    if (
      typeof position !== "number" ||
      !Number.isInteger(position) ||
      position < 0 ||
      position > MAX_POSITION
    )
      throw new Error(
        `"thread_position" must be an integer from 0 to ${MAX_POSITION}, got ${JSON.stringify(position)}.`,
      );
    record.threadPosition = position;
  }
  return record;
}

/**
 * Mem0's platform files a memory under a list of `categories`: one becomes the category, and the
 * list is kept in metadata either way, so nothing is lost.
 */
function mem0Category(object: Record<string, unknown>, record: ImportRecord): string | undefined {
  const categories = object.categories;
  if (categories === undefined || categories === null) return undefined;
  if (!Array.isArray(categories) || !categories.every((name) => typeof name === "string"))
    throw new Error('"categories" must be a list of names.');
  if (categories.length === 0) return undefined;
  record.metadata = { ...record.metadata, categories: [...categories] };
  return categories.length === 1 ? categories[0] : undefined;
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

/** A scope id may be a number in Mem0's data (`"user_id": 42`); `add` takes it as its string. */
function optionalScope(object: Record<string, unknown>, key: string): string | undefined {
  const value = object[key];
  return typeof value === "number" && Number.isFinite(value) ? String(value) : optionalString(object, key);
}

/**
 * The scope a record names, each id as stored (`scopeValue`); `{}` when it names none.
 *
 * @throws LucidError INVALID_ARGUMENT for a blank id or one with whitespace inside.
 */
export function recordScope(record: ImportRecord): Scope {
  const scope: Scope = {};
  for (const key of SCOPE_KEYS) {
    const value = scopeValue(key, record[key]);
    if (value !== undefined) scope[key] = value;
  }
  return scope;
}
