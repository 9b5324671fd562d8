/**
 * A sweep's page of the Dream Diary (`openclaw-dreaming.md` §10): the entry, and the `## Deep Sleep`
 * report after it. The entry is the configured LLM's narrative when there is one; without one, or
 * when its call fails, it is composed from what the sweep did (deterministic).
 *
 * @module
 */

import type { LlmRun } from "../core/llm-run.js";
import { LucidError } from "../errors.js";
import { conceptTags } from "./concept-tags.js";
import { composeDiaryEntry, type DiaryEntryMaterial } from "./diary-entry.js";
import { type NarrativeFallbackReason, writeNarrative } from "./diary-narrative.js";
import {
  appendDiaryEntry,
  backfillDateLabel,
  deepReportBody,
  diaryEntries,
  locateDiary,
  readDiary,
  updateDiary,
  upsertDeepReport,
} from "./dream-diary.js";
import type { StagedEntry } from "./light-phase.js";
import type { PromoteResult, PromotionCandidate } from "./promotion-types.js";
import type { Reflection, Truth } from "./rem-phase.js";

/**
 * The entry a sweep wrote (or would write), where, and who wrote it: the LLM (`model` names the
 * model that answered), the composer because the LLM's call failed or came back empty
 * (`fallbackReason`: the LucidError code, or `"empty"`), or the composer because no LLM was asked
 * (none is configured, a preview, nothing to tell).
 */
export type SweepDiary = {
  readonly path: string;
  readonly entry: string | null;
  readonly written: boolean;
} & Narration;

type Narration =
  | { readonly narrative: "deterministic" }
  | { readonly narrative: "llm"; readonly model: string }
  | { readonly narrative: "fallback"; readonly fallbackReason: NarrativeFallbackReason };

/** The diary entry (the LLM's narrative, else deterministic) and the `## Deep Sleep` report. */
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
    /** The sweep's LLM run, when an LLM is configured and the sweep applies. */
    llm?: LlmRun | undefined;
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
  const material: DiaryEntryMaterial = {
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
  };
  const entry = composeDiaryEntry(material) ?? null;
  const refusedByReason: Record<string, number> = {};
  for (const refusal of input.promotion?.refused ?? [])
    refusedByReason[refusal.reason] = (refusedByReason[refusal.reason] ?? 0) + 1;
  const report =
    input.deepRan && (input.candidates.length > 0 || promoted.length > 0)
      ? deepReportBody({ ranked: input.candidates.length, promoted: promoted.length, refusedByReason })
      : null;
  if (entry === null && report === null) return null;
  // A preview never calls the LLM: it shows the deterministic entry and spends nothing.
  if (!input.apply)
    return { path: (await locateDiary(root)).path, entry, written: false, narrative: "deterministic" };
  const todayLabel = backfillDateLabel(input.today);
  // A second sweep the same day that promoted nothing has nothing to tell: today's entry and
  // report stay as the first sweep wrote them.
  const nothingNew = (text: string) =>
    promoted.length === 0 &&
    diaryEntries(text).some((each) => each.backfillDay === undefined && each.date.startsWith(todayLabel));
  let body = entry;
  let narration: Narration = { narrative: "deterministic" };
  // The LLM is asked only for an entry the sweep will write, after the diary's checks, so a call
  // is never spent on a diary sleep may not touch (a link throws here, as updateDiary would).
  if (entry !== null && input.llm !== undefined && !(await locateDiary(root)).tooLarge) {
    const diary = await readDiary(root);
    if (!nothingNew(diary)) {
      const recentEntries = diaryEntries(diary).map((each) => each.body);
      const outcome = await writeNarrative(input.llm, { ...material, recentEntries });
      // On a failure the composed entry is written, not OpenClaw's stub ("A memory trace surfaced,
      // but details were unavailable in this run."): it tells what the night did, and says nothing false.
      if (outcome.kind === "narrative") {
        body = outcome.text;
        narration = { narrative: "llm", model: outcome.model };
      } else narration = { narrative: "fallback", fallbackReason: outcome.reason };
    }
  }
  const result = await updateDiary(root, (text) => {
    let next = text;
    if (nothingNew(text)) return text;
    if (body !== null) next = appendDiaryEntry(next, { at: input.now, timeZone: input.timeZone, body }).text;
    if (report !== null) next = upsertDeepReport(next, report);
    return next;
  });
  // A diary sleep may not rewrite (over 16 MiB, not UTF-8) is left as it is: the sweep says so.
  if (result.reason !== undefined)
    throw new LucidError(
      "IO_ERROR",
      `Sleep left ${result.path} as it is (${result.reason === "too-large" ? "over 16 MiB" : "not UTF-8"}); the night's entry was not written.`,
    );
  return { path: result.path, entry: body, written: result.written, ...narration };
}
