/**
 * lucid-memory: local-first long-term memory for AI agents.
 *
 * @module
 */

export type { Clock } from "./clock.js";
export type { Analyser } from "./dream/analyser.js";
export type { DreamApi, DreamPlanOptions } from "./dream/dream-api.js";
export type {
  ConflictAction,
  DeleteAction,
  DeleteReason,
  DreamAction,
  DreamPlan,
  MergeAction,
  PlanStats,
  RewriteAction,
  RewriteReason,
  SeenMemory,
  Why,
} from "./dream/plan.js";
export { DELETE_REASONS, PLAN_VERSION, REWRITE_REASONS } from "./dream/plan.js";
export { renderPlanJson } from "./dream/render-json.js";
export { renderReport } from "./dream/render-report.js";
export type { Embedder, EmbedPurpose } from "./embed/embedder.js";
export type { LocalEmbedderOptions } from "./embed/local/use-lite-embedder.js";
export { createLocalEmbedder } from "./embed/local/use-lite-embedder.js";
export type { OpenAICompatibleEmbedderOptions } from "./embed/openai-compatible/openai-compatible-embedder.js";
export { createOpenAICompatibleEmbedder } from "./embed/openai-compatible/openai-compatible-embedder.js";
export type { LucidErrorCode, LucidErrorOptions } from "./errors.js";
export { ERROR_CODES, isLucidError, LucidError } from "./errors.js";
export type { FilterNode, FilterOperator, ScopeKey } from "./filters/filter.js";
export type { MemoryOptions } from "./memory/create-context.js";
export { Memory } from "./memory/memory.js";
export type { ScanFinding, ScanResult } from "./memory/scan.js";
export type { Redaction, SecretAction, SecretsPolicy } from "./memory/secrets-guard.js";
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
export type {
  ContradictionThresholds,
  DreamPolicy,
  DuplicateThresholds,
  PolicySource,
  SecretsScanPolicy,
} from "./policy/dream-policy.js";
export type { PolicyLayer } from "./policy/policy-layer.js";
export type { PolicyInput } from "./policy/resolve-policy.js";
export { resolvePolicy } from "./policy/resolve-policy.js";
export { findSecrets, redact } from "./secrets/index.js";
export type { Finding, SecretScannerOptions } from "./secrets/types.js";
export type { SqliteStoreOptions } from "./store/sqlite/sqlite-store.js";
export { createSqliteStore } from "./store/sqlite/sqlite-store.js";
export type { MemoryStore, MemoryStoreOps, StoreCapabilities } from "./store/store.js";
