/**
 * Options and results of the Memory API. Names and shapes follow `mem0ai/oss` `Memory`
 * (camelCase options, `filters` with snake_case scope keys, `{ results: [...] }`), so moving from
 * Mem0 is an import change.
 *
 * @module
 */

import type { LlmCost, LlmFeature, LlmFeatureUsage } from "../core/llm-usage.js";
import type { Scope, ScopeOptions } from "../core/scope.js";
import type { Redaction } from "../core/secrets-guard.js";
import type { EmbedderRuntime } from "../embed/embedder.js";
import type { Filters } from "../filters/filter.js";
import type { HistoryAction } from "../store/ports/history.js";
import type { InstructionDrop } from "./screen-instructions.js";

/** A chat message, as Mem0 takes them. System messages are context, never stored as memories. */
export interface Message {
  role: "user" | "assistant" | "system" | (string & {});
  content: string;
  name?: string;
}

export interface AddOptions extends ScopeOptions {
  metadata?: Record<string, unknown>;
  /** Scope keys may also come in Mem0's snake_case filters form; never modified. */
  filters?: Filters;
  /** One of the policy's categories; also read from `metadata.category` or `metadata.type`. */
  category?: string;
  /**
   * Extract facts with the configured LLM (Mem0's pipeline; the default there), each judged against
   * the stored memories: a restatement is not added, a new value updates the memory it supersedes.
   * Lucid's default is `false` (store the text as given), since it needs no LLM; without one,
   * `true` fails with LLM_NOT_CONFIGURED.
   */
  infer?: boolean;
  /** An explicit expiry date (Mem0's `expirationDate`): a date or ISO string. */
  expirationDate?: string | Date;
  /** Import: keep this id (only when the input yields a single memory). */
  id?: string;
  /** Import: keep this creation time. */
  createdAt?: string | Date;
  /**
   * Mem0's `timestamp`: when the memory was made — Unix seconds, as Mem0's platform takes it, or an
   * ISO string or `Date`. Sets the creation time (category TTLs count from it).
   */
  timestamp?: number | string | Date;
  /** Import: keep this update time (defaults to `createdAt`). */
  updatedAt?: string | Date;
}

/**
 * Which signals a search uses: all of them fused (`hybrid`, the default), or one alone, to compare
 * them or to debug a ranking.
 */
