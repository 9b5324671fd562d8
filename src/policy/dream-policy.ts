/**
 * The resolved policy a dream runs with: categories (importance, TTL, immutability) and the
 * analysers' thresholds. Built once by `resolvePolicy` from defaults, `lucid.config.json` `policy`,
 * a project's Mem0 retention files and `--policy FILE`; analysers only read it.
 *
 * @module
 */

import type { ExtraSecretPattern } from "../secrets/types.js";
import type { CategoryTable } from "./categories.js";

export interface DuplicateThresholds {
  /** Cosine similarity from which two memories are candidates for the same fact. */
  readonly minSimilarity: number;
  /** How many vector neighbours of each memory are considered. */
  readonly neighbours: number;
}

export interface ContradictionThresholds {
  /** Cosine similarity from which two memories may be about the same subject and attribute. */
  readonly minSimilarity: number;
  /** How many vector neighbours of each memory are considered. */
  readonly neighbours: number;
}

/**
 * How the credentials analyser's secret scanner is configured: the same `policy.secrets` keys
 * that guard new text (`onAdd` does not apply to a dream, which always redacts or deletes).
 */
export interface SecretsScanPolicy {
  /** Built-in rule ids to switch off, e.g. `["jwt"]` where JWTs in memories are harmless. */
  readonly disabledRules: readonly string[];
  /** Patterns added to the built-in catalogue (Mem0's `credentialPatterns`, but extending, not replacing). */
  readonly extraPatterns: readonly ExtraSecretPattern[];
}

/** Where one layer of the policy came from, in the order the layers were applied. */
export interface PolicySource {
  readonly kind: "defaults" | "config" | "mem0-json" | "mem0-markdown" | "policy-file" | "sdk";
  /** The file, for file layers. */
  readonly path?: string;
}

export interface DreamPolicy {
  readonly categories: CategoryTable;
  readonly duplicates: DuplicateThresholds;
  readonly contradictions: ContradictionThresholds;
  readonly secrets: SecretsScanPolicy;
  /** Confidence under which a memory with nothing specific in it is pruned (the OpenCode skill: 0.3). */
  readonly lowConfidence: number;
  /** Memories longer than this many characters are flagged for a rewrite. */
  readonly maxLength: number;
  /** Categories whose memories need an "As of YYYY-MM-DD" anchor (Mem0's dream: project, operational). */
  readonly anchorCategories: readonly string[];
  /** The layers merged into this policy, lowest precedence first. */
  readonly sources: readonly PolicySource[];
  /** Lines of retention files that were not understood and were skipped (Mem0's parser skips silently). */
  readonly warnings: readonly string[];
}

/** The thresholds a policy starts from; every one can be overridden by a policy layer. */
export const DEFAULT_THRESHOLDS: Omit<DreamPolicy, "categories" | "sources" | "warnings"> = Object.freeze({
  // USE-lite scores every paraphrase pair of the labelled corpus at ≥ 0.6; the duplicate analyser's
  // word and detail checks do the discriminating above that.
  duplicates: Object.freeze({ minSimilarity: 0.6, neighbours: 10 }),
  contradictions: Object.freeze({ minSimilarity: 0.6, neighbours: 10 }),
  secrets: Object.freeze({ disabledRules: Object.freeze([]), extraPatterns: Object.freeze([]) }),
  lowConfidence: 0.3,
  // Mem0's dream protocol wants 15–50 words; 50 English words average about 300 characters, and
  // the flag is for clearly verbose memories, so the bar sits a little above that.
  maxLength: 400,
  anchorCategories: Object.freeze(["project", "operational"]),
});
