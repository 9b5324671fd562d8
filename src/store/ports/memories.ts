/**
 * The memories sub-port: memory rows with their vector, keyword entry and entity links, written and
 * read as one. The only place a backend learns what a memory is.
 *
 * @module
 */

import type { Scope, ScopeKey } from "../../core/scope.js";
import type { FilterNode } from "../../filters/filter.js";
import type { EmbedderStamp } from "./maintenance.js";

/** A stored long-term memory, as the store keeps it (without its vector). */
export interface MemoryRow extends Readonly<Record<ScopeKey, string | null>> {
  readonly id: string;
  readonly text: string;
  /** sha256 of the normalised text: equal hashes in one scope are the same memory. */
  readonly hash: string;
  readonly category: string | null;
  readonly metadata: Readonly<Record<string, unknown>>;
  /** ISO-8601 UTC with milliseconds; ordering these strings orders the instants. */
  readonly createdAt: string;
  readonly updatedAt: string;
  /** An explicit expiry (Mem0's `expiration_date`), ISO-8601; category TTLs are applied at read time. */
  readonly expiresAt: string | null;
  /**
   * The conversation this memory came from, when it came from one: memories of one `add(messages)`
   * call, or of one run, share a thread and know their neighbours by `threadPosition`. A thread is
   * one scope's: memories of other scopes under the same name are never its neighbours.
   */
  readonly thread?: string | null;
  readonly threadPosition?: number | null;
  /** Who said it: the `name` of the message it came from (Mem0's `actor_id`). */
  readonly actorId?: string | null;
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

export interface FilteredQuery {
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

export interface MemoriesPort {
  insertMemory(memory: NewMemory): Promise<void>;
  updateMemory(id: string, patch: MemoryPatch): Promise<void>;
  /** Removes the memory, its vector, keyword index entry and entity links. */
  deleteMemory(id: string): Promise<void>;
  getMemory(id: string): Promise<MemoryRow | null>;
  /** In the order of `ids`; unknown ids are left out. */
  getMemories(ids: readonly string[]): Promise<MemoryRow[]>;
  /** Ids that start with `prefix`, in id order, at most `limit` (a short id typed by a person). */
  idsWithPrefix(prefix: string, limit: number): Promise<string[]>;
  findByHash(scope: Scope, hash: string): Promise<MemoryRow | null>;
  /** Newest first (createdAt, then id); `total` counts every match, not just the page. */
  listMemories(query: ListQuery): Promise<{ rows: MemoryRow[]; total: number }>;
  /** The stored vectors of these memories (unknown ids are left out). */
  getEmbeddings(ids: readonly string[]): Promise<Map<string, Float32Array>>;
  /** The position after the last memory of `scope` in `thread` (0 for a thread with none yet). */
  nextThreadPosition(thread: string, scope: Scope): Promise<number>;
  /** The entities a memory links to, by key. */
  getEntityLinks(id: string): Promise<EntityLink[]>;
  /**
   * The embedder the stored vectors come from (null before the first). Read where vectors are
   * written or searched, so a process opened before another one re-embedded the store notices.
   */
  embedderStamp(): Promise<EmbedderStamp | null>;
}
