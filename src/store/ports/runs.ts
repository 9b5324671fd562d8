/**
 * The run ledger: every consolidation run (a dream, later a sleep) with what it changed and the
 * preimage of each change, so the run can be undone exactly. A change is a memory row (its row,
 * vector and entity links before, and its hash and update time after) or a file (its bytes before,
 * and their sha256 after), so a run that rewrites `MEMORY.md` restores it byte for byte.
 *
 * @module
 */

import type { Scope } from "../../core/scope.js";
import type { EntityLink, MemoryRow } from "./memories.js";

/** A JSON value as the ledger returns it: what `JSON.parse` gives back. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | JsonObject;
export interface JsonObject {
  readonly [key: string]: JsonValue;
}

/** What undo needs to put a memory back exactly as it was. */
export interface MemoryPreimage {
  readonly row: MemoryRow;
  readonly embedding: Float32Array | null;
  readonly entities: readonly EntityLink[];
}

/** A memory a run touched: how it was before (null if the run created it) and after (null if deleted). */
export interface MemoryChange {
  readonly kind: "memory";
  readonly memoryId: string;
  readonly before: MemoryPreimage | null;
  readonly after: { readonly hash: string; readonly updatedAt: string } | null;
}

/** A file a run wrote: its bytes before (null if the run created it) and their digest after (null if removed). */
export interface FileChange {
  readonly kind: "file";
  /** As the run named it (absolute, or relative to the workspace the run names in its record). */
  readonly path: string;
  readonly before: Uint8Array | null;
  readonly after: { readonly sha256: string } | null;
}

export type RunChange = MemoryChange | FileChange;

interface RunFields {
  readonly id: string;
  /** What made the run: `dream`, `sleep`… */
  readonly kind: string;
  /** The scope's stable key (`scopeKey(scope)`), or what else the run is about (a workspace). */
  readonly scopeKey: string;
  readonly scope: Scope;
  readonly mode: string;
  readonly startedAt: string;
  readonly committedAt: string;
  readonly undoneAt: string | null;
}

/**
 * A run to record. Its plan, decisions and outcome are any JSON-serialisable objects (the service's
 * own types); they come back as JSON, for the service to parse.
 */
export interface NewRunRecord extends RunFields {
  readonly plan: object;
  readonly decisions: object;
  readonly outcome: object;
}

/** A recorded run, as read back. */
export interface RunRecord extends RunFields {
  readonly plan: JsonObject;
  readonly decisions: JsonObject;
  readonly outcome: JsonObject;
}

export interface RunQuery {
  /** Only runs of this kind. */
  readonly kind?: string;
  /** Only runs with this key; all when omitted. */
  readonly scopeKey?: string;
  /**
   * Only runs whose scope lies within this one: it has each of its keys with the same value, and
   * may have more (an agent's run within its user's scope). Checked in the store, so a scope's runs
   * are found however many other scopes' runs are newer.
   */
  readonly within?: Scope;
  readonly limit: number;
}

export interface RunsPort {
  insertRun(run: NewRunRecord, changes: readonly RunChange[]): Promise<void>;
  /** The run with its changes: memories by id, then files by path. */
  getRun(id: string): Promise<{ run: RunRecord; changes: RunChange[] } | null>;
  /** Newest first. */
  listRuns(query: RunQuery): Promise<RunRecord[]>;
  markRunUndone(id: string, at: string): Promise<void>;
}
