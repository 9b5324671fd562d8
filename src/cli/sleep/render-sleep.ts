/**
 * What `lucid sleep …` prints on a terminal (the `--json` forms are the SDK's results as they are).
 *
 * @module
 */

import type { Explanation } from "../../sleep/explain.js";
import type { PromoteResult } from "../../sleep/promotion-types.js";
import type { RecallEntry } from "../../sleep/recall-entry.js";
import type { SleepStatus } from "../../sleep/sleep-status.js";
import type { NoteResult } from "../../sleep/workspace-search.js";
import { formatDate, oneLine, plural } from "../output/format.js";
import type { Style } from "../output/style.js";
import { renderTable } from "../output/table.js";

interface RenderOptions {
  readonly style: Style;
  readonly width?: number | undefined;
}

const REFUSALS: Record<string, string> = {
  "not-found": "its text is no longer in the note",
  "inside-fence": "it lies inside a managed openclaw:dreaming block",
  "source-changed": "the note changed while sleep read it",
  budget: "MEMORY.md has no room left within its budget",
  "missing-file": "the note is gone",
  "outside-workspace": "the note links outside the workspace",
};

/** The ranked candidates: rank, score, recalls, queries, days, age, range, snippet. */
export function renderCandidates(result: PromoteResult, options: RenderOptions): string {
  if (result.candidates.length === 0) return options.style.dim("Nothing would be promoted now.");
  return renderTable(
    [
      { header: "RANK", align: "right" },
      { header: "SCORE", align: "right" },
      { header: "RECALLS", align: "right" },
      { header: "QUERIES", align: "right", droppable: true },
      { header: "DAYS", align: "right", droppable: true },
      { header: "AGE", align: "right", droppable: true },
      { header: "RANGE" },
      { header: "SNIPPET", flex: true },
    ],
    result.candidates.map((candidate) => [
      String(candidate.rank),
      candidate.score.toFixed(3),
      String(candidate.recalls),
      String(candidate.uniqueQueries),
      String(candidate.days),
      `${candidate.ageDays.toFixed(1)}d`,
      candidate.address,
      oneLine(candidate.snippet),
    ]),
    options,
  );
}

export function renderPromotion(result: PromoteResult, options: RenderOptions): string {
  const { style } = options;
  if (!result.applied) {
    return [
      renderCandidates(result, options),
      "",
      style.dim(`Preview as of ${result.now}: nothing written. Promote with --apply.`),
    ].join("\n");
  }
  const lines: string[] = [];
  if (result.promoted.length > 0) {
    lines.push(
      `Promoted ${plural(result.promoted.length, "range")} into ${result.memoryFile} (run ${result.runId}):`,
      ...result.promoted.map(
        (entry) => `  ${entry.score.toFixed(3)}  ${entry.path}#L${entry.startLine}-L${entry.endLine}`,
      ),
    );
  } else {
    lines.push(`Nothing new to promote into ${result.memoryFile}.`);
  }
  if (result.reconciled.length > 0)
    lines.push(
      style.dim(`${plural(result.reconciled.length, "range")} already in MEMORY.md: marked promoted.`),
    );
  for (const refusal of result.refused)
    lines.push(style.yellow(`  refused ${refusal.address}: ${REFUSALS[refusal.reason] ?? refusal.reason}`));
  if (result.compactedDates.length > 0)
    lines.push(
      style.dim(`Compacted older generated sections to stay in budget: ${result.compactedDates.join(", ")}.`),
    );
  if (result.runId !== null) lines.push(style.dim(`Undo with: lucid sleep rollback ${result.runId}`));
  return lines.join("\n");
}

