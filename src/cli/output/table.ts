/**
 * Aligned columns. On a terminal, rows stay one line each: the `flex` column is cut to fit, and
 * when even that leaves it too narrow, `droppable` columns are left out (last first). In a pipe
 * nothing is cut or dropped.
 *
 * @module
 */

import { type Style, visibleLength } from "./style.js";

export interface Column {
  header: string;
  align?: "left" | "right";
  /** Shrinks to fit the terminal width. At most one column should. */
  flex?: boolean;
  /** May be left out on a narrow terminal. */
  droppable?: boolean;
}

export interface Cell {
  text: string;
  paint?: (text: string) => string;
}

export interface TableOptions {
  style: Style;
  /** Terminal width, when writing to one. */
  width?: number | undefined;
  /** Print the header row (default true). */
  header?: boolean;
}

const GAP = "  ";
/** Narrower than this, a flex column is hard to read: drop other columns first. */
const COMFORTABLE_FLEX_WIDTH = 30;
const MIN_FLEX_WIDTH = 12;

export function renderTable(
  allColumns: readonly Column[],
  rows: readonly (string | Cell)[][],
  options: TableOptions,
): string {
  const showHeader = options.header ?? true;
  const allCells = rows.map((row) => row.map((cell) => (typeof cell === "string" ? { text: cell } : cell)));
  const naturalWidths = allColumns.map((column, i) =>
    Math.max(
      showHeader ? visibleLength(column.header) : 0,
      ...allCells.map((row) => visibleLength(row[i]?.text ?? "")),
    ),
  );
  const kept = keptColumns(allColumns, naturalWidths, options.width);
  const columns = kept.map((i) => allColumns[i] as Column);
  const widths = kept.map((i) => naturalWidths[i] as number);
  const cells = allCells.map((row) => kept.map((i) => row[i] ?? { text: "" }));
  const flex = columns.findIndex((column) => column.flex === true);
  if (flex >= 0 && options.width !== undefined) {
    const room = options.width - othersWidth(widths, flex) - 1;
    widths[flex] = Math.min(widths[flex] as number, Math.max(MIN_FLEX_WIDTH, room));
  }
  const line = (row: readonly Cell[], paintAll?: (text: string) => string) =>
    columns
      .map((column, i) => {
        const cell = row[i] ?? { text: "" };
        const last = i === columns.length - 1;
        const text = fitCell(cell.text, widths[i] as number, column.align ?? "left", last);
        const paint = paintAll ?? cell.paint;
        return paint === undefined ? text : paint(text);
      })
      .join(GAP)
      .trimEnd();
  const lines = cells.map((row) => line(row));
  if (showHeader)
    lines.unshift(
      line(
        columns.map((column) => ({ text: column.header })),
        options.style.dim,
      ),
    );
  return lines.join("\n");
}

/** Indexes of the columns to print: all of them, less droppable ones while the flex column is cramped. */
function keptColumns(
  columns: readonly Column[],
  widths: readonly number[],
  width: number | undefined,
): number[] {
  const kept = columns.map((_, i) => i);
  const flexAt = () => kept.findIndex((i) => columns[i]?.flex === true);
  if (width === undefined || flexAt() < 0) return kept;
  const cramped = () => {
    const keptWidths = kept.map((i) => widths[i] as number);
    const flex = flexAt();
    const room = width - othersWidth(keptWidths, flex) - 1;
    return room < Math.min(COMFORTABLE_FLEX_WIDTH, keptWidths[flex] as number);
  };
  while (cramped()) {
    const drop = kept.findLastIndex((i) => columns[i]?.droppable === true);
    if (drop < 0) break;
    kept.splice(drop, 1);
  }
  return kept;
}

function othersWidth(widths: readonly number[], flex: number): number {
  return widths.reduce((sum, width, i) => (i === flex ? sum : sum + width + GAP.length), 0);
}

function fitCell(text: string, width: number, align: "left" | "right", last: boolean): string {
  const length = visibleLength(text);
  if (length > width) return `${[...text].slice(0, Math.max(0, width - 1)).join("")}…`;
  if (align === "right") return " ".repeat(width - length) + text;
  return last ? text : text + " ".repeat(width - length);
}

/** `Label   value` lines, labels aligned. */
export function renderFields(fields: readonly [string, string][], style: Style): string {
  const width = Math.max(...fields.map(([label]) => label.length));
  return fields.map(([label, value]) => `${style.dim(label.padEnd(width))}  ${value}`).join("\n");
}
