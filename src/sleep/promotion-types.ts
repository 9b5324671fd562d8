/**
 * What the deep phase's promotion takes and returns (`deep-promote.ts`), apart from how it runs:
 * the options, the ranked candidates, the ranges promoted or refused, and what a run records for
 * rollback.
 *
 * @module
 */

import type { Scope } from "../core/scope.js";
import type { DeepOptions } from "./deep-rank.js";
import type { AddressedRange } from "./note-range.js";
import type { RehydrateRefusal } from "./rehydrate.js";

export interface PromoteOptions extends Omit<DeepOptions, "now"> {
  /** The sweep's clock (ISO); default now. */
  readonly now?: string;
  /** Write `MEMORY.md` and the store; default false (a preview). */
  readonly apply?: boolean;
  /**
   * Report `MEMORY.md` before and after (`memoryFileDiff`): without `apply`, a preview that composes
   * what it would become, refusals and compaction included, writing nothing; with `apply`, what
   * was written.
   */
  readonly draft?: boolean;
  /** Where the promoted snippets go as long-term memories. */
  readonly scope: Scope;
  /** The zone of the section's date. Default the context's. */
  readonly timeZone?: string;
  /** The `MEMORY.md` budget in characters. Default 10,000. */
  readonly maxChars?: number;
  /** How much of the generated sections' text compaction may drop, 0–1. Default 0.25. */
  readonly maxLoss?: number;
  /** Visible characters of a promoted bullet. Default 640 (OpenClaw's 160 tokens × 4). */
  readonly visibleChars?: number;
}

/** A ranked candidate, as the preview table and `--json` show it. */
export interface PromotionCandidate extends AddressedRange {
  readonly rank: number;
  readonly key: string;
  readonly snippet: string;
  readonly score: number;
  readonly recalls: number;
  readonly signals: number;
  readonly uniqueQueries: number;
  readonly days: number;
  readonly ageDays: number;
}

/** `outside-workspace`: the note's links lead out of the workspace (`confined-path.ts`). */
export type PromotionRefusal =
  | RehydrateRefusal
  | "source-changed"
  | "budget"
  | "missing-file"
  | "outside-workspace";

export interface PromotedEntry {
  readonly key: string;
  readonly path: string;
  /** Where the range is now (it may have moved since it was recalled). */
  readonly startLine: number;
  readonly endLine: number;
  readonly score: number;
  /** The promotion marker written before its bullet. */
  readonly marker: string;
  /** The long-term memory it became (null when the scope already held the same text). */
  readonly memoryId: string | null;
}

export interface PromoteResult {
  readonly workspace: string;
  readonly memoryFile: string;
  readonly now: string;
  readonly applied: boolean;
  /** The run to roll back; null when nothing was written to `MEMORY.md`. */
  readonly runId: string | null;
  readonly candidates: readonly PromotionCandidate[];
  readonly promoted: readonly PromotedEntry[];
  /** Keys `MEMORY.md` already held: marked promoted, not appended again. */
  readonly reconciled: readonly string[];
  readonly refused: readonly {
    readonly key: string;
    readonly address: string;
    readonly reason: PromotionRefusal;
  }[];
  /** Dates of the generated sections compaction dropped to make room. */
  readonly compactedDates: readonly string[];
  /** With `draft`: `MEMORY.md` before and after (as written, or as it would be). */
  readonly memoryFileDiff?: { readonly before: string; readonly after: string };
}

/** What a sleep run records, read back by rollback. */
export interface SleepRunPlan {
  readonly workspace: string;
  readonly memoryFile: string;
  readonly promoted: readonly PromotedEntry[];
  readonly reconciled: readonly string[];
  /** `MEMORY.md` as the run left it, to name what changed since. */
  readonly after: string;
}
