/**
 * Turns scanner options into the list of rules to run: checks them, compiles extra patterns
 * once, and drops disabled rules. Every mistake is an `INVALID_ARGUMENT` naming the bad entry.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import { BUILTIN_RULES } from "./rules/catalogue.js";
import type { ExtraSecretPattern, SecretRule, SecretScannerOptions } from "./types.js";

/** A rule ready to scan with, and whether the built-in allow-rules guard it. */
export interface ActiveRule {
  readonly rule: SecretRule;
  readonly builtIn: boolean;
}

const KIND_SHAPE = /^[A-Za-z0-9._-]{1,64}$/;

function invalid(message: string, details: Record<string, unknown>, cause?: unknown): LucidError {
  return new LucidError("INVALID_ARGUMENT", message, cause === undefined ? { details } : { details, cause });
}

function compileExtra(extra: ExtraSecretPattern, index: number, taken: Set<string>): SecretRule {
  if (typeof extra !== "object" || extra === null) {
    throw invalid(`secrets.extraPatterns[${index}] must be an object with id, kind and pattern.`, { index });
  }
  const { id, kind, pattern, flags = "" } = extra;
  if (typeof id !== "string" || id.trim() === "") {
    throw invalid(`secrets.extraPatterns[${index}].id must be a non-empty string.`, { index });
  }
  if (taken.has(id)) {
    throw invalid(`secrets.extraPatterns[${index}].id "${id}" is already a rule id; choose another.`, { id });
  }
  if (typeof kind !== "string" || !KIND_SHAPE.test(kind)) {
    throw invalid(
      `secrets.extraPatterns "${id}": kind must be 1–64 letters, digits, ".", "_" or "-" (it is printed as [REDACTED:<kind>]).`,
      { id, kind },
    );
  }
  if (typeof pattern !== "string" || pattern === "") {
    throw invalid(`secrets.extraPatterns "${id}": pattern must be a non-empty regular-expression source.`, {
      id,
    });
  }
  if (typeof flags !== "string") {
    throw invalid(`secrets.extraPatterns "${id}": flags must be a string such as "i".`, { id });
  }
  let compiled: RegExp;
  try {
    compiled = new RegExp(pattern, `${[...new Set(flags.replace(/[gdy]/g, ""))].join("")}gd`);
  } catch (error) {
    throw invalid(
      `secrets.extraPatterns "${id}" is not a valid regular expression: ${(error as Error).message}`,
      { id, pattern, flags },
      error,
    );
  }
  return {
    id,
    kind,
    reason: "User pattern (secrets.extraPatterns).",
    confidence: "high",
    keywords: [],
    pattern: compiled,
  };
}

/**
 * The rules a scanner with these options runs, built-in ones first, in catalogue order.
 *
 * @example
 * compileOptions({ disabledRules: ["jwt"] }).some(({ rule }) => rule.id === "jwt"); // false
 */
export function compileOptions(options: SecretScannerOptions = {}): ActiveRule[] {
  if (typeof options !== "object" || options === null) {
    throw invalid("Secret scanner options must be an object.", {});
  }
  const { disabledRules = [], extraPatterns = [] } = options;
  if (!Array.isArray(disabledRules)) throw invalid("secrets.disabledRules must be an array of rule ids.", {});
  if (!Array.isArray(extraPatterns)) throw invalid("secrets.extraPatterns must be an array.", {});

  const taken = new Set(BUILTIN_RULES.map((rule) => rule.id));
  const extras = extraPatterns.map((extra: ExtraSecretPattern, index: number) => {
    const rule = compileExtra(extra, index, taken);
    taken.add(rule.id);
    return rule;
  });

  const disabled = new Set<string>();
  for (const id of disabledRules as readonly unknown[]) {
    if (typeof id !== "string" || !taken.has(id)) {
      throw invalid(
        `secrets.disabledRules has ${JSON.stringify(id)}, which is not a rule id. See docs/secrets.md for the catalogue.`,
        { ruleId: id },
      );
    }
    disabled.add(id);
  }

  return [
    ...BUILTIN_RULES.filter((rule) => !disabled.has(rule.id)).map((rule) => ({ rule, builtIn: true })),
    ...extras.filter((rule) => !disabled.has(rule.id)).map((rule) => ({ rule, builtIn: false })),
  ];
}
