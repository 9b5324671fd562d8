/**
 * What a claim rule is, and the helpers its sentence templates share.
 *
 * @module
 */

import type { Part } from "./claim-parts.js";

/** The rules, by the attribute family each reads (see `claim-rules-*.ts`). */
export const CLAIM_RULE_IDS = [
  "deploy-target",
  "version",
  "preference",
  "role",
  "residence",
  "employer",
  "occupation",
  "diet",
  "attribute",
] as const;
export type ClaimRuleId = (typeof CLAIM_RULE_IDS)[number];

export interface ClaimRead {
  readonly attribute: string;
  /** The attribute as a topic reads it ("PostgreSQL version"); defaults to `attribute`. */
  readonly label?: string;
  readonly subject: string;
  readonly subjectText: string;
  readonly value: string;
  readonly valueText: string;
  /** Text after the value, qualifying the claim ("for the legacy-portal project"). */
  readonly rest: string;
}

export interface ClaimRule {
  readonly id: ClaimRuleId;
  /** A cheap test every template of the rule needs to pass; most memories fail it and skip the templates. */
  readonly trigger: RegExp;
  readonly read: (sentence: string) => readonly ClaimRead[];
}

/**
 * A regex alternation of `words`, longest first so "tech lead" wins over "lead".
 *
 * @example
 * alternation(["lead", "tech lead"]); // => "tech lead|lead"
 */
export const alternation = (words: Iterable<string>) =>
  [...words]
    .sort((a, b) => b.length - a.length)
    .map((word) => word.replace(/[.+]/gu, "\\$&"))
    .join("|");

/**
 * One claim read, or none when the subject or the value could not be read.
 *
 * @example
 * claim("deploy target", readSubject("billing-api"), readValue("Fly.io"));
 * // => [{ attribute: "deploy target", subject: "api bill", value: "fly.io", … }]
 */
export function claim(
  attribute: string,
  subject: Part | undefined,
  value: Part | undefined,
  label = attribute,
): ClaimRead[] {
  if (subject === undefined || value === undefined) return [];
  return [
    {
      attribute,
      label,
      subject: subject.key,
      subjectText: subject.text,
      value: value.key,
      valueText: value.text,
      rest: value.rest ?? "",
    },
  ];
}

/**
 * The claims of the first template that matches and reads something.
 *
 * @example
 * firstMatch("Maria lives in Porto", [/^(?<s>.+?) lives in (?<v>.+)$/u], (g) =>
 *   claim("city of residence", readSubject(g.s ?? ""), readValue(g.v ?? "")),
 * ); // => [{ attribute: "city of residence", subject: "maria", value: "porto", … }]
 */
export function firstMatch(
  sentence: string,
  patterns: readonly RegExp[],
  build: (groups: Record<string, string>) => ClaimRead[],
) {
  for (const pattern of patterns) {
    const groups = pattern.exec(sentence)?.groups;
    if (groups !== undefined) {
      const read = build(groups as Record<string, string>);
      if (read.length > 0) return read;
    }
  }
  return [];
}
