/**
 * The REM phase (`openclaw-dreaming.md` §6): across the week's recalls, which themes keep surfacing
 * (reflections, by concept tag) and which snippets look like lasting truths, written to a managed
 * `## REM Sleep` block. Like the light phase it never writes `MEMORY.md`; the truths it names get a
 * REM phase signal, the deep phase's largest boost.
 *
 * Pure: the sweep reads the entries and writes what this returns.
 *
 * @module
 */

import { conceptTags } from "./concept-tags.js";
import { contaminationOf } from "./contamination.js";
import { visibleSnippet } from "./promotion-format.js";
import { MAX_PHASE_HITS, type RecallEntry } from "./recall-entry.js";
import { inLookback } from "./recall-window.js";
import type { RemPhaseSettings } from "./sleep-config.js";
import { snippetSimilarity } from "./text-similarity.js";

/** Two truths at least this similar are one. */
const TRUTH_DEDUPE = 0.88;
/** Least confidence of a possible lasting truth. */
const MIN_TRUTH_CONFIDENCE = 0.45;
const EVIDENCE_PER_THEME = 3;

export interface Reflection {
  readonly tag: string;
  /** Entries carrying the tag. */
  readonly count: number;
  /** `min(1, count / entries × 2)`. */
  readonly strength: number;
  /** Up to three of those entries, as `path:start-end`. */
  readonly evidence: readonly string[];
}

export interface Truth {
  readonly key: string;
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly snippet: string;
  readonly confidence: number;
}

export interface RemInput {
  readonly entries: readonly RecallEntry[];
  readonly today: string;
  readonly dayOf: (iso: string) => string;
  readonly settings: RemPhaseSettings;
  /** Keys the light phase staged this sweep: REM looks at those when there are any. */
  readonly staged: readonly string[];
}

export interface RemOutput {
  /** The entries REM looked at. */
  readonly considered: readonly RecallEntry[];
  readonly reflections: readonly Reflection[];
  readonly truths: readonly Truth[];
}

/** §6 steps 2–5. */
export function runRem(input: RemInput): RemOutput {
  const { settings, today, dayOf } = input;
  if (!settings.enabled || settings.limit <= 0) return { considered: [], reflections: [], truths: [] };
  const live = input.entries.filter(
    (entry) =>
      contaminationOf(entry.snippet) === undefined &&
      inLookback(entry, { today, lookbackDays: settings.lookbackDays, dayOf }),
  );
  const staged = new Set(input.staged);
  const preferred = live.filter((entry) => staged.has(entry.key));
  const considered = (preferred.length > 0 ? preferred : live).sort((a, b) => (a.key < b.key ? -1 : 1));
  return {
    considered,
    reflections: reflectionsOf(considered, settings),
    // Promoted today counts as not yet promoted: a second sweep the same day names the same truths.
    truths: truthsOf(
      considered,
      settings,
      (entry) => entry.promotedAt !== undefined && dayOf(entry.promotedAt) >= today,
    ),
  };
}

function reflectionsOf(entries: readonly RecallEntry[], settings: RemPhaseSettings): Reflection[] {
  if (entries.length === 0) return [];
  const carriers = new Map<string, RecallEntry[]>();
  for (const entry of entries)
    for (const tag of conceptTags(entry.path, entry.snippet))
      carriers.set(tag, [...(carriers.get(tag) ?? []), entry]);
  return [...carriers]
    .map(([tag, carrying]) => ({
      tag,
      count: carrying.length,
      strength: Math.min(1, (carrying.length / entries.length) * 2),
      evidence: carrying
        .slice(0, EVIDENCE_PER_THEME)
        .map((each) => `${each.path}:${each.startLine}-${each.endLine}`),
    }))
    .filter((reflection) => reflection.strength >= settings.minPatternStrength)
    .sort((a, b) => b.strength - a.strength || b.count - a.count || (a.tag < b.tag ? -1 : 1))
    .slice(0, settings.limit);
}

/** §6 step 5: `0.45·avgScore + 0.25·frequency + 0.20·days + 0.10·tags`, at least 0.45, the best 1–3. */
function truthsOf(
  entries: readonly RecallEntry[],
  settings: RemPhaseSettings,
  promotedToday: (entry: RecallEntry) => boolean,
): Truth[] {
  const kept: RecallEntry[] = [];
  for (const entry of entries.filter((each) => each.promotedAt === undefined || promotedToday(each)))
    if (!kept.some((each) => snippetSimilarity(each.snippet, entry.snippet) >= TRUTH_DEDUPE))
      kept.push(entry);
  return kept
    .map((entry) => {
      const signals = entry.recallCount + entry.dailyCount + entry.groundedCount;
      const average = signals > 0 ? Math.min(1, entry.totalScore / signals) : 0;
      const confidence =
        0.45 * average +
        0.25 * Math.min(1, Math.log(1 + entry.recallCount) / Math.log(7)) +
        0.2 * Math.min(1, entry.recallDays.length / 3) +
        0.1 * Math.min(1, conceptTags(entry.path, entry.snippet).length / 6);
      return {
        key: entry.key,
        path: entry.path,
        startLine: entry.startLine,
        endLine: entry.endLine,
        snippet: entry.snippet,
        confidence,
      };
    })
    .filter((truth) => truth.confidence >= MIN_TRUTH_CONFIDENCE)
    .sort((a, b) => b.confidence - a.confidence || (a.key < b.key ? -1 : 1))
    .slice(0, Math.max(1, Math.min(3, settings.limit)));
}

/** The block's body (§6 steps 4–6). */
export function remBody(output: RemOutput): string {
  const reflections =
    output.reflections.length === 0
      ? ["- No strong patterns surfaced."]
      : output.reflections.map((reflection) =>
          [
            `- Theme: \`${reflection.tag}\` kept surfacing across ${reflection.count} ${reflection.count === 1 ? "memory" : "memories"}.`,
            `  - confidence: ${reflection.strength.toFixed(2)}`,
            `  - evidence: ${reflection.evidence.join(", ")}`,
            "  - note: reflection",
          ].join("\n"),
        );
  const truths =
    output.truths.length === 0
      ? ["- No strong candidate truths surfaced."]
      : output.truths.map(
          (truth) =>
            `- ${visibleSnippet(truth.snippet)} [confidence=${truth.confidence.toFixed(2)} evidence=${truth.path}:${truth.startLine}-${truth.endLine}]`,
        );
  return ["### Reflections", ...reflections, "", "### Possible Lasting Truths", ...truths].join("\n");
}

/** The entry with the REM phase's signal for this sweep, or undefined when it already has it today. */
export function withRemSignal(
  entry: RecallEntry,
  now: string,
  dayOf: (iso: string) => string,
): RecallEntry | undefined {
  if (entry.lastRemAt !== undefined && dayOf(entry.lastRemAt) === dayOf(now)) return undefined;
  return { ...entry, remHits: Math.min(MAX_PHASE_HITS, (entry.remHits ?? 0) + 1), lastRemAt: now };
}
