/**
 * The resolved policy a dream runs with: categories (importance, TTL, immutability) and the
 * analysers' thresholds. Built once from defaults, `lucid.config.json` `policy`, a project's Mem0
 * retention files and `--policy FILE`; analysers only read it.
 *
 * @module
 */

import type { CategoryTable } from "./categories.js";

export interface DuplicateThresholds {
  /** Cosine similarity from which two memories are candidates for the same fact. */
  readonly minSimilarity: number;
  /** How many vector neighbours of each memory are considered. */
  readonly neighbours: number;
}

export interface DreamPolicy {
  readonly categories: CategoryTable;
  readonly duplicates: DuplicateThresholds;
  /** Confidence under which a memory with nothing specific in it is pruned (the OpenCode skill: 0.3). */
  readonly lowConfidence: number;
  /** Memories longer than this many characters are flagged for a rewrite. */
  readonly maxLength: number;
}
