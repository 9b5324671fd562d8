/**
 * Events: the jobs a server ran (auto-dream runs, dreams asked for by a client, imports,
 * re-embeds, and the REST API's adds, which Mem0's clients follow by event id), with their status
 * and a compact result (ids and counts, never stored text), kept in memory for the life of the
 * process — the latest finished ones only — and shared by every session of every edge (the MCP
 * server, the REST API). Committed dream runs are also in the store; the event tools merge both.
 *
 * @module
 */

import { randomUUID } from "node:crypto";
import { type Clock, systemClock } from "../clock.js";
import type { Scope } from "../core/scope.js";
import { reportError } from "./error-report.js";

export const EVENT_TYPES = ["dream", "import", "reembed", "add"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EVENT_STATUSES = ["queued", "running", "succeeded", "failed"] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export interface LucidEvent {
  readonly id: string;
  readonly type: EventType;
  readonly status: EventStatus;
  /** `auto` (started by the server, e.g. auto-dream) or `tool` (asked for by a client). */
  readonly trigger: "auto" | "tool";
  readonly scope: Scope;
  /** `user_id=alice&…` (see `scopeKey`). */
  readonly scopeKey: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Milliseconds from start to end, once finished. */
  readonly latencyMs: number | null;
  /** One line saying what happened, once finished. */
  readonly summary: string | null;
  /** What `keep` made of the job's result, once it succeeded (the caller of `track` gets it whole). */
  readonly result: unknown;
  readonly error: { readonly code: string; readonly message: string } | null;
}

export interface EventInput<T> {
  readonly type: EventType;
  readonly trigger: LucidEvent["trigger"];
  readonly scope: Scope;
  readonly scopeKey: string;
  readonly job: () => Promise<T>;
  /** The line shown for a finished job. */
  readonly summarize: (result: T) => string;
  /**
   * What the event keeps of the result: ids and counts, never a memory's text (an event outlives
   * its request, and the store has the text). Default: the whole result, for jobs whose result is
   * already that small (a dream's counts and run id).
   */
  readonly keep?: (result: T) => unknown;
}

/**
 * Finished events are forgotten oldest first beyond these caps (queued and running ones never are;
 * the store keeps dream runs). Per scope, so one busy caller cannot push another's events out; in
 * all, because a client that names a new `run_id` with every add makes a new scope each time, and a
 * per-scope cap alone would then keep everything. A client polls an add's event right after the
 * add and lists the latest few, so 200 a scope is plenty; 2,000 compact events (ids and counts, a
 * few hundred bytes each) bound the registry to about a megabyte.
 */
export const KEEP_FINISHED_PER_SCOPE = 200;
export const KEEP_FINISHED_TOTAL = 2_000;

/**
 * @example
 * const events = new EventRegistry();
 * const event = events.start({ type: "dream", trigger: "auto", scope, scopeKey, job, summarize });
 * events.get(event.id)?.status; // "queued", then "running", then "succeeded" or "failed"
 */
export class EventRegistry {
  private readonly events = new Map<string, LucidEvent>();
  private readonly pending = new Set<Promise<unknown>>();
  /** Ids of finished events in the order they finished, in all and per scope key (Sets keep order). */
  private readonly finished = new Set<string>();
  private readonly finishedOfScope = new Map<string, Set<string>>();

  /** Times events by `clock` (the Memory's, so tests and replays see their own time). */
  constructor(private readonly clock: Clock = systemClock) {}

  /** Starts `job` on a later tick and returns its event at once, queued. */
  start<T>(input: EventInput<T>): LucidEvent {
    const event = this.create(input);
    const done = new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
      this.execute(event.id, input),
    );
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done));
    return event;
  }

  /** Runs `job` now, as an event, and returns its result (or throws its error). */
  async track<T>(input: EventInput<T>): Promise<{ event: LucidEvent; result: T }> {
    const event = this.create(input);
    const done = this.execute(event.id, input);
    this.pending.add(done);
    try {
      const outcome = await done;
      if (!outcome.ok) throw outcome.error;
      return { event: outcome.event, result: outcome.value };
    } finally {
      this.pending.delete(done);
    }
  }

  get(id: string): LucidEvent | undefined {
    return this.events.get(id);
  }

  /** Newest first. */
  list(): LucidEvent[] {
    return [...this.events.values()].reverse();
  }

  /** A queued or running event of this type on exactly this scope. */
  active(type: EventType, scopeKey: string): LucidEvent | undefined {
    return this.list().find(
      (event) =>
        event.type === type &&
        event.scopeKey === scopeKey &&
        (event.status === "queued" || event.status === "running"),
    );
  }

  /** Makes `idle()` wait for `work` too: background steps that may start a job (gate checks). */
  hold(work: Promise<unknown>): void {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(settled);
    void settled.finally(() => this.pending.delete(settled));
  }

  /** Resolves when every started job has finished (before closing the store). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private create<T>(input: EventInput<T>): LucidEvent {
    const at = this.clock.now().toISOString();
    const event: LucidEvent = {
      id: `evt_${randomUUID()}`,
      type: input.type,
      status: "queued",
      trigger: input.trigger,
      scope: { ...input.scope },
      scopeKey: input.scopeKey,
      createdAt: at,
      updatedAt: at,
      latencyMs: null,
      summary: null,
      result: null,
      error: null,
    };
    this.events.set(event.id, event);
    return event;
  }

  private async execute<T>(
    id: string,
    input: EventInput<T>,
  ): Promise<{ ok: true; value: T; event: LucidEvent } | { ok: false; error: unknown }> {
    const started = this.clock.now();
    this.patch(id, { status: "running", updatedAt: started.toISOString() });
    const finish = (patch: Partial<LucidEvent>): LucidEvent => {
      const ended = this.clock.now();
      const event = this.patch(id, {
        ...patch,
        updatedAt: ended.toISOString(),
        latencyMs: ended.getTime() - started.getTime(),
      });
      this.forgetOld(id, event.scopeKey);
      return event;
    };
    try {
      const value = await input.job();
      const kept = input.keep === undefined ? value : input.keep(value);
      const event = finish({ status: "succeeded", result: kept, summary: input.summarize(value) });
      return { ok: true, value, event };
    } catch (error) {
      const { code, message } = reportError(error);
      finish({ status: "failed", error: { code, message }, summary: `${code}: ${message}` });
      return { ok: false, error };
    }
  }

  private patch(id: string, patch: Partial<LucidEvent>): LucidEvent {
    // Only finished events are forgotten, and an event is patched only until it finishes.
    const event = { ...(this.events.get(id) as LucidEvent), ...patch };
    this.events.set(id, event);
    return event;
  }

  /** Records `id` as finished, then forgets the oldest finished events beyond the caps. */
  private forgetOld(id: string, scopeKey: string): void {
    let ofScope = this.finishedOfScope.get(scopeKey);
    if (ofScope === undefined) {
      ofScope = new Set();
      this.finishedOfScope.set(scopeKey, ofScope);
    }
    ofScope.add(id);
    this.finished.add(id);
    if (ofScope.size > KEEP_FINISHED_PER_SCOPE) this.forget(oldest(ofScope));
    if (this.finished.size > KEEP_FINISHED_TOTAL) this.forget(oldest(this.finished));
  }

  private forget(id: string): void {
    const event = this.events.get(id) as LucidEvent;
    this.events.delete(id);
    this.finished.delete(id);
    const ofScope = this.finishedOfScope.get(event.scopeKey);
    ofScope?.delete(id);
    if (ofScope?.size === 0) this.finishedOfScope.delete(event.scopeKey);
  }
}

function oldest(ids: Set<string>): string {
  return ids.values().next().value as string;
}
