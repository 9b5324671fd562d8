/**
 * Building blocks for catalogue rules: token boundaries and a builder for the common case, a
 * fixed prefix followed by a fixed alphabet.
 *
 * @module
 */

import type { Candidate, Confidence, SecretRule } from "../types.js";

/**
 * A token may not continue an identifier on its left: `risk-averse` holds `sk-` and
 * `task_runner` holds `sk_`, but neither starts a token.
 */
export const START = String.raw`(?<![A-Za-z0-9_\-])`;
/** Nor run on into one on its right: a 40-character match inside a 60-character word is no key. */
export const END = String.raw`(?![A-Za-z0-9_\-])`;

/** Escapes a literal for use inside a pattern. */
export function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** Compiles a rule pattern: always global (scanned with `exec`) and with match indices (`d`). */
export function pattern(source: string, flags = ""): RegExp {
  return new RegExp(source, `gd${flags}`);
}

export interface PrefixedRuleSpec {
  readonly id: string;
  readonly kind: string;
  readonly reason: string;
  /** Literal prefixes, any of which starts the token (`ghp_`, `sk_live_`). */
  readonly prefixes: readonly string[];
  /** Pattern source for what follows the prefix (`[A-Za-z0-9]{36}`). */
  readonly body: string;
  readonly confidence?: Confidence;
  readonly assess?: (candidate: Candidate) => Confidence | null;
  /** Pattern flags besides `g` and `d`. */
  readonly flags?: string;
}

/**
 * A rule for `prefix + body` with token boundaries on both sides, whose prefixes are also its
 * prefilter keywords.
 *
 * @example
 * prefixedRule({ id: "npm-token", kind: "npm-token", reason: "…", prefixes: ["npm_"], body: "[A-Za-z0-9]{36}" });
 */
export function prefixedRule(spec: PrefixedRuleSpec): SecretRule {
  const alternatives = spec.prefixes.map(escapeRegExp).join("|");
  return {
    id: spec.id,
    kind: spec.kind,
    reason: spec.reason,
    confidence: spec.confidence ?? "high",
    keywords: spec.prefixes.map((prefix) => prefix.toLowerCase()),
    pattern: pattern(`${START}(?<value>(?:${alternatives})${spec.body})${END}`, spec.flags),
    ...(spec.assess === undefined ? {} : { assess: spec.assess }),
  };
}

/** Strips sentence punctuation a free-form value picked up: `is hunter2!x.` → `hunter2!x`. */
export function trimSentenceEnd(candidate: Candidate): string {
  return candidate.value.replace(/[.,;:)\]}]+$/, "");
}
