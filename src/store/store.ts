/**
 * The MemoryStore port: everything Lucid needs from a database, and nothing about which one.
 *
 * Every method is async, even on synchronous SQLite, so that PostgreSQL can implement the same
 * contract. Backends live in sibling folders (`sqlite/`, `postgres/`) and are tested by one
 * contract suite (`test/store/contract.ts`).
 *
 * @module
 */

import type { FilterNode, ScopeKey } from "../filters/filter.js";

export type Scope = Partial<Record<ScopeKey, string>>;

/** A stored long-term memory, as the store keeps it (without its vector). */
export interface MemoryRow {
  readonly id: string;
  readonly text: string;
  /** sha256 of the normalised text: equal hashes in one scope are the same memory. */
  readonly hash: string;
  readonly user_id: string | null;
  readonly agent_id: string | null;
  readonly app_id: string | null;
  readonly run_id: string | null;
  readonly category: string | null;
  readonly metadata: Readonly<Record<string, unknown>>;
  /** ISO-8601 UTC with milliseconds; ordering these strings orders the instants. */
  readonly createdAt: string;
  readonly updatedAt: string;
  /** An explicit expiry (Mem0's `expiration_date`), ISO-8601; category TTLs are applied at read time. */
  readonly expiresAt: string | null;
}

/** An entity mention to link a memory to; `key` is the matching key (lower-cased name). */
export interface EntityLink {
  readonly key: string;
  readonly name: string;
  readonly type: string;
}

export interface NewMemory extends MemoryRow {
  readonly embedding: Float32Array;
  readonly entities: readonly EntityLink[];
}

/** The fields an update may replace; embedding and entities are replaced together with the text. */
export interface MemoryPatch {
  readonly text: string;
  readonly hash: string;
  readonly category: string | null;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly updatedAt: string;
  readonly expiresAt: string | null;
  readonly embedding?: Float32Array;
  readonly entities?: readonly EntityLink[];
}

/**
 * Which memories are live at an instant: an explicit `expiresAt` in the past, or a category whose
 * time-to-live has run out since `createdAt`, hides a memory from reads (it is never deleted by one).
 */
export interface Visibility {
  readonly now: string;
  readonly ttlDaysByCategory: Readonly<Record<string, number>>;
}

interface FilteredQuery {
  readonly filter: FilterNode;
  /** Omit to include expired memories. */
  readonly visibleAt?: Visibility;
}

export interface ListQuery extends FilteredQuery {
  readonly limit: number;
  readonly offset: number;
  /** `newest` (default): createdAt descending; `oldest`: ascending. Ties are broken by id either way. */
  readonly order?: "newest" | "oldest";
}

export interface DenseQuery extends FilteredQuery {
  readonly vector: Float32Array;
  readonly k: number;
}

export interface KeywordQuery extends FilteredQuery {
  /** A backend-neutral list of search terms (already stop-word filtered); OR-ed. */
  readonly terms: readonly string[];
  readonly k: number;
}

export interface EntityQuery extends FilteredQuery {
  readonly keys: readonly string[];
  readonly limit: number;
}

export interface DenseHit {
  readonly id: string;
  /** Cosine similarity in [-1, 1]. */
  readonly similarity: number;
}

export interface KeywordHit {
  readonly id: string;
  /** BM25, higher is better, unbounded. */
  readonly bm25: number;
}

export interface EntityHit {
  readonly id: string;
  readonly key: string;
  /** How many memories that pass the query's filter link to this entity. */
  readonly linkCount: number;
}

export const HISTORY_ACTIONS = ["ADD", "UPDATE", "DELETE"] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

export interface NewHistoryRow {
  readonly memoryId: string;
  readonly action: HistoryAction;
  readonly previousValue: string | null;
  readonly newValue: string | null;
  /** Who made the change: `"user"` for SDK calls, `"dream:<run-id>"` for dream runs… */
  readonly actor: string;
  readonly createdAt: string;
}

export interface HistoryRow extends NewHistoryRow {
  readonly seq: number;
}

export interface StoredMessage {
  readonly role: string;
  readonly content: string;
  readonly name: string | null;
  readonly createdAt: string;
}

/** The embedder a store was written with. */
export interface EmbedderStamp {
  readonly id: string;
  readonly dimension: number;
}

export interface StoreStats {
  readonly total: number;
  /** Memories hidden by the visibility rule given to `stats`. */
  readonly expired: number;
  /** Memories per value of each scope key (memories without the key are not counted under it). */
  readonly byScope: Readonly<Record<ScopeKey, Readonly<Record<string, number>>>>;
  /** Memories per category; uncategorised ones are counted under `""`. */
  readonly byCategory: Readonly<Record<string, number>>;
  /** Bytes on disk, or null when the store has no file. */
  readonly sizeBytes: number | null;
}

/** A vector to store for a memory during re-embedding. */
export interface MemoryVector {
  readonly id: string;
  readonly embedding: Float32Array;
}

export interface StoreCapabilities {
  /** Dense search is approximate (an ANN index) rather than exact. */
  readonly ann: boolean;
  /** Several processes may write at once without serialising on one lock. */
  readonly concurrentWriters: boolean;
}

/** What undo needs to put a memory back exactly as it was. */
export interface MemoryPreimage {
  readonly row: MemoryRow;
  readonly embedding: Float32Array | null;
  readonly entities: readonly EntityLink[];
}

/** A memory a dream run touched: how it was before (null if the run created it) and after (null if deleted). */
export interface RunMemory {
  readonly memoryId: string;
  readonly before: MemoryPreimage | null;
  readonly after: { readonly hash: string; readonly updatedAt: string } | null;
}

