/**
 * lucid-memory: local-first long-term memory for AI agents.
 *
 * @module
 */

export type { Clock } from "./clock.js";
export type { LlmSettings } from "./config/llm-settings.js";
export type { LlmCost, LlmFeature, LlmFeatureUsage } from "./core/llm-usage.js";
export type { Scope, ScopeKey, ScopeOptions } from "./core/scope.js";
export { SCOPE_KEYS } from "./core/scope.js";
export type { Redaction } from "./core/secrets-guard.js";
export type { Analyser } from "./dream/analyser.js";
export type {
  ActionOutcome,
  ApplyCounts,
  ApplyOptions,
  ApplyResult,
  SecretsScrubbed,
} from "./dream/apply/apply-plan.js";
export type { ApplyDecisions, ConflictChoice } from "./dream/apply/decisions.js";
export type { UndoResult } from "./dream/apply/undo-run.js";
export type { DreamApi, DreamPlanOptions } from "./dream/dream-api.js";
export type { DreamRun } from "./dream/dream-run.js";
export type { GateOptions, GateStatus } from "./dream/gate/gate.js";
export { parsePlan } from "./dream/parse-plan.js";
export type {
  ConflictAction,
  DeleteAction,
  DeleteReason,
  DreamAction,
  DreamPlan,
  JudgeDecision,
  JudgeOutcome,
  JudgeRecord,
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
export type { LocalEmbedderOptions } from "./embed/local/local-embedder.js";
export { createLocalEmbedder, DEFAULT_LOCAL_MODEL_ID } from "./embed/local/local-embedder.js";
export type {
  MiniLmEmbedder,
  MiniLmEmbedderOptions,
  MiniLmRuntimeChoice,
} from "./embed/local/minilm-embedder.js";
export { createMiniLmEmbedder } from "./embed/local/minilm-embedder.js";
export type { UseLiteEmbedderOptions } from "./embed/local/use-lite-embedder.js";
export { createUseLiteEmbedder } from "./embed/local/use-lite-embedder.js";
export type { OpenAICompatibleEmbedderOptions } from "./embed/openai-compatible/openai-compatible-embedder.js";
export { createOpenAICompatibleEmbedder } from "./embed/openai-compatible/openai-compatible-embedder.js";
export type { LucidErrorCode, LucidErrorOptions } from "./errors.js";
export { ERROR_CODES, isLucidError, LucidError } from "./errors.js";
export type { FilterNode, FilterOperator, Filters } from "./filters/filter.js";
export type { AnthropicLlmOptions } from "./llm/anthropic/anthropic-llm.js";
export { createAnthropicLlm } from "./llm/anthropic/anthropic-llm.js";
export type {
  CompleteRequest,
  CompleteResult,
  JsonOutput,
  Llm,
  LlmMessage,
  LlmUsage,
} from "./llm/llm.js";
export type { JsonMode, OpenAICompatibleLlmOptions } from "./llm/openai-compatible/openai-compatible-llm.js";
export { createOpenAICompatibleLlm } from "./llm/openai-compatible/openai-compatible-llm.js";
export type { CaptureDrop, CaptureOptions, CaptureResult } from "./memory/capture.js";
export type { PurgeResult } from "./memory/purge.js";
export type { RecallOptions } from "./memory/recall.js";
export type { RecalledMemory, RecalledNote } from "./memory/recall-block.js";
export { DEFAULT_CATEGORY_ORDER, RECALL_DEFAULTS } from "./memory/recall-block.js";
export type { ScanFinding, ScanResult } from "./memory/scan.js";
export type { TriageDropReason } from "./memory/triage.js";
export type {
  AddEvent,
  AddOptions,
  AddRelation,
  AddResult,
  AddResultItem,
  ExportRecord,
  ForgetOptions,
  ForgetResult,
  GetAllOptions,
  GetAllResult,
  HistoryEntry,
  ImportInput,
  ImportItemResult,
  ImportOptions,
  ImportRecord,
  ImportResult,
  MemoryItem,
  Message,
  ReembedOptions,
  ScoreDetails,
  SearchMode,
  SearchOptions,
  SearchResult,
  StoreStatus,
  UpdateFields,
} from "./memory/types.js";
export { SEARCH_MODES } from "./memory/types.js";
export type { BatchUpdate, UpdateResult } from "./memory/update.js";
export type { CategoryPolicy, CategoryTable } from "./policy/categories.js";
export { DEFAULT_CATEGORIES } from "./policy/categories.js";
export type {
  ContradictionThresholds,
  DuplicateThresholds,
  GateThresholds,
  Policy,
  PolicySource,
  SecretAction,
  SecretsPolicy,
} from "./policy/policy.js";
export { DEFAULT_THRESHOLDS, SECRET_ACTIONS } from "./policy/policy.js";
export type { PolicyLayer } from "./policy/policy-layer.js";
export type { PolicyInput } from "./policy/resolve-policy.js";
export { resolvePolicy } from "./policy/resolve-policy.js";
export type { MemoryOptions } from "./sdk/create-context.js";
export type { LlmOption } from "./sdk/llm-option.js";
export type { Mem0ProviderConfig, MemoryConfig } from "./sdk/mem0-config.js";
export type { CaptureCallOptions, CaptureCallResult } from "./sdk/memory.js";
export { Memory } from "./sdk/memory.js";
export { openMemory } from "./sdk/open-memory.js";
export type { RecallCallOptions, RecallResult } from "./sdk/recall.js";
export type {
  RecordLogResult,
  Workspace,
  WorkspaceOptions,
  WorkspacePromoteOptions,
  WorkspaceSearchOptions,
  WorkspaceSearchResult,
  WorkspaceSweepOptions,
} from "./sdk/workspace.js";
export { DEFAULT_WORKSPACE_SCOPE } from "./sdk/workspace.js";
export type { FusionWeights } from "./search/fuse.js";
export { FUSION_WEIGHTS } from "./search/fuse.js";
export { findSecrets, redact } from "./secrets/index.js";
export type { Finding, SecretScannerOptions } from "./secrets/types.js";
export type { BackfillResult, BackfillRollback } from "./sleep/diary-backfill.js";
export type { Explanation } from "./sleep/explain.js";
export type { OpenClawImport } from "./sleep/import-openclaw.js";
export type { IndexReport } from "./sleep/note-index.js";
export type { NoteRange } from "./sleep/note-range.js";
export type { Blocker } from "./sleep/promotion-blockers.js";
export type {
  PromotedEntry,
  PromoteResult,
  PromotionCandidate,
  PromotionRefusal,
} from "./sleep/promotion-types.js";
export type { RecallEntry, SignalType } from "./sleep/recall-entry.js";
export type { RecallHitInput, RecordResult } from "./sleep/record-recalls.js";
export type { SleepSettings, SleepSettingsInput } from "./sleep/sleep-config.js";
export type { RollbackResult } from "./sleep/sleep-rollback.js";
export type { LastSweep, SleepStatus } from "./sleep/sleep-status.js";
export type { PhaseReport, SweepPhase, SweepResult } from "./sleep/sleep-sweep.js";
export type { NoteResult } from "./sleep/workspace-search.js";
export type { SleepEvent } from "./store/ports/sleep-state.js";
export type { SqliteStoreOptions } from "./store/sqlite/sqlite-store.js";
export { createSqliteStore } from "./store/sqlite/sqlite-store.js";
export type { MemoryStore, MemoryStoreOps, StoreCapabilities } from "./store/store.js";
