/**
 * Memories as tables (`list`, `search`, `forget` candidates) and as a detail block (`get`).
 *
 * @module
 */

import { formatScope, SCOPE_KEYS, scopeOfRow } from "../../core/scope.js";
import type { MemoryItem, ScoreDetails } from "../../memory/types.js";
import { FUSION_WEIGHTS } from "../../search/fuse.js";
import { colorScore, formatDate, formatScore, oneLine } from "./format.js";
import type { Style } from "./style.js";
import { type Cell, renderFields, renderTable } from "./table.js";

export interface RenderOptions {
  style: Style;
  /** Terminal width when writing to one: long texts are cut to keep one memory a line. */
  width?: number | undefined;
}

function memoryCell(item: MemoryItem, style: Style): Cell {
  const pinned = item.metadata.pinned === true;
  return {
    text: oneLine(item.memory) + (pinned ? " [pinned]" : ""),
    ...(pinned ? { paint: style.cyan } : {}),
  };
}

/**
 * `ID  CREATED  [SCOPE]  CATEGORY  MEMORY`, one memory a line. The SCOPE column appears when the
 * memories differ in a scope key (one user's memories of several agents, apps or runs) and shows
 * every key that varies, so two memories that look alike are told apart.
 */
export function renderMemoryList(items: readonly MemoryItem[], options: RenderOptions): string {
  const { style } = options;
  const varying = SCOPE_KEYS.filter((key) => new Set(items.map((item) => item[key] ?? "")).size > 1);
  const rows = items.map((item) => [
    { text: item.id, paint: style.dim },
    formatDate(item.createdAt),
    ...(varying.length === 0
      ? []
      : [
          varying.flatMap((key) => (item[key] === undefined ? [] : [`${key}=${item[key]}`])).join(" ") || "—",
        ]),
    category(item),
    memoryCell(item, style),
  ]);
  return renderTable(
    [
      { header: "ID" },
      { header: "CREATED", droppable: true },
      ...(varying.length === 0 ? [] : [{ header: "SCOPE" }]),
      { header: "CATEGORY", droppable: true },
      { header: "MEMORY", flex: true },
    ],
    rows,
    options,
  );
}

/** `#  SCORE  ID  MEMORY`, best first; with `explain`, each signal's part under each result. */
export function renderScoredList(
  items: readonly MemoryItem[],
  options: RenderOptions & { explain?: boolean },
): string {
  const { style } = options;
  const columns = [
    { header: "#", align: "right" as const },
    { header: "SCORE", align: "right" as const },
    { header: "ID" },
    { header: "MEMORY", flex: true },
  ];
  const rows = items.map((item, i) => [
    String(i + 1),
    { text: formatScore(item.score), paint: colorScore(item.score, style) },
    { text: item.id, paint: style.dim },
    memoryCell(item, style),
  ]);
  const table = renderTable(columns, rows, options);
  if (options.explain !== true) return table;
  const lines = table.split("\n");
  const out = [lines[0] as string];
  // Under the ID column: past the "#" and "SCORE" columns and their gaps.
  const indent = " ".repeat(String(items.length).length + "  SCORE  ".length);
  items.forEach((item, i) => {
    out.push(lines[i + 1] as string);
    if (item.score_details !== undefined) out.push(indent + style.dim(explainScore(item.score_details)));
  });
  return out.join("\n");
}

/**
 * `semantic 0.62 + keyword 0.71×0.5 + entity 0.00×2 + speaker 1.00×0.3 = 1.28 / 2.80 → 46% · threshold 10% · matched by dense, keyword`
 *
 * Each signal with its weight when that is not 1 (`fuse.ts`); speaker, date and time only
 * when they count for this memory; the conversation's share when it moved the score.
 */
export function explainScore(details: ScoreDetails): string {
  const n = (value: number) => value.toFixed(2);
  const parts: [string, number, number][] = [
    ["semantic", details.semanticScore, FUSION_WEIGHTS.semantic],
    ["keyword", details.bm25Score, FUSION_WEIGHTS.bm25],
    ["entity", details.entityBoost, FUSION_WEIGHTS.entity],
    ["speaker", details.speakerMatch, FUSION_WEIGHTS.speaker],
    ["date", details.dateMatch, FUSION_WEIGHTS.date],
    ["time", details.timeMatch, FUSION_WEIGHTS.time],
  ];
  const always = new Set(["semantic", "keyword", "entity"]);
  const sum = parts
    .filter(([name, value]) => always.has(name) || value > 0)
    .map(([name, value, weight]) => `${name} ${n(value)}${weight === 1 ? "" : `×${weight}`}`)
    .join(" + ");
  const thread =
    Math.abs(details.finalScore - details.baseScore) < 5e-7
      ? ""
      : ` → ${formatScore(details.finalScore)} with its conversation`;
  return (
    `${sum} = ${n(details.rawScore)} / ${n(details.maxPossibleScore)} → ${formatScore(details.baseScore)}${thread}` +
    ` · threshold ${formatScore(details.threshold)} · matched by ${details.matchedBy.join(", ") || "none"}`
  );
}

/** Every field of one memory, one a line. */
export function renderMemoryDetail(item: MemoryItem, style: Style): string {
  const { category: _category, ...metadata } = item.metadata;
  const fields: [string, string][] = [
    ["ID", item.id],
    ["Memory", item.memory],
    ["Scope", formatScope(scopeOfRow(item))],
    ["Category", category(item) || style.dim("none")],
    ["Metadata", Object.keys(metadata).length === 0 ? style.dim("{}") : JSON.stringify(metadata)],
    ["Created", formatDate(item.createdAt)],
    ["Updated", formatDate(item.updatedAt)],
  ];
  if (item.expiresAt !== undefined) fields.push(["Expires", formatDate(item.expiresAt)]);
  if (item.score !== undefined) fields.push(["Score", formatScore(item.score)]);
  return renderFields(fields, style);
}

function category(item: MemoryItem): string {
  return typeof item.metadata.category === "string" ? item.metadata.category : "";
}
