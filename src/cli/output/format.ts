/**
 * Small formatters for human output: scores as Mem0's CLI shows them, short dates, one-line text.
 *
 * @module
 */

import type { Style } from "./style.js";

/** `0.8734` → `87%`, as Mem0's CLI and tools print scores. */
export function formatScore(score: number | undefined): string {
  return score === undefined ? "" : `${(score * 100).toFixed(0)}%`;
}

export function colorScore(score: number | undefined, style: Style): (text: string) => string {
  if (score === undefined) return (text) => text;
  if (score >= 0.7) return style.green;
  if (score >= 0.4) return style.yellow;
  return style.dim;
}

/** `2026-11-30 09:05`, local time: short enough for a column, precise enough to tell edits apart. */
export function formatDate(iso: string | undefined | null): string {
  if (iso === undefined || iso === null) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, "0");
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/** Text on one line: runs of whitespace (newlines too) become one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** `1.2 MB` */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
