/**
 * The resolved policy: one frozen value that governs every write (categories, the secrets screen),
 * every read (category TTLs), every dream (the analysers' thresholds) and the auto-dream gate. It is
 * resolved once, by the composition root, from defaults, `lucid.config.json`, a project's Mem0
 * retention files, a policy file and SDK options (`resolve-policy.ts`); everything else only reads it.
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

export const SECRET_ACTIONS = ["redact", "reject", "allow"] as const;
export type SecretAction = (typeof SECRET_ACTIONS)[number];

/**
 * Credentials: what to do with one in new text (`onAdd`), and how the detector is configured — the
 * same detector a dream's credentials analyser and `scan` use (a dream always redacts or deletes).
 */
export interface SecretsPolicy {
  /** `redact` (default) replaces each credential by `[REDACTED:<kind>]`; `reject` refuses the write; `allow` stores it. */
  readonly onAdd: SecretAction;
  /** Built-in rule ids to switch off, e.g. `["jwt"]` where JWTs in memories are harmless. */
  readonly disabledRules: readonly string[];
  /** Patterns added to the built-in catalogue (Mem0's `credentialPatterns`, but extending, not replacing). */
  readonly extraPatterns: readonly ExtraSecretPattern[];
}

/** The auto-dream gate: a scope is due after this long, this many sessions, with this many memories. */
export interface GateThresholds {
  readonly minHours: number;
  readonly minSessions: number;
  readonly minMemories: number;
}

/** Where one layer of the policy came from, in the order the layers were applied. */
export interface PolicySource {
  readonly kind: "defaults" | "config" | "mem0-json" | "mem0-markdown" | "policy-file" | "sdk";
  /** The file, for file layers. */
  readonly path?: string;
}

export interface Policy {
  readonly categories: CategoryTable;
  /**
   * Refuse a category the table does not define (`UNKNOWN_CATEGORY`). Off by default: as in Mem0, a
   * category is a label, and one the policy does not name is stored as given with no TTL.
   */
  readonly strictCategories: boolean;
  readonly secrets: SecretsPolicy;
  readonly duplicates: DuplicateThresholds;
  readonly contradictions: ContradictionThresholds;
  /** Confidence under which a memory with nothing specific in it is pruned (the OpenCode skill: 0.3). */
  readonly lowConfidence: number;
  /** Memories longer than this many characters are flagged for a rewrite. */
  readonly maxLength: number;
  /** Categories whose memories need an "As of YYYY-MM-DD" anchor (Mem0's dream: project, operational). */
  readonly anchorCategories: readonly string[];
  readonly gate: GateThresholds;
  /** The layers merged into this policy, lowest precedence first. */
  readonly sources: readonly PolicySource[];
  /** Lines of retention files that were not understood and were skipped (Mem0's parser skips silently). */
  readonly warnings: readonly string[];
}

/** The values a policy starts from, but for categories; every one can be overridden by a layer. */
export const DEFAULT_THRESHOLDS: Omit<Policy, "categories" | "sources" | "warnings"> = Object.freeze({
  strictCategories: false,
  secrets: Object.freeze({
    onAdd: "redact",
    disabledRules: Object.freeze([]),
    extraPatterns: Object.freeze([]),
  }),
  // USE-lite scores every paraphrase pair of the labelled corpus at ≥ 0.6; the duplicate analyser's
  // word and detail checks do the discriminating above that.
  duplicates: Object.freeze({ minSimilarity: 0.6, neighbours: 10 }),
  // Lower than for duplicates: two values of one slot are worded apart more than two restatements
  // are (MiniLM: a quarter of our development corpus's conflicts sit under 0.6), and each candidate
  // must still pass the value, change or polarity judgement.
  contradictions: Object.freeze({ minSimilarity: 0.5, neighbours: 10 }),
  lowConfidence: 0.3,
  // Mem0's dream protocol wants 15–50 words; 50 English words average about 300 characters, and
  // the flag is for clearly verbose memories, so the bar sits a little above that.
  maxLength: 400,
  anchorCategories: Object.freeze(["project", "operational"]),
  // Mem0's dream-gate defaults: 24 hours, 5 sessions, 20 memories.
  gate: Object.freeze({ minHours: 24, minSessions: 5, minMemories: 20 }),
});
