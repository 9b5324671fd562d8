/**
 * Which recall entries a phase looks at (`openclaw-dreaming.md` §5 step 2, §6 step 2): those of its
 * lookback — recalled on a day of it, or last recalled within it — and, for an entry only the daily
 * ingestion has sighted, one whose note is dated within it (a sighting says when the note was read,
 * not when it was of use).
 *
 * @module
 */

import { shortTermDay } from "./note-paths.js";
import type { RecallEntry } from "./recall-entry.js";

/** `day` moved by `days` (`YYYY-MM-DD`, calendar arithmetic). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Whether `entry` falls in the `lookbackDays` up to `today` (inclusive).
 *
 * @example
 * inLookback(entry, { today: "2026-11-29", lookbackDays: 2, dayOf: (iso) => iso.slice(0, 10) });
 */
export function inLookback(
  entry: RecallEntry,
  window: { readonly today: string; readonly lookbackDays: number; readonly dayOf: (iso: string) => string },
): boolean {
  const first = addDays(window.today, -window.lookbackDays);
  if (entry.recallCount + entry.groundedCount === 0) {
    const day = shortTermDay(entry.path);
    return day !== undefined && day >= first && day <= window.today;
  }
  return (
    entry.recallDays.some((day) => day >= first && day <= window.today) ||
    window.dayOf(entry.lastRecalledAt) >= first
  );
}
