/**
 * The search sub-port: the three candidate generators of hybrid retrieval. Each applies the full
 * filter and the expiry rule itself, so every hit is a memory the caller may see.
 *
 * @module
 */

import type { FilteredQuery } from "./memories.js";

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
  /**
   * Only hits on these memories (the other generators' candidates). Links are still counted over
   * every memory the filter passes, so a memory's entity signal does not depend on which ids were asked.
   */
  readonly ids?: readonly string[];
}

/** Every hit says which thread its memory is in (null: none), so ranking needs no second read for it. */
interface ThreadOfHit {
  readonly thread?: string | null;
}

export interface DenseHit extends ThreadOfHit {
  readonly id: string;
  /** Cosine similarity in [-1, 1]. */
  readonly similarity: number;
}

export interface KeywordHit extends ThreadOfHit {
  readonly id: string;
  /** BM25, higher is better, unbounded. */
  readonly bm25: number;
}

export interface EntityHit extends ThreadOfHit {
  readonly id: string;
  readonly key: string;
  /** How many memories that pass the query's filter link to this entity. */
  readonly linkCount: number;
}

export interface SpeakerQuery extends FilteredQuery {
  /** Names as the query writes them; matched without regard to case. */
  readonly names: readonly string[];
}

/** What ranking needs to know of a candidate beyond its signals: a narrow read, no metadata. */
export interface CandidateRow {
  readonly id: string;
  readonly thread: string | null;
  readonly threadPosition: number | null;
  readonly actorId: string | null;
  readonly createdAt: string;
  /** Only when asked for. */
  readonly text?: string;
}

export interface SearchPort {
  searchDense(query: DenseQuery): Promise<DenseHit[]>;
  /**
   * BM25 over each memory's window: its text and, when it came from a conversation, the texts just
   * before and after it in its thread (the question is often asked in the turn before the answer).
   */
  searchKeyword(query: KeywordQuery): Promise<KeywordHit[]>;
  /** The candidate rows of these ids (unknown ids left out), with their text when `withText`. */
  candidateRows(ids: readonly string[], options?: { withText?: boolean }): Promise<CandidateRow[]>;
  /** Which of `names` are speakers (`actorId`) of a memory the filter passes, lower-cased. */
  speakersNamed(query: SpeakerQuery): Promise<string[]>;
  /**
   * Memories linked to one of the keys, rarest entity first, then newest first: the same store and
   * query always give the same hits, whatever `limit` cuts.
   */
  searchEntities(query: EntityQuery): Promise<EntityHit[]>;
}
