/**
 * The scanner: runs the active rules over a text and resolves their findings.
 *
 * Clean text is the common case (most memories hold no secret), so one prefilter pass decides
 * which rules' keywords occur at all; the others cost nothing.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import { allowedBy } from "./allow-list.js";
import { type ActiveRule, compileOptions } from "./compile-options.js";
import { createPrefilter } from "./prefilter.js";
import { applyRedactions } from "./redact.js";
import { type RankedFinding, resolveOverlaps } from "./resolve-overlaps.js";
import type { Candidate, Finding, SecretScanner, SecretScannerOptions } from "./types.js";

const NO_GROUPS: Readonly<Record<string, string | undefined>> = Object.freeze({});

/** The span of the secret in a match: the `value` group, else `quoted`, else the whole match. */
function valueSpan(match: RegExpExecArray): readonly [number, number] | undefined {
  const groups = match.indices?.groups;
  return groups?.value ?? groups?.quoted ?? match.indices?.[0];
}

function scanRule(active: ActiveRule, order: number, text: string, out: RankedFinding[]): void {
  const { rule, builtIn } = active;
  const pattern = rule.pattern;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const span = valueSpan(match);
    if (match[0].length === 0 || span === undefined || span[1] <= span[0]) {
      pattern.lastIndex = match.index + 1;
      continue;
    }
    const [start, end] = span;
    let candidate: Candidate = {
      value: text.slice(start, end),
      start,
      matchStart: match.index,
      text,
      groups: match.groups ?? NO_GROUPS,
    };
    if (rule.trim !== undefined) candidate = { ...candidate, value: rule.trim(candidate) };
    const value = candidate.value;
    // The rule's own test runs first: it is usually the cheaper one to fail.
    let confidence =
      value.length === 0 ? null : rule.assess === undefined ? rule.confidence : rule.assess(candidate);
    if (confidence !== null && builtIn && allowedBy(value, rule.generic === true) !== undefined)
      confidence = null;
    if (confidence === null) {
      // A rejected match may hide a real one inside it (`note: password=…` reads `note` as the
      // field first), so scanning resumes inside the rejected value, not after it.
      pattern.lastIndex = Math.max(match.index + 1, start);
      continue;
    }
    out.push({
      kind: rule.kind,
      ruleId: rule.id,
      start,
      end: start + value.length,
      labelStart: Math.min(match.index, start),
      confidence,
      order,
    });
  }
}

/**
 * A scanner with its options checked and its patterns compiled once; reuse it for many texts.
 *
 * @throws LucidError `INVALID_ARGUMENT` for a bad regular expression, an unknown disabled rule id,
 *   a duplicate id or a malformed option.
 * @example
 * const scanner = createSecretScanner({
 *   disabledRules: ["jwt"],
 *   extraPatterns: [{ id: "acme-key", kind: "acme-key", pattern: "acme_[a-z0-9]{24}" }],
 * });
 * scanner.redact("deploy key acme_0123456789abcdefghijklmn").text;
 * // "deploy key [REDACTED:acme-key]"
 */
export function createSecretScanner(options?: SecretScannerOptions): SecretScanner {
  const rules = compileOptions(options);
  const prefilter = createPrefilter(rules.map(({ rule }) => rule.keywords));

  const find = (text: string): Finding[] => {
    if (typeof text !== "string") {
      throw new LucidError("INVALID_ARGUMENT", `Secret scanning needs a string, got ${typeof text}.`);
    }
    if (text.length === 0) return [];
    const toRun = prefilter.rulesToRun(text);
    const found: RankedFinding[] = [];
    for (let order = 0; order < rules.length; order++) {
      if (toRun[order] === 1) scanRule(rules[order] as ActiveRule, order, text, found);
    }
    return resolveOverlaps(found);
  };

  return {
    find,
    redact: (text) => {
      const findings = find(text);
      return { text: applyRedactions(text, findings), findings };
    },
  };
}
