/**
 * How a fact about to be added relates to the memories already stored: the seam through which
 * `add` with `infer: true` uses dream's relation judge. The composition root plugs in dream's
 * implementation (`dream/relate-facts.ts`); services never import each other.
 *
 * @module
 */

import type { Policy } from "../policy/policy.js";
import type { MemoryRow } from "../store/ports/memories.js";
import type { Scope } from "./scope.js";

export const FACT_RELATIONS = ["restates", "supersedes", "possible-duplicate", "possible-conflict"] as const;
/**
 * `restates`: the same fact as `other` (a merge by dream's duplicate rules); `supersedes`: a new
 * value for the same slot as `other` (a conflict by dream's contradiction rules, the fact being
 * newer); `possible-*`: dream's review tier, for a judge to confirm.
 */
export type FactRelationKind = (typeof FACT_RELATIONS)[number];

export interface FactRelation {
  readonly kind: FactRelationKind;
  /** The stored memory, or an earlier fact of the same add, it relates to. */
  readonly other: string;
  /** Why, in the rule's words. */
  readonly detail: string;
  /**
   * For a restatement (or a possible one): the two as one text, as a dream would merge them — the
   * more complete wording with the details only the other carries. The stored text when the fact
   * adds nothing.
   */
  readonly merged?: string;
}

export interface RelateFactsInput {
  readonly scope: Scope;
  readonly now: string;
  readonly policy: Policy;
  /** The facts to add, as rows (ids of their own, timestamps `now`), in the order extracted. */
  readonly facts: readonly MemoryRow[];
  /** The stored memories near them. */
  readonly stored: readonly MemoryRow[];
  /** The vector of every fact and stored memory, by id. */
  readonly vectors: ReadonlyMap<string, Float32Array>;
}

/** Each fact's strongest relation, by fact id; a fact related to nothing is absent. */
export type RelateFacts = (input: RelateFactsInput) => Promise<ReadonlyMap<string, FactRelation>>;