export const SEARCH_MODES = ["hybrid", "dense", "keyword"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export interface SearchOptions extends ScopeOptions {
  filters?: Filters;
  /** How many results at most. Default 20. */
  topK?: number;
  /** Minimum final score in [0, 1]. Default 0.1, as Mem0 (which applies it to the semantic score only). */
  threshold?: number;
  /** Add each signal's contribution as `score_details`. */
  explain?: boolean;
  /** Include memories whose category TTL or expiration date has passed. */
  showExpired?: boolean;
  /**
   * Evaluate expiry as of this day (`YYYY-MM-DD`, in the configured time zone) or instant instead of
   * now: what was visible then is found. Ignored with `showExpired`.
   */
  referenceDate?: string | Date;
  /** `hybrid` (default), `dense` or `keyword`. */
  mode?: SearchMode;
  /**
   * Mem0's reranker switch. Lucid has no reranker (its fused score already combines meaning, words
   * and entities), so `true` changes nothing and says so once with a warning.
   */
  rerank?: boolean;
}

export interface GetAllOptions extends ScopeOptions {
  filters?: Filters;
  /** 1-based page number. Default 1. */
  page?: number;
  /** Results per page. Default 100. */
  pageSize?: number;
  /** Mem0's name for a single page's size; same as `pageSize`. */
  topK?: number;
  showExpired?: boolean;
  /** Evaluate expiry as of this day or instant instead of now, as for `search`. */
  referenceDate?: string | Date;
}

export interface UpdateFields {
  text?: string;
  /** Mem0's deprecated name for `text`: accepted, with a one-time warning. */
  data?: string;
  /** Merged into the existing metadata; a key set to `null` is removed. */
  metadata?: Record<string, unknown>;
  /** A new expiry date, or null to clear it. */
  expirationDate?: string | Date | null;
}

export interface ScoreDetails {
  /** Cosine similarity of the query and memory vectors, clamped to [0, 1]. */
  semanticScore: number;
  /**
   * Sigmoid-normalised BM25 over the memory's window (its text, and for a memory from a
   * conversation the turns just before and after it); 0 when no query word is in the window.
   */
  bm25Score: number;
  /** Boost for sharing a named entity with the query. */
  entityBoost: number;
  /** 1 when the memory was said by a person the query names. */
  speakerMatch: number;
  /** 1 when the memory's time falls in a month, year or day the query names. */
  dateMatch: number;
  /** 1 when the query asks when or how long and the memory states a time. */
  timeMatch: number;
  /** The weighted sum of the signals. */
  rawScore: number;
  /** What a memory perfect on every signal this query can produce would reach. */
  maxPossibleScore: number;
  /** rawScore / maxPossibleScore. */
  baseScore: number;
  /** The base score plus a share of the best candidate of the memory's conversation. */
  finalScore: number;
  threshold: number;
  /** Which candidate generators returned this memory. */
  matchedBy: ("dense" | "keyword" | "entity")[];
}

export interface MemoryItem {
  id: string;
  memory: string;
  hash: string;
  /** The caller's metadata, with `category` set when the memory has one. */
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  /** Set when the memory has an explicit expiration date: the instant from which it is hidden. */
  expiresAt?: string;
  /** Mem0's field: the last day the memory is visible (`YYYY-MM-DD`, in the configured time zone). */
  expiration_date?: string;
  user_id?: string;
  agent_id?: string;
  app_id?: string;
  run_id?: string;
  /** Who said it: the `name` of the message the memory came from (as Mem0's `actor_id`). */
  actor_id?: string;
  /** Search only: the fused relevance in [0, 1]. */
  score?: number;
  score_details?: ScoreDetails;
}

/** `UPDATE` only with `infer: true`: an extracted fact that supersedes a stored memory replaced its text. */
export type AddEvent = "ADD" | "NONE" | "UPDATE";

/** How an extracted fact (`infer: true`) relates to a memory already stored, and who decided. */
export interface AddRelation {
  /**
   * `restates`: already stored (not added again; or, when the memory may not change, added beside
   * it for the details it adds); `merges`: the same fact with details the memory lacked, merged
   * into it (the memory updated, its old text kept in history); `supersedes`: a new value for what the memory
   * said (the memory was updated, its old text kept in history); `conflicts`: a new value for a
   * memory that may not be changed (pinned, or an immutable category), so both are kept for a dream
   * to surface.
   */
  kind: "restates" | "merges" | "supersedes" | "conflicts";
  /** The memory it relates to. */
  memoryId: string;
  /** `rules` (dream's relation judge) or `llm` (the model confirming what the rules were unsure of). */
  decidedBy: "rules" | "llm";
  reason: string;
}

export interface AddResultItem {
  id: string;
  memory: string;
  /** `ADD` when stored; `NONE` when the same text was already stored in this scope (its id is returned). */
  event: AddEvent;
  metadata: Record<string, unknown>;
  /** Credentials replaced by `[REDACTED:<kind>]` before storing: kind and position in the given text, never the value. */
  redactions?: Redaction[];
  /** For an `UPDATE`: the text it replaced (Mem0's field). */
  previous_memory?: string;
  /** With `infer: true`: how the fact relates to a stored memory, when it does. */
  relation?: AddRelation;
}

export interface AddResult {
  results: AddResultItem[];
  /** With `infer: true`: what the LLM calls of this add cost. */
  llm?: LlmCost;
  /**
   * With `infer: true`: extracted facts left out because they read as instructions to the agent
   * (a possible injection), each clipped, with the judge's score.
   */
  dropped?: InstructionDrop[];
}

export interface SearchResult {
  results: MemoryItem[];
}

export interface GetAllResult {
  results: MemoryItem[];
  /** Every matching memory, not just this page. */
  total: number;
  page: number;
  pageSize: number;
  hasMore: boolean;
}

/** A history row in Mem0's shape (snake_case, as its SQLite history manager returns them). */
export interface HistoryEntry {
  id: number;
  memory_id: string;
  action: HistoryAction;
  previous_value: string | null;
  new_value: string | null;
  actor: string;
  created_at: string;
  is_deleted: 0 | 1;
  /** For an UPDATE: what it changed, by name (`text`, `category`, `expiresAt`, `metadata.<key>`). */
  changed?: string[];
}

/** `forget`: deletes the best match of a query only when it is clearly the one meant. */
export interface ForgetOptions extends ScopeOptions {
  filters?: Filters;
  /** The best match must score at least this. Default 0.4. */
  minScore?: number;
  /** …and beat the runner-up by at least this. Default 0.1. */
  margin?: number;
  /** How many candidates to consider and return. Default 5. */
  topK?: number;
}

export interface ForgetResult {
  /** The memory that was deleted, or null when no match was clear enough. */
  deleted: MemoryItem | null;
  /** The best matches with their scores (the deleted one first when there is one). */
  candidates: MemoryItem[];
}

/** One memory to import, in Lucid's export form (Mem0 exports map onto it field by field). */
export interface ImportRecord extends Scope {
  id?: string;
  text: string;
  category?: string;
  metadata?: Record<string, unknown>;
  createdAt?: string;
  updatedAt?: string;
  expiresAt?: string;
  /** The conversation it came from and its place there, as `export` writes them. */
  thread?: string;
  threadPosition?: number;
  /** Who said it (a message's `name`). */
  actorId?: string;
}

/**
 * What `importMemories` reads: records (Lucid's field names or Mem0's), a Mem0 `getAll` dump
 * (`{ results: [...] }`), or an export file's text (JSONL, a JSON array or dump, Mem0's Markdown export).
 */
export type ImportInput =
  | readonly ImportRecord[]
  | readonly unknown[]
  | { readonly results: readonly unknown[] }
  | string;

export interface ImportOptions extends ScopeOptions {
  /** What to do with a record whose id already exists. Default `skip`. */
  onConflict?: "skip" | "replace";
  /** Records embedded and written per transaction. Default 64. */
  batchSize?: number;
  /** Called after each committed batch. */
  onProgress?: (progress: { done: number; total: number }) => void;
  /**
   * Check every record before writing any: one bad record refuses the whole import
   * (INVALID_ARGUMENT, each failure in `details.failures`) and nothing is written. By default a bad
   * record is a failed item and the others are imported.
   */
  strict?: boolean;
}

export interface ImportItemResult {
  /** Position of the record in the input (0-based). */
  index: number;
  /** For text input: the line (JSONL, Markdown) or 1-based record number (a JSON document) it came from. */
  line?: number;
  status: "imported" | "replaced" | "skipped" | "failed";
  id?: string;
  /** Credentials redacted from the record's text (kind and position). */
  redactions?: Redaction[];
  error?: { code: string; message: string };
}

export interface ImportResult {
  imported: number;
  replaced: number;
  skipped: number;
  failed: number;
  items: ImportItemResult[];
}

/** One exported memory: stable key order, so export → import → export reproduces the bytes. */
export interface ExportRecord extends Scope {
  id: string;
  text: string;
  category?: string;
  metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  expires_at?: string;
  thread?: string;
  thread_position?: number;
  actor_id?: string;
}

export interface StoreStatus {
  location: string;
  /** Which backend holds the store and what it can do (`store.capabilities`). */
  backend: { name: string; ann: boolean; concurrentWriters: boolean };
  /** Bytes on disk (the database file plus its WAL), or null for an in-memory store. */
  sizeBytes: number | null;
  schemaVersion: number;
  embedder: { id: string; dimension: number } | null;
  /**
   * What runs the configured embedder's model and why (`native`, or `wasm` because
   * onnxruntime-node could not be loaded…), found without loading the model; null for an embedder
   * with no runtime to report (a remote one).
   */
  embedderRuntime: EmbedderRuntime | null;
  /** Set when the store was written by another embedder and needs `reembed()`. */
  pendingEmbedder: { id: string; dimension: number } | null;
  /**
   * The default local model, when the store keeps an older local model because it was written with
   * it and no embedder is configured: `lucid reembed` moves it there. Null otherwise.
   */
  defaultEmbedder: { id: string; dimension: number } | null;
  total: number;
  expired: number;
  byScope: Record<"user_id" | "agent_id" | "app_id" | "run_id", Record<string, number>>;
  byCategory: Record<string, number>;
  /** The optional LLM: which model (null: none configured), its call cap, and what it has cost by feature. */
  llm: {
    model: string | null;
    maxCallsPerRun: number | null;
    /** Whether every dream asks it to judge the review tier (`dream.llm`). */
    dreamJudge: boolean;
    usage: Record<LlmFeature, LlmFeatureUsage>;
  };
}

export interface ReembedOptions {
  /** Memories embedded per batch (each batch commits on its own, so an interrupted run resumes). */
  batchSize?: number;
  onProgress?: (progress: { done: number; total: number }) => void;
}
