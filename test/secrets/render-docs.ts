/**
 * Renders the rule and allow-rule tables of docs/secrets.md from the catalogue, so the
 * documentation is the code's own `reason` strings. docs.test.ts checks the file is current;
 * `LUCID_UPDATE_DOCS=1 npx vitest run test/secrets/docs.test.ts` rewrites it.
 *
 * @module
 */

import { ALLOW_RULES, BUILTIN_RULES, FIELD_ALLOW_RULES } from "../../src/secrets/index.js";

export const START_MARKER = "<!-- generated:secrets-catalogue:start -->";
export const END_MARKER = "<!-- generated:secrets-catalogue:end -->";

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

export function renderCatalogue(): string {
  const kinds = new Set(BUILTIN_RULES.map((rule) => rule.kind));
  const lines = [
    START_MARKER,
    "",
    `### Rules (${BUILTIN_RULES.length} rules, ${kinds.size} kinds)`,
    "",
    "In priority order: when findings overlap with equal confidence and length, the earlier rule wins.",
    "",
    "| rule id | kind | confidence | prefilter keywords | why it is shaped this way |",
    "|---|---|---|---|---|",
    ...BUILTIN_RULES.map(
      (rule) =>
        `| \`${rule.id}\` | \`${rule.kind}\` | ${rule.confidence} | ${
          rule.keywords.length === 0 ? "(always runs)" : rule.keywords.map((k) => `\`${cell(k)}\``).join(" ")
        } | ${cell(rule.reason)} |`,
    ),
    "",
    "### Value allow-rules",
    "",
    "A captured value that matches one of these is dropped. `every` rules guard all built-in rules; `generic` ones only the keyword-anchored rules (`bearer-token`, `password-*`, `secret-*`).",
    "",
    "| allow-rule id | scope | why |",
    "|---|---|---|",
    ...ALLOW_RULES.map((rule) => `| \`${rule.id}\` | ${rule.scope} | ${cell(rule.reason)} |`),
    "",
    "### Field-name allow-rules (`password-assignment`, `secret-assignment`)",
    "",
    "| allow-rule id | words | why |",
    "|---|---|---|",
    ...FIELD_ALLOW_RULES.map(
      (rule) =>
        `| \`${rule.id}\` | ${[...rule.words].map((w) => `\`${w}\``).join(" ")} | ${cell(rule.reason)} |`,
    ),
    "",
    END_MARKER,
  ];
  return lines.join("\n");
}
