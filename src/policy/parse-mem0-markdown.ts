/**
 * Retention settings in a Mem0 project's Markdown file (`mem0.md`, `.mem0.md`). Three forms, all
 * read, later ones winning on the same category:
 *
 * 1. YAML-ish front matter with a `retention:` block (OpenCode's dream skill);
 * 2. a top-level `retention:` line followed by indented entries (the same, outside front matter);
 * 3. a `## Retention` section of `- category: 90d` lines (Mem0's `parse_mem0_config.py`).
 *
 * Per line, `#` comments are dropped; values are read by `parseRetentionValue`; a line that is not
 * understood becomes a warning, never an error (Mem0's parser skips such lines silently).
 *
 * @module
 */

import { parseRetentionValue, retentionCategory } from "./retention-value.js";

export interface RetentionEntries {
  /** Category → days (`null` = never expires), in file order. */
  readonly retention: ReadonlyMap<string, number | null>;
  readonly warnings: readonly string[];
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/u;
// Mem0's heading rule: `^##\s+Retention[^\n]*\n(.*?)(?=^##\s|\Z)`, multi-line, case-insensitive.
const RETENTION_HEADING = /^##\s+Retention[^\n]*\n/imu;
const NEXT_HEADING = /^##\s/mu;
const BLOCK_START = /^retention\s*:\s*$/iu;
const ENTRY = /^(?:[-*+]\s+)?`?([^:=|`]+?)`?\s*[:=]\s*(.+)$/u;
const TABLE_ROW = /^\|\s*`?([^|`]+?)`?\s*\|\s*([^|]+?)\s*\|/u;

/**
 * Reads the retention entries of a Mem0 Markdown file; `file` only names it in warnings.
 *
 * @example
 * parseMem0Markdown("# Project\n\n## Retention\n- session_state: 30d\n- decision: forever\n", "mem0.md");
 * // => { retention: Map { "session_state" => 30, "decision" => null }, warnings: [] }
 */
export function parseMem0Markdown(text: string, file: string): RetentionEntries {
  const retention = new Map<string, number | null>();
  const warnings: string[] = [];
  const read = (lines: readonly string[]) => readEntries(lines, file, retention, warnings);

  const front = FRONT_MATTER.exec(text);
  const body = front === null ? text : text.slice(front[0].length);
  if (front !== null) read(indentedBlock((front[1] ?? "").split(/\r?\n/u)));
  read(indentedBlock(body.split(/\r?\n/u)));

  const heading = RETENTION_HEADING.exec(body);
  if (heading !== null) {
    const rest = body.slice(heading.index + heading[0].length);
    const next = NEXT_HEADING.exec(rest);
    read((next === null ? rest : rest.slice(0, next.index)).split(/\r?\n/u));
  }
  return { retention, warnings };
}

/** The indented lines after a `retention:` line at the start of a line, up to the next unindented one. */
function indentedBlock(lines: readonly string[]): string[] {
  const start = lines.findIndex((line) => BLOCK_START.test(line));
  if (start < 0) return [];
  const block: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === "") continue;
    if (!/^\s/u.test(line)) break;
    block.push(line);
  }
  return block;
}

function readEntries(
  lines: readonly string[],
  file: string,
  retention: Map<string, number | null>,
  warnings: string[],
): void {
  for (const raw of lines) {
    const line = stripComment(raw).trim();
    if (line === "" || /^\|?[\s:|-]+\|?$/u.test(line)) continue;
    const entry = ENTRY.exec(line) ?? TABLE_ROW.exec(line);
    const category = entry === null ? undefined : retentionCategory(entry[1] ?? "");
    // Table headers ("| category | retention |") are not entries.
    if (category === "category" || category === "type") continue;
    const days = entry === null ? undefined : parseRetentionValue(entry[2]);
    if (category === undefined || days === undefined) {
      warnings.push(`${file}: retention line ${JSON.stringify(line)} was not understood and is skipped.`);
      continue;
    }
    retention.set(category, days);
  }
}

/** Drops a `#` comment; a `#` inside a word (`C#`) is kept. */
function stripComment(line: string): string {
  const match = /(^|\s)#/u.exec(line);
  return match === null ? line : line.slice(0, match.index);
}
