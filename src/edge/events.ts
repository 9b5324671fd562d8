/**
 * Events: the jobs a server ran (auto-dream runs, dreams asked for by a client, imports,
 * re-embeds, and the REST API's adds, which Mem0's clients follow by event id), with their status
 * and result, kept in memory for the life of the process and shared by every session of every edge
 * (the MCP server, the REST API). Committed dream runs
 * are also in the store; the event tools merge both.
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
}

/**
 * Finished events beyond this many of one scope are forgotten, oldest first (the store keeps dream
 * runs): per scope, so one busy caller cannot push another's events out.
 */
const KEEP_FINISHED = 500;

/**
 * @example
 * const events = new EventRegistry();
 * const event = events.start({ type: "dream", trigger: "auto", scope, scopeKey, job, summarize });
 * events.get(event.id)?.status; // "queued", then "running", then "succeeded" or "failed"
 */
export class EventRegistry {
  private readonly events = new Map<string, LucidEvent>();
  private readonly pending = new Set<Promise<unknown>>();

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
      return { event: this.get(event.id) as LucidEvent, result: outcome.value };
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
    this.forgetOld();
    return event;
  }

  private async execute<T>(
    id: string,
    input: EventInput<T>,
  ): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
    const started = this.clock.now();
    this.patch(id, { status: "running", updatedAt: started.toISOString() });
    const finish = (patch: Partial<LucidEvent>) => {
      const ended = this.clock.now();
      this.patch(id, {
        ...patch,
        updatedAt: ended.toISOString(),
        latencyMs: ended.getTime() - started.getTime(),
      });
    };
    try {
      const value = await input.job();
      finish({ status: "succeeded", result: value, summary: input.summarize(value) });
      return { ok: true, value };
    } catch (error) {
      const { code, message } = reportError(error);
      finish({ status: "failed", error: { code, message }, summary: `${code}: ${message}` });
      return { ok: false, error };
    }
  }

  private patch(id: string, patch: Partial<LucidEvent>): void {
    const event = this.events.get(id);
    if (event !== undefined) this.events.set(id, { ...event, ...patch });
  }

  private forgetOld(): void {
    const finished = new Map<string, LucidEvent[]>();
    for (const event of this.events.values()) {
      if (event.status !== "succeeded" && event.status !== "failed") continue;
      const ofScope = finished.get(event.scopeKey);
      if (ofScope === undefined) finished.set(event.scopeKey, [event]);
      else ofScope.push(event);
    }
    for (const events of finished.values()) {
      for (const event of events.slice(0, Math.max(0, events.length - KEEP_FINISHED))) {
        this.events.delete(event.id);
      }
    }
  }
}