export function renderExplanation(explained: Explanation, options: RenderOptions): string {
  const { style } = options;
  const components = renderTable(
    [
      { header: "COMPONENT" },
      { header: "VALUE", align: "right" },
      { header: "WEIGHT", align: "right" },
      { header: "CONTRIBUTES", align: "right" },
    ],
    [
      ...explained.components.map((each) => [
        each.component,
        each.value.toFixed(3),
        each.weight.toFixed(2),
        each.contribution.toFixed(3),
      ]),
      ["phase boost", "", "", explained.phaseBoost.toFixed(3)],
    ],
    options,
  );
  const gates = renderTable(
    [
      { header: "GATE" },
      { header: "VALUE", align: "right" },
      { header: "NEEDS", align: "right" },
      { header: "" },
      { header: "WHY" },
    ],
    explained.gates.map((gate) => [
      gate.gate,
      Number.isInteger(gate.value) ? String(gate.value) : gate.value.toFixed(3),
      String(gate.threshold),
      gate.passed ? { text: "pass", paint: style.green } : { text: "fail", paint: style.red },
      gate.why,
    ]),
    options,
  );
  return [
    `${style.bold(explained.address)}  score ${explained.score.toFixed(3)}`,
    `  ${oneLine(explained.snippet)}`,
    "",
    components,
    "",
    gates,
    "",
    `Verdict: ${explained.verdict}${explained.promotedAt === null ? "" : ` (promoted ${formatDate(explained.promotedAt)})`}`,
  ].join("\n");
}

/** Events of the log a status shows; `--json` has the last ten. */
const STATUS_EVENTS_SHOWN = 5;

export function renderStatus(status: SleepStatus, options: RenderOptions): string {
  const { style } = options;
  const last = status.lastRun;
  const lines = [
    `Workspace   ${status.workspace}`,
    `MEMORY.md   ${status.memoryFile} — ${status.memoryChars.toLocaleString("en-US")} of ${status.budgetChars.toLocaleString("en-US")} characters`,
    ...status.unwritable.map((file) => `            ${style.yellow(`${file.path} ${file.reason}`)}`),
    `Notes       ${status.indexedFiles} indexed, ${status.shortTermFiles} of them daily notes`,
    ...(status.leftOut.length === 0 ? [] : [`            ${style.yellow(renderLeftOut(status.leftOut))}`]),
    `Recalls     ${plural(status.entries, "range")} recorded, ${status.promotedEntries} promoted`,
    `Last run    ${last === null ? "none" : `${last.id} at ${formatDate(last.committedAt)}: ${plural(last.promoted, "range")} promoted${last.undoneAt === null ? "" : ", rolled back"}`}`,
    `Last sweep  ${renderLastSweep(status.lastSweep, style)}`,
    "",
    status.wouldPromote.length === 0
      ? style.dim("Nothing would be promoted now.")
      : `Would promote now (${status.wouldPromote.length}):`,
  ];
  for (const candidate of status.wouldPromote)
    lines.push(
      `  ${candidate.score.toFixed(3)}  ${candidate.address}  ${oneLine(candidate.snippet).slice(0, 80)}`,
    );
  if (status.blockers.length > 0) {
    // Only a switched-off deep phase blocks while ranges would promote: then no sweep promotes them.
    lines.push(
      "",
      style.bold(status.wouldPromote.length === 0 ? "Why nothing promotes" : "Why no sweep promotes them"),
      ...status.blockers.map((blocker) => wrapItem(blocker.message, options.width)),
    );
  }
  if (status.events.length > 0) {
    const shown = status.events.slice(0, STATUS_EVENTS_SHOWN);
    lines.push(
      "",
      style.bold(
        shown.length < status.events.length
          ? `Recent events (${shown.length} of ${status.events.length}, newest first; --json has all)`
          : "Recent events (newest first)",
      ),
      ...shown.map((event) => `  ${renderEvent(event, style)}`),
    );
  }
  return lines.join("\n");
}

/** Notes a status names as left out at most; `--json` has them all. */
const LEFT_OUT_SHOWN = 5;

