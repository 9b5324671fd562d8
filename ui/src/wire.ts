/**
 * The JSON the UI reads, as the server sends it (the routes in src/http/, described by
 * /openapi.json). Declared here rather than imported from src/: these are wire shapes (snake_case
 * memories, vectors as JSON), and only the fields the UI shows; the browser build takes nothing
 * from the server's modules but pure constants (the fusion weights). `test/ui/wire-contract.ts`
 * holds them to the server's types.
 *
 * @module
 */

export const SCOPE_KEYS = ["user_id", "agent_id", "app_id", "run_id"] as const;
export type ScopeKey = (typeof SCOPE_KEYS)[number];
export type Scope = Partial<Record<ScopeKey, string>>;

export interface Info {
  readonly version: string;
  readonly keysRequired: boolean;
  readonly bound: Scope | null;
  readonly defaults: Scope;
  readonly workspace: string | null;
  readonly llm: boolean;
}

export interface Entity {
  readonly id: string;
  readonly name: string;
  readonly type: "user" | "agent" | "app" | "run";
  readonly total_memories: number;
}

/** `src/memory/types.ts` `ScoreDetails`. */
export interface ScoreBreakdown {
  readonly semanticScore: number;
  readonly bm25Score: number;
  readonly entityBoost: number;
  readonly speakerMatch: number;
  readonly dateMatch: number;
  readonly timeMatch: number;
  readonly rawScore: number;
  readonly maxPossibleScore: number;
  readonly baseScore: number;
  readonly finalScore: number;
  readonly threshold: number;
  readonly matchedBy: readonly string[];
}

/** `src/http/mem0-shapes.ts` `memoryOut`. */
export interface Memory {
  readonly id: string;
  readonly memory: string;
  readonly user_id: string | null;
  readonly agent_id: string | null;
  readonly app_id: string | null;
  readonly run_id: string | null;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly categories: readonly string[];
  readonly created_at: string;
  readonly updated_at: string;
  readonly expiration_date: string | null;
  readonly score?: number;
  readonly score_breakdown?: ScoreBreakdown;
}

export interface MemoryPage {
  readonly count: number;
  readonly next: string | null;
  readonly previous: string | null;
  readonly results: readonly Memory[];
}

/** `historyOut`. */
export interface HistoryRow {
  readonly id: string;
  readonly old_memory: string | null;
  readonly new_memory: string | null;
  readonly event: string;
  readonly actor?: string;
  /** For an UPDATE: what it changed (`text`, `metadata.pinned`…), never the values. */
  readonly changed?: readonly string[];
  readonly created_at: string;
}

/** `src/dream/plan.ts`. */
export interface Why {
  readonly rule: string;
  readonly detail: string;
}
export interface DeleteAction {
  readonly kind: "delete";
  readonly ids: readonly [string];
  readonly reason: string;
  readonly why: Why;
}
export interface MergeAction {
  readonly kind: "merge";
  readonly ids: readonly string[];
  readonly keep: string;
  readonly text: string;
  readonly why: Why;
}
export interface ConflictAction {
  readonly kind: "conflict";
  readonly ids: readonly [string, string];
  readonly topic: string;
  readonly suggested: string;
  readonly why: Why;
}
export interface RewriteAction {
  readonly kind: "rewrite";
  readonly ids: readonly [string];
  readonly text: string;
  readonly reasons: readonly string[];
  readonly why: Why;
}
export type DreamAction = DeleteAction | MergeAction | ConflictAction | RewriteAction;
export interface ReviewItem {
  readonly kind: "possible-duplicate" | "possible-conflict" | "possible-injection";
  readonly proposal: MergeAction | ConflictAction | DeleteAction;
  readonly why: Why;
}
export interface DreamPlan {
  readonly reviewed: number;
  readonly actions: readonly DreamAction[];
  readonly review: readonly ReviewItem[];
}
export interface PlanResponse {
  readonly planId: string;
  readonly expiresAt: string;
  readonly plan: DreamPlan;
  readonly memories: Readonly<Record<string, Memory>>;
  readonly report: string;
}

export type ConflictChoice = "A" | "B" | "skip";

