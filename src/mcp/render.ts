/**
 * Small text helpers for tool replies, which models read: one memory a line, ids in full (the
 * model passes them back), scores as whole percentages as Mem0's plugin shows them.
 *
 * @module
 */

import type { MemoryItem } from "../memory/types.js";

/** `85%`. */
export function percent(score: number | undefined): string {
  return score === undefined ? "—" : `${Math.round(score * 100)}%`;
}

/** The text on one line, cut to `max` characters with an ellipsis. */
export function clip(text: string, max = 200): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** ` [preference, pinned]`, or nothing. */
export function tags(item: MemoryItem): string {
  const found: string[] = [];
  const { category, pinned } = item.metadata;
  if (typeof category === "string") found.push(category);
  if (pinned === true) found.push("pinned");
  return found.length === 0 ? "" : ` [${found.join(", ")}]`;
}

/** `s` when `count` is not 1. */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}
