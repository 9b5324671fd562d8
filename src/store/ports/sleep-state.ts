/**
 * The sleep-state sub-port: what sleep keeps about a workspace besides its recall records — small
 * JSON values by namespace and key (ingestion checkpoints, what a backfill wrote) — and an
 * append-only event log of what each phase did (`memory.recall.recorded`, `memory.promotion.applied`,
 * `memory.dream.completed`), which `lucid sleep status` and MCP list. Like the recalls sub-port, the
 * store keeps values as given; what they mean is the sleep service's.
 *
 * @module
 */

export interface SleepStateRecord {
  readonly key: string;
  /** A plain JSON value. */
  readonly value: unknown;
  /** When it was last written (ISO). */
  readonly updatedAt: string;
}

export interface SleepEventInput {
  /** `memory.recall.recorded`, `memory.promotion.applied`, `memory.dream.completed`, … */
  readonly type: string;
  /** When it happened (ISO). */
  readonly at: string;
  /** What it says beyond its type and time: phase, outcome, counts. A plain JSON object. */
  readonly data: Readonly<Record<string, unknown>>;
}

export interface SleepEvent extends SleepEventInput {
  /** Increasing in the order events were appended, across workspaces. */
  readonly seq: number;
}

export interface SleepStatePort {
  /** The namespace's records with these keys, in the order asked; unknown keys are left out. */
  getSleepState(workspace: string, namespace: string, keys: readonly string[]): Promise<SleepStateRecord[]>;
  /** Every record of the namespace, by key. */
  listSleepState(workspace: string, namespace: string): Promise<SleepStateRecord[]>;
  /** Inserts each record, or replaces the one with its key. */
  putSleepState(workspace: string, namespace: string, records: readonly SleepStateRecord[]): Promise<void>;
  deleteSleepState(workspace: string, namespace: string, keys: readonly string[]): Promise<void>;
  /**
   * Appends events to the workspace's log, in order; past `keep` events (default 5,000) the oldest of
   * that workspace go. Returns them with their sequence numbers. A `keep` that is not a positive
   * integer is refused with INVALID_ARGUMENT, before anything is appended.
   */
  appendSleepEvents(
    workspace: string,
    events: readonly SleepEventInput[],
    keep?: number,
  ): Promise<SleepEvent[]>;
  /**
   * The workspace's events, newest first (by `seq`): at most `limit` (default 100, held to
   * 1–10,000), of `type` when given.
   */
  listSleepEvents(
    workspace: string,
    options?: { readonly limit?: number; readonly type?: string },
  ): Promise<SleepEvent[]>;
}