/** `src/dream/apply/apply-plan.ts` `ApplyCounts`. */
export interface ApplyCounts {
  readonly merged: number;
  readonly pruned: number;
  readonly conflictsResolved: number;
  readonly conflictsSkipped: number;
  readonly rewritten: number;
  readonly skipped: number;
  readonly stale: number;
  readonly finalCount: number;
}
export interface ActionOutcome {
  readonly index: number;
  readonly kind: DreamAction["kind"];
  readonly ids: readonly string[];
  readonly status: "applied" | "skipped" | "stale";
  readonly note?: string;
}
export interface ApplyResponse {
  readonly applied: boolean;
  readonly runId: string | null;
  readonly actions: readonly ActionOutcome[];
  readonly counts: ApplyCounts;
}

export interface RunSummary {
  readonly id: string;
  readonly scope: Scope;
  readonly scopeKey: string;
  readonly mode: string;
  readonly counts: ApplyCounts;
  readonly actions: number;
  readonly startedAt: string;
  readonly committedAt: string;
  readonly undoneAt: string | null;
}

/** `src/http/routes/lucid-dream.ts` `changeOut`: a memory a run touched, its text before the run. */
export interface MemoryChange {
  readonly memoryId: string;
  readonly before: { readonly text: string } | null;
  readonly after: { readonly hash: string; readonly updatedAt: string } | null;
}
export interface RunDetails {
  readonly run: RunSummary & {
    readonly plan: DreamPlan;
    readonly outcome: { readonly actions: readonly ActionOutcome[]; readonly counts: ApplyCounts };
  };
  readonly memories: readonly MemoryChange[];
  /** By id, the memories the run's plan names as they are now (those the run did not touch too). */
  readonly named: Readonly<Record<string, Memory>>;
}

/** `src/dream/apply/undo-run.ts`. */
export interface UndoResult {
  readonly runId: string;
  readonly restored: number;
  readonly removed: number;
  readonly keptDuplicates: readonly { readonly id: string; readonly duplicateOf: string }[];
  readonly keptOtherScope: readonly string[];
}

/** `src/sleep/deep-promote.ts` `PromotionCandidate`. */
export interface PromotionCandidate {
  readonly rank: number;
  readonly key: string;
  readonly address: string;
  readonly snippet: string;
  readonly score: number;
  readonly recalls: number;
  readonly uniqueQueries: number;
  readonly days: number;
}

/** `src/sleep/sleep-status.ts`. */
export interface SleepStatus {
  readonly workspace: string;
  readonly memoryFile: string;
  readonly memoryChars: number;
  readonly budgetChars: number;
  readonly indexedFiles: number;
  readonly entries: number;
  readonly promotedEntries: number;
  readonly lastRun: {
    readonly id: string;
    readonly committedAt: string;
    readonly promoted: number;
    readonly undoneAt: string | null;
  } | null;
  readonly wouldPromote: readonly PromotionCandidate[];
  readonly blockers: readonly { readonly kind: string; readonly message: string }[];
}

export interface PromoteResult {
  readonly applied: boolean;
  readonly runId: string | null;
  readonly candidates: readonly PromotionCandidate[];
  readonly promoted: readonly { readonly key: string; readonly path: string }[];
  readonly refused: readonly { readonly key: string; readonly address: string; readonly reason: string }[];
  readonly memoryFileDiff?: { readonly before: string; readonly after: string };
}

/** `src/sleep/explain.ts`. */
export interface Explanation {
  readonly key: string;
  readonly address: string;
  readonly snippet: string;
  readonly score: number;
  readonly components: readonly {
    readonly component: string;
    readonly value: number;
    readonly weight: number;
    readonly contribution: number;
  }[];
  readonly phaseBoost: number;
  readonly gates: readonly {
    readonly gate: string;
    readonly value: number;
    readonly threshold: number;
    readonly passed: boolean;
    readonly why: string;
  }[];
  readonly excluded: string | null;
  readonly verdict: string;
}

/** `src/sleep/sleep-rollback.ts`. */
export interface RollbackResult {
  readonly runId: string;
  readonly restored: boolean;
  readonly unpromoted: number;
  readonly removedMemories: number;
}

export interface Diary {
  readonly path: string;
  readonly exists: boolean;
  readonly text: string;
}

/** `src/memory/scan.ts`. */
export interface ScanFinding {
  readonly id: string;
  readonly field: string;
  readonly kind: string;
  readonly start: number;
  readonly preview: string;
}
/** A memory that reads as an instruction to the agent (`ScanInjection`). */
export interface ScanInjection {
  readonly id: string;
  readonly score: number;
  readonly cues: readonly string[];
}
export interface ScanResult {
  readonly scanned: number;
  readonly findings: readonly ScanFinding[];
  readonly injections: readonly ScanInjection[];
}
