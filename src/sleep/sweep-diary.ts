/**
 * A sweep's page of the Dream Diary (`openclaw-dreaming.md` §10): the entry, composed from what the
 * sweep did (deterministic — no LLM is configured), and the `## Deep Sleep` report after it.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import { conceptTags } from "./concept-tags.js";
import type { PromoteResult, PromotionCandidate } from "./deep-promote.js";
import { composeDiaryEntry } from "./diary-entry.js";
import {
  appendDiaryEntry,
  backfillDateLabel,
  deepReportBody,
  diaryEntries,
  locateDiary,
  updateDiary,
  upsertDeepReport,
} from "./dream-diary.js";
import type { StagedEntry } from "./light-phase.js";
import type { Reflection, Truth } from "./rem-phase.js";

/** The entry a sweep wrote (or would write), and where. */
export interface SweepDiary {
  readonly path: string;
  readonly entry: string | null;
  readonly written: boolean;
}

/** The diary entry (deterministic: no LLM is configured) and the `## Deep Sleep` report. */
export async function writeSweepDiary(
  root: string,
  input: {
    now: string;
    today: string;
    timeZone: string;
    apply: boolean;
    staged: readonly StagedEntry[];
    rem: { reflections: readonly Reflection[]; truths: readonly Truth[] };
    candidates: readonly PromotionCandidate[];
    promotion: PromoteResult | null;
    deepRan: boolean;
  },
): Promise<SweepDiary | null> {
  const promoted = input.promotion?.promoted ?? [];
  const snippets = new Map(input.candidates.map((candidate) => [candidate.key, candidate.snippet]));
  // Themes: REM's reflections, then the concept tags several of the night's snippets share.
  const counts = new Map<string, number>();
  for (const entry of [...input.staged, ...input.rem.truths])
    for (const tag of new Set(conceptTags(entry.path, entry.snippet)))
      counts.set(tag, (counts.get(tag) ?? 0) + 1);
  const shared = [...counts]
    .filter(([, count]) => count >= 2)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([tag]) => tag);
  const themes = [...new Set([...input.rem.reflections.map((reflection) => reflection.tag), ...shared])];
  const entry =
    composeDiaryEntry({
      day: input.today,
      themes,
      // The diary quotes what kept coming back, not the newest sightings.
      staged: [...input.staged].sort((a, b) => b.recalls - a.recalls || b.confidence - a.confidence),
      reflections: input.rem.reflections.map((reflection) => ({
        tag: reflection.tag,
        count: reflection.count,
      })),
      truths: input.rem.truths,
      promoted: promoted.map((each) => ({ ...each, snippet: snippets.get(each.key) ?? "" })),
    }) ?? null;
  const refusedByReason: Record<string, number> = {};
  for (const refusal of input.promotion?.refused ?? [])
    refusedByReason[refusal.reason] = (refusedByReason[refusal.reason] ?? 0) + 1;
  const report =
    input.deepRan && (input.candidates.length > 0 || promoted.length > 0)
      ? deepReportBody({ ranked: input.candidates.length, promoted: promoted.length, refusedByReason })
      : null;
  if (entry === null && report === null) return null;
  if (!input.apply) return { path: (await locateDiary(root)).path, entry, written: false };
  const todayLabel = backfillDateLabel(input.today);
  const result = await updateDiary(root, (text) => {
    let next = text;
    // A second sweep the same day that promoted nothing has nothing to tell: today's entry and
    // report stay as the first sweep wrote them.
    const toldToday = diaryEntries(text).some(
      (each) => each.backfillDay === undefined && each.date.startsWith(todayLabel),
    );
    if (toldToday && promoted.length === 0) return text;
    if (entry !== null)
      next = appendDiaryEntry(next, { at: input.now, timeZone: input.timeZone, body: entry }).text;
    if (report !== null) next = upsertDeepReport(next, report);
    return next;
  });
  // A diary sleep may not rewrite (over 16 MiB, not UTF-8) is left as it is: the sweep says so.
  if (result.reason !== undefined)
    throw new LucidError(
      "IO_ERROR",
      `Sleep left ${result.path} as it is (${result.reason === "too-large" ? "over 16 MiB" : "not UTF-8"}); the night's entry was not written.`,
    );
  return { path: result.path, entry, written: result.written };
}
