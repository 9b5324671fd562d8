import type { MemoryContext } from "../core/context.js";
import { type Filters, MATCH_ALL } from "../filters/filter.js";
import { parseFilters } from "../filters/parse-filters.js";
import type { MemoryRow } from "../store/ports/memories.js";
import type { ExportRecord } from "./types.js";

/**
 * `exportMemories`: every memory (or those matching `filters`), oldest first, expired ones too, from
 * one consistent snapshot of the store: a delete or an add that commits while the export runs is
 * not half seen. Keys come in a fixed order and absent scope keys are left out, so exporting the same
 * memories always gives the same bytes.
 */
export async function* exportMemories(
  context: MemoryContext,
  options: { filters?: Filters } = {},
): AsyncGenerator<ExportRecord> {
  const filter = options.filters === undefined ? MATCH_ALL : parseFilters(options.filters);
  for await (const page of context.store.streamMemories({ filter, order: "oldest" })) {
    for (const row of page) yield toExportRecord(row);
  }
}

export function toExportRecord(row: MemoryRow): ExportRecord {
  return {
    id: row.id,
    text: row.text,
    ...(row.user_id === null ? {} : { user_id: row.user_id }),
    ...(row.agent_id === null ? {} : { agent_id: row.agent_id }),
    ...(row.app_id === null ? {} : { app_id: row.app_id }),
    ...(row.run_id === null ? {} : { run_id: row.run_id }),
    ...(row.category === null ? {} : { category: row.category }),
    metadata: sortKeys(row.metadata) as Record<string, unknown>,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    ...(row.expiresAt === null ? {} : { expires_at: row.expiresAt }),
    ...(row.thread === undefined || row.thread === null
      ? {}
      : { thread: row.thread, thread_position: row.threadPosition ?? 0 }),
    ...(row.actorId === undefined || row.actorId === null ? {} : { actor_id: row.actorId }),
  };
}

/** Metadata with object keys sorted at every level, so its serialisation does not depend on insertion order. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, child]) => [key, sortKeys(child)]));
}
