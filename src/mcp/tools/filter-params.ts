/**
 * Parameters shared by the reading tools: categories and Mem0-style filters, which only ever narrow
 * the call's scope (they are AND-ed with it).
 *
 * @module
 */

import { z } from "zod";
import type { Filters } from "../../filters/filter.js";

export const categoriesParam = z
  .array(z.string().min(1))
  .min(1)
  .optional()
  .describe('Only memories of these categories, e.g. ["preference", "rule"].');

export const filtersParam = z
  .record(z.string(), z.unknown())
  .optional()
  .describe(
    'Extra Mem0-style filters on metadata and dates, AND-ed with the scope, e.g. {"source": "chat"}, ' +
      '{"created_at": {"gte": "2026-01"}}, {"OR": [{"category": "rule"}, {"pinned": true}]}. ' +
      "They can only narrow the scope, never widen it.",
  );

/** The filters for `categories`, or nothing. */
export function categoryFilter(categories: readonly string[] | undefined): Filters | undefined {
  return categories === undefined ? undefined : { category: { in: [...categories] } };
}