export interface DreamRunRecord {
  readonly id: string;
  /** The scope's stable key (`user_id=alice&…`). */
  readonly scopeKey: string;
  readonly scope: Scope;
  readonly mode: string;
  /** JSON values: the plan, the decisions taken on it, and the per-action outcome with counts. */
  readonly plan: unknown;
  readonly decisions: unknown;
  readonly outcome: unknown;
  readonly startedAt: string;
  readonly committedAt: string;
  readonly undoneAt: string | null;
}

/** The auto-dream gate's memory of a scope. */
export interface DreamGateState {
  readonly lastConsolidatedAt: string | null;
  readonly sessionsSince: number;
  readonly lastSessionId: string | null;
}

export interface LeaseHolder {
  readonly holder: string;
  readonly host: string;
  readonly pid: number;
}

export interface Lease extends LeaseHolder {
  readonly acquiredAt: string;
  readonly expiresAt: string;
}

export type LeaseResult =
  | { readonly acquired: true; readonly lease: Lease }
  | { readonly acquired: false; readonly heldBy: Lease };

/** The operations available both on a store and inside one of its transactions. */
export interface MemoryStoreOps {
  insertMemory(memory: NewMemory): Promise<void>;
  updateMemory(id: string, patch: MemoryPatch): Promise<void>;
  /** Removes the memory, its vector, keyword index entry and entity links. */
  deleteMemory(id: string): Promise<void>;
  getMemory(id: string): Promise<MemoryRow | null>;
  /** In the order of `ids`; unknown ids are left out. */
  getMemories(ids: readonly string[]): Promise<MemoryRow[]>;
  findByHash(scope: Scope, hash: string): Promise<MemoryRow | null>;
  /** Newest first (createdAt, then id); `total` counts every match, not just the page. */
  listMemories(query: ListQuery): Promise<{ rows: MemoryRow[]; total: number }>;
  searchDense(query: DenseQuery): Promise<DenseHit[]>;
  searchKeyword(query: KeywordQuery): Promise<KeywordHit[]>;
  searchEntities(query: EntityQuery): Promise<EntityHit[]>;
  /** The stored vectors of these memories (unknown ids are left out). */
  getEmbeddings(ids: readonly string[]): Promise<Map<string, Float32Array>>;
  addHistory(row: NewHistoryRow): Promise<void>;
  /** Oldest first. */
  listHistory(memoryId: string): Promise<HistoryRow[]>;
  /** Appends to a session's message log, keeping only its newest `keepLast` messages. */
  addMessages(sessionScope: string, messages: readonly StoredMessage[], keepLast: number): Promise<void>;
  listMessages(sessionScope: string): Promise<StoredMessage[]>;
  stats(visibility: Visibility): Promise<StoreStats>;
  getEntityLinks(id: string): Promise<EntityLink[]>;
  insertDreamRun(run: DreamRunRecord, memories: readonly RunMemory[]): Promise<void>;
  getDreamRun(id: string): Promise<{ run: DreamRunRecord; memories: RunMemory[] } | null>;
  /** Newest first; all scopes when `scopeKey` is null. */
  listDreamRuns(scopeKey: string | null, limit: number): Promise<DreamRunRecord[]>;
  markDreamRunUndone(id: string, at: string): Promise<void>;
  dreamGateState(scopeKey: string): Promise<DreamGateState>;
  /** Counts an interactive session for the gate; false when this id was already counted. */
  recordSession(scopeKey: string, sessionId: string, trigger: string, at: string): Promise<boolean>;
  /** A dream run committed: the time gate restarts and the session count goes back to zero. */
  recordDreamCompletion(scopeKey: string, at: string): Promise<void>;
  /**
   * Takes the scope's dream lease atomically when it is free, expired (at or before `now`) or
   * already ours; otherwise reports who holds it.
   */
  acquireLease(scopeKey: string, holder: LeaseHolder, now: string, ttlMs: number): Promise<LeaseResult>;
  /** Releases the lease if `holder` still holds it. */
  releaseLease(scopeKey: string, holder: string): Promise<void>;
  /** Re-embedding, step 2: memories that have no vector for the pending embedder yet, oldest first. */
  listUnembedded(limit: number): Promise<MemoryRow[]>;
  /** Re-embedding, step 3: stores vectors for the pending embedder. */
  writeReembedded(vectors: readonly MemoryVector[]): Promise<void>;
}

export interface MemoryStore extends MemoryStoreOps {
  readonly capabilities: StoreCapabilities;
  /** Where the data lives, for messages and `status` (a file path, a redacted URL). */
  readonly location: string;
  readonly schemaVersion: number;
  /**
   * Records the embedder on first use; afterwards refuses a different one with
   * `EMBEDDER_MISMATCH`, since vectors of two models cannot be compared.
   */
  bindEmbedder(stamp: EmbedderStamp): Promise<void>;
  embedderStamp(): Promise<EmbedderStamp | null>;
  /**
   * Re-embedding, step 1: prepares vectors for `target` beside the current ones. Resumes a run
   * for the same target; a run for another target is discarded.
   */
  beginReembed(target: EmbedderStamp): Promise<void>;
  /** The embedder a re-embedding run is filling vectors for, and how many memories still lack one. */
  pendingReembed(): Promise<{ target: EmbedderStamp; remaining: number } | null>;
  /**
   * Re-embedding, step 4: once every memory has a new vector, makes them the store's vectors and
   * `target` its embedder, in one transaction. Fails if any memory still lacks one.
   */
  finishReembed(): Promise<void>;
  /** Runs `fn` in one transaction: all of its writes commit together, or none do. */
  transaction<T>(fn: (tx: MemoryStoreOps) => Promise<T>): Promise<T>;
  /** Deletes every memory, history row, entity and message, and forgets the embedder. */
  reset(): Promise<void>;
  close(): Promise<void>;
}
