/**
 * lucid-memory: local-first long-term memory for AI agents.
 *
 * @module
 */

export type { Clock } from "./clock.js";
export type { Embedder, EmbedPurpose } from "./embed/embedder.js";
export type { LocalEmbedderOptions } from "./embed/local/use-lite-embedder.js";
export { createLocalEmbedder } from "./embed/local/use-lite-embedder.js";
export type { OpenAICompatibleEmbedderOptions } from "./embed/openai-compatible/openai-compatible-embedder.js";
export { createOpenAICompatibleEmbedder } from "./embed/openai-compatible/openai-compatible-embedder.js";
export type { LucidErrorCode, LucidErrorOptions } from "./errors.js";
export { ERROR_CODES, isLucidError, LucidError } from "./errors.js";
export type { FilterNode, FilterOperator, ScopeKey } from "./filters/filter.js";
export type { MemoryOptions } from "./memory/create-context.js";
export type { ScanFinding, ScanResult } from "./memory/scan.js";
export type { Redaction, SecretAction, SecretsPolicy } from "./memory/secrets-guard.js";
export { Memory } from "./memory/memory.js";
export type {
  AddEvent,
  AddOptions,
  AddResult,
  AddResultItem,
  ExportRecord,
  Filters,
  ForgetOptions,
  ForgetResult,
  GetAllOptions,
  GetAllResult,
  HistoryEntry,
  ImportItemResult,
  ImportOptions,
  ImportRecord,
  ImportResult,
  MemoryItem,
  Message,
  ReembedOptions,
  ScopeOptions,
  ScoreDetails,
  SearchMode,
  SearchOptions,
  SearchResult,
  StoreStatus,
  UpdateFields,
} from "./memory/types.js";
export { SEARCH_MODES } from "./memory/types.js";
export type { UpdateResult } from "./memory/update.js";
export { openMemory } from "./open-memory.js";
export type { CategoryPolicy, CategoryTable } from "./policy/categories.js";
export { DEFAULT_CATEGORIES } from "./policy/categories.js";
export type { SqliteStoreOptions } from "./store/sqlite/sqlite-store.js";
export { findSecrets, redact } from "./secrets/index.js";
export type { Finding, SecretScannerOptions } from "./secrets/types.js";
export { createSqliteStore } from "./store/sqlite/sqlite-store.js";
export type { MemoryStore, MemoryStoreOps, StoreCapabilities } from "./store/store.js";
