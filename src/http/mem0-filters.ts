/**
 * Mem0 platform filters (integrations.md §1.3) in Lucid's filter language: the same tree, with the
 * platform's own fields renamed — `categories` is Lucid's `category` column, `memory_ids` its `id`,
 * `timestamp` its `created_at`, and a `metadata: {key: value}` object becomes one condition per
 * key. A number in a time field is Unix seconds, as the platform's `timestamp` is (the SDK's are
 * milliseconds, JavaScript's). Scope keys, operators and `AND` / `OR` / `NOT` pass unchanged, and
 * `parseFilters` then checks them as it checks the SDK's.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import type { Filters } from "../filters/filter.js";
import { objectField } from "./body-fields.js";

const LOGICAL = new Set(["AND", "OR", "NOT", "$and", "$or", "$not"]);

/** Deeper than any filter a person or a client writes; a bound that keeps recursion off the stack's limit. */
const MAX_DEPTH = 32;

/** Fields the platform has and Lucid's memories do not. */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  keywords: "search by a query instead (POST /v3/memories/search/)",
  expiration_date: "pass show_expired to include expired memories",
};

/**
 * @example
 * mem0Filters({ AND: [{ user_id: "alice" }, { categories: { in: ["food"] } }] });
 * // { AND: [{ user_id: "alice" }, { category: { in: ["food"] } }] }
 */
export function mem0Filters(filters: unknown, path = "filters", depth = 0): Filters {
  if (depth > MAX_DEPTH) {
    throw new LucidError(
      "INVALID_FILTER",
      `${path}: filters nest at most ${MAX_DEPTH} levels of AND / OR / NOT deep; flatten the condition.`,
      { details: { path } },
    );
  }
  if (typeof filters !== "object" || filters === null || Array.isArray(filters)) {
    throw new LucidError(
      "INVALID_FILTER",
      `${path} must be an object, e.g. { "user_id": "alice" }; got ${Array.isArray(filters) ? "an array" : typeof filters}.`,
      { details: { path } },
    );
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    const where = `${path}.${key}`;
    if (LOGICAL.has(key)) {
      // The platform's NOT also takes one object; Lucid's takes a list.
      const children = Array.isArray(value) || !/^\$?not$/i.test(key) ? value : [value];
      out[key] = Array.isArray(children)
        ? children.map((child, index) => mem0Filters(child, `${where}[${index}]`, depth + 1))
        : mem0Filters(children, where, depth + 1);
    } else if (Object.hasOwn(UNSUPPORTED, key)) {
      throw new LucidError(
        "INVALID_FILTER",
        `${where}: Lucid's memories have no ${key} field to filter on; ${UNSUPPORTED[key]}.`,
        { details: { path: where } },
      );
    } else if (key === "categories") {
      out.category = categoryCondition(value, where);
    } else if (key === "memory_ids") {
      out.id = Array.isArray(value) ? { in: value } : value;
    } else if (key === "timestamp" || key === "created_at" || key === "updated_at") {
      out[key === "timestamp" ? "created_at" : key] = secondsToMilliseconds(value);
    } else if (key === "metadata") {
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        throw new LucidError(
          "INVALID_FILTER",
          `${where} must be an object of metadata keys, e.g. { "metadata": { "source": "chat" } }.`,
          { details: { path: where } },
        );
      }
      Object.assign(out, value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** Unix seconds (a bare number, or an operator's, or a list's) as epoch milliseconds; the rest as given. */
function secondsToMilliseconds(value: unknown): unknown {
  if (typeof value === "number") return value * 1000;
  if (Array.isArray(value)) return value.map(secondsToMilliseconds);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([name, operand]) => [name, secondsToMilliseconds(operand)]),
    );
  }
  return value;
}

/** A memory has one category in Lucid, so `contains` means "is". */
function categoryCondition(value: unknown, where: string): unknown {
  if (typeof value === "string" || Array.isArray(value)) return Array.isArray(value) ? { in: value } : value;
  const operators = value as Record<string, unknown> | null;
  if (operators !== null && typeof operators === "object") {
    if ("contains" in operators && Object.keys(operators).length === 1) return operators.contains;
    return operators;
  }
  throw new LucidError("INVALID_FILTER", `${where} takes { "in": ["food", …] } or { "contains": "food" }.`, {
    details: { path: where },
  });
}

/** `categories` and `metadata` beside the filters narrow as filters would. */
export function sideFilters(body: Record<string, unknown>): Filters | undefined {
  const parts: Filters[] = [];
  const categories = body.categories;
  if (categories !== undefined && categories !== null) {
    if (!Array.isArray(categories) || !categories.every((name) => typeof name === "string")) {
      throw new LucidError("INVALID_ARGUMENT", 'categories must be an array of names, e.g. ["food"].');
    }
    parts.push({ category: { in: categories } });
  }
  const metadata = objectField(body, "metadata");
  if (metadata !== undefined && Object.keys(metadata).length > 0) parts.push({ ...metadata });
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : { AND: parts };
}
