/**
 * A dream plan: what consolidation proposes for one scope, as frozen data.
 *
 * Analysers (`analyse/*.ts`) turn a snapshot of the scope into actions; `render*` turns a plan into
 * the report; only `apply` (a later step) touches the store. The JSON form is versioned and
 * documented in docs/dream-plan.md.
 *
 * @module
 */

import type { LlmCost } from "../core/llm-usage.js";
import type { Scope } from "../core/scope.js";

export const PLAN_VERSION = 1;

/**
 * `injection`: the analysers propose it only as a `possible-injection` review item, which a person
 * accepts; a plan written by hand may name it as any other reason.
 */
export const DELETE_REASONS = ["credential", "noise", "expired", "low_confidence", "injection"] as const;
export type DeleteReason = (typeof DELETE_REASONS)[number];

export const REWRITE_REASONS = ["first_person", "missing_anchor", "credential_redacted", "too_long"] as const;
export type RewriteReason = (typeof REWRITE_REASONS)[number];

/** Why an analyser proposed an action: the rule, and the evidence (similarity, age, matched words…). */
export interface Why {
  readonly rule: string;
  readonly detail: string;
  readonly evidence?: Readonly<Record<string, string | number | boolean | readonly string[]>>;
}

export interface DeleteAction {
  readonly kind: "delete";
  readonly ids: readonly [string];
  readonly reason: DeleteReason;
  readonly why: Why;
}

export interface MergeAction {
  readonly kind: "merge";
  /** Every member of the group, `keep` first. */
  readonly ids: readonly string[];
  /** The memory updated in place; the others are deleted. */
  readonly keep: string;
  /** The merged text that replaces `keep`'s text. */
  readonly text: string;
  readonly why: Why;
}

export interface ConflictAction {
  readonly kind: "conflict";
  readonly ids: readonly [string, string];
  /** What the two disagree about, e.g. "deploy target of billing-api". */
  readonly topic: string;
  /** The id suggested to win: the newer, then the more confident. */
  readonly suggested: string;
  readonly why: Why;
}

export interface RewriteAction {
  readonly kind: "rewrite";
  readonly ids: readonly [string];
  readonly text: string;
  readonly reasons: readonly RewriteReason[];
  readonly why: Why;
}

export type DreamAction = DeleteAction | MergeAction | ConflictAction | RewriteAction;

export const REVIEW_KINDS = ["possible-duplicate", "possible-conflict", "possible-injection"] as const;
export type ReviewKind = (typeof REVIEW_KINDS)[number];

/**
 * What the engine is not sure of: two memories that may be one fact, or may disagree; a memory that
 * reads as an instruction to the agent (a possible injection). Never applied by `--auto` or `--yes`;
 * a person accepts it (the interactive flow asks), and then its `proposal` joins the plan's actions.
 */
export interface ReviewItem {
  readonly kind: ReviewKind;
  /**
   * What accepting it would add: the merge (possible duplicate), the conflict (possible conflict),
   * or the delete with reason `injection` (possible injection).
   */
  readonly proposal: MergeAction | ConflictAction | DeleteAction;
  /** Why the engine is unsure: what agrees, what differs. */
  readonly why: Why;
}

export const JUDGE_OUTCOMES = ["confirmed", "rejected", "kept"] as const;
/**
 * What became of a review item the LLM judged: `confirmed` (its proposal joined the actions),
 * `rejected` (dropped: the model says the two are distinct facts), `kept` (still for a person).
 */
export type JudgeOutcome = (typeof JUDGE_OUTCOMES)[number];

/** One verdict of the LLM judge, kept in the plan so a run stays explainable. */
export interface JudgeDecision {
  readonly kind: ReviewKind;
  /** The review item's memories. */
  readonly ids: readonly string[];
  /** `same`, `replaces`, `distinct` or `unsure` (see `core/judge-pairs.ts`). */
  readonly verdict: string;
  readonly outcome: JudgeOutcome;
  readonly reason: string;
  readonly model: string;
  /** sha256 of the exact prompt sent, first 16 hex digits. */
  readonly promptHash: string;
  /** For a confirmed merge: whose words the merged text is, and why the model's were not used. */
  readonly wording?: "llm" | "rules";
  readonly wordingNote?: string;
}

/** What the LLM judge of a plan did, and what it cost (`model`: the configured LLM's id). */
export interface JudgeRecord extends LlmCost {
  readonly decisions: readonly JudgeDecision[];
  /** Review items no verdict came back for (a failed call, the call cap): left for a person. */
  readonly unjudged: number;
  /** Why calls failed. */
  readonly errors: readonly string[];
}

export interface PlanStats {
  readonly reviewed: number;
  readonly deletes: Readonly<Record<DeleteReason, number>>;
  readonly merges: number;
  readonly merged: number;
  readonly conflicts: number;
  readonly rewrites: number;
  /** Pinned memories for which some analyser's proposal (delete, merge, rewrite) was refused. */
  readonly pinnedSkipped: number;
  readonly elapsedMs: number;
}

/** What the plan saw of a memory; apply skips actions on a memory that no longer matches. */
export interface SeenMemory {
  readonly hash: string;
  readonly updatedAt: string;
  /*
   * What the report shows of the memory (never its text, which may hold a secret). `planDream`
   * always fills these; they are optional so that a hand-made plan needs only hash and updatedAt.
   */
  readonly category?: string | null;
  /** `metadata.type` (Mem0's grouping key) when it is a string. */
  readonly type?: string | null;
  readonly createdAt?: string;
  readonly pinned?: boolean;
  /**
   * The memory's owner: its full stored scope (only the keys it has). A merge, conflict or review
   * item joins memories of one owner only; `parsePlan` refuses one whose members record two, and
   * `apply` refuses a plan whose records differ from the store. Optional for hand-made plans.
   */
  readonly scope?: Scope;
}

export interface DreamPlan {
  readonly version: typeof PLAN_VERSION;
  readonly scope: Scope;
  /** The instant the plan was made against (ISO-8601); ages and TTLs are measured from it. */
  readonly now: string;
  /** The resolved policy the analysers used (a `Policy` in plans made by `planDream`). */
  readonly policy: unknown;
  /** How many memories were analysed. */
  readonly reviewed: number;
  readonly actions: readonly DreamAction[];
  /** For a person to decide; a memory is in at most one action or review item. */
  readonly review: readonly ReviewItem[];
  /** For every memory an action or a review item names: its hash and updatedAt when the plan was made. */
  readonly seen: Readonly<Record<string, SeenMemory>>;
  readonly stats: PlanStats;
  /** Present when an LLM judged the review tier: its verdicts and what they cost. */
  readonly judge?: JudgeRecord;
}
