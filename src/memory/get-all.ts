import type { MemoryContext } from "../core/context.js";
import { readFilter } from "../core/read-filter.js";
import { readVisibility } from "../core/visibility.js";
import { LucidError } from "../errors.js";
import { toMemoryItem } from "./to-item.js";
import type { GetAllOptions, GetAllResult } from "./types.js";

export const DEFAULT_PAGE_SIZE = 100;

/**
 * `getAll`: a scope's memories, newest first, a page at a time with the total count. Mem0 silently
 * returns at most 20; here nothing is cut without `hasMore` saying so.
 */
export async function getAllMemories(
  context: MemoryContext,
  options: GetAllOptions = {},
): Promise<GetAllResult> {
  const page = positiveInteger(options.page ?? 1, "page");
  const pageSize = positiveInteger(options.pageSize ?? options.topK ?? DEFAULT_PAGE_SIZE, "pageSize");
  const filter = readFilter(options, "getAll");
  const { rows, total } = await context.store.listMemories({
    filter,
    visibleAt: readVisibility(context, options.showExpired, options.referenceDate),
    limit: pageSize,
    offset: (page - 1) * pageSize,
  });
  return {
    results: rows.map((row) => toMemoryItem(row, context.timeZone)),
    total,
    page,
    pageSize,
    hasMore: page * pageSize < total,
  };
}

function positiveInteger(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `${name} must be a positive integer, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}
