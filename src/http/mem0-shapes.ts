/**
 * Lucid's results in the shapes of Mem0's platform API, snake_case (MemoryClient camelizes every
 * key but `metadata`): memories, history rows, pages and events.
 *
 * @module
 */

import type { LucidEvent } from "../edge/events.js";
import type { HistoryEntry, MemoryItem } from "../memory/types.js";

export type Wire = Record<string, unknown>;

/**
 * A memory as the platform sends it. Lucid keeps a memory's category in `metadata.category`; the
 * platform has a `categories` list beside the metadata, so it moves there.
 */
export function memoryOut(item: MemoryItem): Wire {
  const { category, ...metadata } = item.metadata;
  return {
    id: item.id,
    memory: item.memory,
    hash: item.hash,
    user_id: item.user_id ?? null,
    agent_id: item.agent_id ?? null,
    app_id: item.app_id ?? null,
    run_id: item.run_id ?? null,
    ...(item.actor_id === undefined ? {} : { actor_id: item.actor_id }),
    metadata,
    categories: typeof category === "string" ? [category] : [],
    created_at: item.createdAt,
    updated_at: item.updatedAt,
    expiration_date: item.expiration_date ?? null,
    ...(item.score === undefined ? {} : { score: item.score }),
    ...(item.score_details === undefined ? {} : { score_breakdown: item.score_details }),
  };
}

/** A history row as the platform's: `old_memory` / `new_memory` and the `event`. */
export function historyOut(entry: HistoryEntry, memory: MemoryItem | null): Wire {
  return {
    id: String(entry.id),
    memory_id: entry.memory_id,
    input: [],
    old_memory: entry.previous_value,
    new_memory: entry.new_value,
    user_id: memory?.user_id ?? null,
    categories: [],
    event: entry.action,
    metadata: {},
    actor: entry.actor,
    ...(entry.changed === undefined ? {} : { changed: entry.changed }),
    created_at: entry.created_at,
    updated_at: entry.created_at,
  };
}

/** The platform's page: `{count, next, previous, results}`, with `next` / `previous` as URLs. */
export function pageOut(
  url: string,
  page: { page: number; pageSize: number; total: number },
  results: readonly Wire[],
): Wire {
  const at = (number: number) => {
    const link = new URL(url);
    link.searchParams.set("page", String(number));
    link.searchParams.set("page_size", String(page.pageSize));
    return link.toString();
  };
  const last = Math.max(1, Math.ceil(page.total / page.pageSize));
  return {
    count: page.total,
    next: page.page < last ? at(page.page + 1) : null,
    previous: page.page > 1 ? at(Math.min(page.page - 1, last)) : null,
    results,
  };
}

/** What an add's event keeps (`routes/add.ts`): ids and what happened to each, no text. */
export interface KeptAdd {
  readonly count: number;
  readonly results: readonly { readonly id: string; readonly event: string }[];
}

/** The memory ids an add event names (none for other events). */
export function addedIds(event: LucidEvent): string[] {
  if (event.type !== "add") return [];
  return ((event.result as KeptAdd | null)?.results ?? []).map((item) => item.id);
}

/**
 * An event as `GET /v1/events/` lists it: Mem0's upper-case type and status (an add is `ADD`). An
 * add's results carry each memory's text as `memories` (read from the store by the route) has it
 * now: null once the memory is gone, since the event itself keeps no text.
 */
export function eventOut(event: LucidEvent, memories: ReadonlyMap<string, MemoryItem>): Wire {
  const isAdd = event.type === "add";
  const kept = isAdd ? ((event.result as KeptAdd | null)?.results ?? []) : [];
  return {
    id: event.id,
    event_type: event.type.toUpperCase(),
    // Mem0's statuses are PENDING, RUNNING, SUCCEEDED and FAILED: a queued job is pending.
    status: event.status === "queued" ? "PENDING" : event.status.toUpperCase(),
    payload: { scope: event.scope },
    metadata: { trigger: event.trigger, summary: event.summary },
    results: isAdd
      ? kept.map(({ id, event: what }) => {
          const memory = memories.get(id)?.memory ?? null;
          return { id, event: what, memory, data: { memory } };
        })
      : event.result,
    created_at: event.createdAt,
    updated_at: event.updatedAt,
    started_at: event.createdAt,
    completed_at: event.status === "succeeded" || event.status === "failed" ? event.updatedAt : null,
    latency: event.latencyMs,
    graph_status: null,
    error: event.error?.message ?? null,
  };
}
