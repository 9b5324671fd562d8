/**
 * What the event tools show: the server's own events (`EventRegistry`) and the store's committed
 * dream runs, as one list in one shape, within the call's scope. A run this process started appears
 * once, as its event.
 *
 * @module
 */

import { withinScope } from "../../core/scope.js";
import type { CallScope } from "../../edge/call-scope.js";
import type { EventRegistry, LucidEvent } from "../../edge/events.js";
import type { Memory } from "../../sdk/memory.js";

/** An event as the tools report it. `source` says where it came from. */
export interface EventView extends Omit<LucidEvent, "status" | "trigger"> {
  readonly status: LucidEvent["status"] | "undone";
  /** `auto` or `tool` for the server's events; the run's mode (`auto`, `interactive`…) for stored runs. */
  readonly trigger: string;
  readonly source: "server" | "store";
  /** The dream run id, for dream events that committed. */
  readonly runId: string | null;
}

/** Events and dream runs of the scope, newest first. */
export async function eventsInScope(
  memory: Memory,
  events: EventRegistry,
  scope: CallScope,
): Promise<EventView[]> {
  const own = events
    .list()
    .filter((event) => withinScope(event.scope, scope.scope))
    .map((event): EventView => ({ ...event, source: "server", runId: runIdOf(event.result) }));
  const known = new Set(own.flatMap((event) => (event.runId === null ? [] : [event.runId])));
  const runs = (await memory.dream.runs(scope.options, { limit: 100 })).filter((run) => !known.has(run.id));
  const stored = runs.map(
    (run): EventView => ({
      id: run.id,
      type: "dream",
      status: run.undoneAt === null ? "succeeded" : "undone",
      trigger: run.mode,
      scope: run.scope,
      scopeKey: run.scopeKey,
      createdAt: run.startedAt,
      updatedAt: run.undoneAt ?? run.committedAt,
      latencyMs: Date.parse(run.committedAt) - Date.parse(run.startedAt),
      summary: `dream run (${run.mode}) committed`,
      result: { runId: run.id, mode: run.mode, outcome: run.outcome },
      error: null,
      source: "store",
      runId: run.id,
    }),
  );
  return [...own, ...stored].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** `12ms`, `3.4s`, or `—` while it runs. */
export function formatLatency(ms: number | null): string {
  if (ms === null) return "—";
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`;
}

/** `2026-11-30 00:51:19`. */
export function formatTime(iso: string): string {
  return iso.slice(0, 19).replace("T", " ");
}

/** The run id inside a dream event's result (`ifDue` or `auto`), when it committed one. */
function runIdOf(result: unknown): string | null {
  if (typeof result !== "object" || result === null) return null;
  const direct = (result as { runId?: unknown }).runId;
  if (typeof direct === "string") return direct;
  return runIdOf((result as { result?: unknown }).result);
}