/** `2 notes left out: memory/2026-11-04.md links outside the workspace; memory/big.md larger than …`. */
function renderLeftOut(leftOut: SleepStatus["leftOut"]): string {
  const named = leftOut.slice(0, LEFT_OUT_SHOWN).map((note) => `${note.path} ${note.reason}`);
  const more =
    leftOut.length > LEFT_OUT_SHOWN ? `; ${leftOut.length - LEFT_OUT_SHOWN} more (--json has all)` : "";
  return `${plural(leftOut.length, "note")} left out: ${named.join("; ")}${more}`;
}

/** `2026-11-29 03:00: light completed, rem completed, deep failed`. */
function renderLastSweep(sweep: SleepStatus["lastSweep"], style: Style): string {
  if (sweep === null) return "none";
  const phases = sweep.phases.map(({ phase, outcome }) => `${phase} ${paintOutcome(outcome, style)}`);
  return `${formatDate(sweep.at)}: ${phases.join(", ")}`;
}

function paintOutcome(outcome: string, style: Style): string {
  if (outcome === "failed") return style.red(outcome);
  if (outcome === "skipped") return style.dim(outcome);
  return outcome;
}

/** One line of the event log: time, type, phase (or source), outcome, then its counts. */
function renderEvent(event: SleepStatus["events"][number], style: Style): string {
  const { data } = event;
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  const phase = text(data.phase) || text(data.source);
  const outcome = text(data.outcome);
  const counts = Object.entries(data)
    .filter((entry): entry is [string, number] => typeof entry[1] === "number")
    .map(([name, count]) => `${name} ${count}`);
  const error = data.error as { code?: unknown } | undefined;
  if (typeof error?.code === "string") counts.push(error.code);
  const cells = [
    formatDate(event.at),
    event.type.replace(/^memory\./u, "").padEnd(17),
    phase.padEnd(8),
    paintOutcome(outcome, style) + " ".repeat(Math.max(0, 10 - outcome.length)),
    counts.join(", "),
  ];
  return cells.join("  ").trimEnd();
}

/** `  - text`, wrapped at spaces to `width` under its first word (unwrapped without a width). */
function wrapItem(text: string, width: number | undefined): string {
  const first = "  - ";
  const rest = "    ";
  if (width === undefined) return first + text;
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const indent = lines.length === 0 ? first : rest;
    if (line !== "" && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  lines.push((lines.length === 0 ? first : rest) + line);
  return lines.join("\n");
}

export function renderSignals(entries: readonly RecallEntry[], options: RenderOptions): string {
  if (entries.length === 0) return options.style.dim("No recall signals recorded in this workspace yet.");
  return renderTable(
    [
      { header: "RANGE" },
      { header: "RECALLS", align: "right" },
      { header: "QUERIES", align: "right" },
      { header: "DAYS", align: "right", droppable: true },
      { header: "LAST", droppable: true },
      { header: "PROMOTED", droppable: true },
      { header: "SNIPPET", flex: true },
    ],
    entries.map((entry) => [
      `${entry.path}#L${entry.startLine}-L${entry.endLine}`,
      String(entry.recallCount + entry.dailyCount + entry.groundedCount),
      String(entry.userQueryHashes.length),
      String(entry.recallDays.length),
      formatDate(entry.lastRecalledAt),
      entry.promotedAt === undefined ? "" : formatDate(entry.promotedAt),
      oneLine(entry.snippet),
    ]),
    options,
  );
}

/** Note hits of a workspace search: score, address, snippet; daily notes marked as recorded. */
export function renderNoteHits(notes: readonly NoteResult[], options: RenderOptions): string {
  if (notes.length === 0) return options.style.dim("No notes found.");
  return renderTable(
    [
      { header: "SCORE", align: "right" },
      { header: "NOTE" },
      { header: "", droppable: true },
      { header: "SNIPPET", flex: true },
    ],
    notes.map((note) => [
      `${Math.round(note.score * 100)}%`,
      note.address,
      note.shortTerm ? { text: "daily", paint: options.style.dim } : "",
      oneLine(note.snippet),
    ]),
    options,
  );
}
