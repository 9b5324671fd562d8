/**
 * `lucid sleep` and `lucid sleep preview` as a terminal shows them: one line a phase, then (for a
 * preview, or with what a sweep did) the staged candidates, the truths, the ranges deep promotes and
 * the diary entry.
 *
 * @module
 */

import type { SweepResult } from "../../sleep/sleep-sweep.js";
import { plural } from "../output/format.js";
import type { Style } from "../output/style.js";

interface RenderOptions {
  readonly style: Style;
  readonly width: number | undefined;
}

/** Items of a list shown before "… and N more". */
const SHOWN = 5;

export function renderSweep(result: SweepResult, options: RenderOptions): string {
  const { style } = options;
  const lines = [
    result.applied
      ? `Sleep swept ${result.workspace} at ${result.now} (day ${result.day}).`
      : style.bold(
          `Preview of a sweep of ${result.workspace} at ${result.now} (day ${result.day}): nothing written.`,
        ),
    `  index      ${plural(result.index.files, "note")}, ${result.index.indexed} re-indexed`,
    `  ingestion  ${plural(result.ingestion.files, "daily note")} in the window, ${result.ingestion.read} read, ${plural(result.ingestion.sightings, "sighting")}`,
  ];
  for (const report of result.phases) {
    const what =
      report.outcome === "skipped"
        ? style.dim(`skipped (${report.reason})`)
        : report.outcome === "failed"
          ? style.red(`failed: ${report.reason}`)
          : phaseSummary(result, report.phase);
    const where = report.written.length > 0 ? style.dim(` → ${report.written.join(", ")}`) : "";
    lines.push(`  ${report.phase.padEnd(10)} ${what}${where}`);
  }
  if (result.diary !== null) {
    const { diary } = result;
    const by =
      diary.narrative === "llm"
        ? ` by ${result.llm?.model ?? diary.model}`
        : diary.narrative === "fallback"
          ? ` (composed: the LLM failed, ${diary.fallbackReason})`
          : "";
    const cost =
      result.llm === undefined
        ? ""
        : style.dim(` · ${result.llm.inputTokens} + ${result.llm.outputTokens} tokens`);
    lines.push(
      `  diary      ${diary.path}: ${diary.written ? `entry written${by}` : result.applied ? "nothing new" : "would write an entry"}${cost}`,
    );
  }
  if (!result.applied) lines.push(...previewDetails(result, options));
  return lines.join("\n");
}

function phaseSummary(result: SweepResult, phase: string): string {
  if (phase === "light") return `${plural(result.staged.length, "candidate")} staged`;
  if (phase === "rem")
    return `${plural(result.reflections.length, "reflection")}, ${plural(result.truths.length, "possible lasting truth", "possible lasting truths")}`;
  if (result.promotion === null) return `${plural(result.candidates.length, "range")} would be promoted`;
  const { promoted, refused } = result.promotion;
  return `${promoted.length} promoted of ${plural(result.candidates.length, "ranked range")}${refused.length > 0 ? `, ${refused.length} refused` : ""}${result.promotion.runId === null ? "" : ` (run ${result.promotion.runId})`}`;
}

function previewDetails(result: SweepResult, options: RenderOptions): string[] {
  const { style, width } = options;
  const clip = (text: string, indent: number) => {
    const room = Math.max(20, (width ?? 100) - indent);
    return text.length <= room ? text : `${text.slice(0, room - 1)}…`;
  };
  const section = (title: string, items: readonly string[]) =>
    items.length === 0
      ? []
      : [
          "",
          style.bold(title),
          ...items.slice(0, SHOWN).map((item) => `  ${clip(item, 2)}`),
          ...(items.length > SHOWN
            ? [style.dim(`  … and ${items.length - SHOWN} more (--json lists all)`)]
            : []),
        ];
  return [
    ...section(
      "Light would stage",
      result.staged.map(
        (entry) =>
          `${entry.confidence.toFixed(2)}  ${entry.path}#L${entry.startLine}-L${entry.endLine}  ${entry.snippet}`,
      ),
    ),
    ...section("REM would reflect", [
      ...result.reflections.map((reflection) => `theme ${reflection.tag} (${reflection.count})`),
      ...result.truths.map(
        (truth) =>
          `truth ${truth.confidence.toFixed(2)}  ${truth.path}#L${truth.startLine}-L${truth.endLine}  ${truth.snippet}`,
      ),
    ]),
    ...section(
      "Deep would promote",
      result.candidates.map(
        (candidate) => `${candidate.score.toFixed(3)}  ${candidate.address}  ${candidate.snippet}`,
      ),
    ),
    ...(result.diary?.entry ? ["", style.bold("The diary entry"), result.diary.entry] : []),
  ];
}
