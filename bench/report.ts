/**
 * Output of a benchmark run: a plain-text table for people and a JSON file for tools, both stamped
 * with the machine, the date and the command that produced them.
 *
 * @module
 */

import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { benchDataFile } from "./paths.js";

export interface RunInfo {
  readonly machine: { cpu: string; cores: number; node: string; platform: string };
  /** 1-minute load average when the run started: other processes on a small machine skew latencies. */
  readonly loadAtStart: number;
  readonly date: string;
  readonly command: string;
}

export function runInfo(): RunInfo {
  const cpuList = cpus();
  const args = process.argv.slice(2).join(" ");
  // Under `npm run bench…`, npm names the script it ran; otherwise (tsx, npx tsx) show the direct call.
  const script = process.env.npm_lifecycle_event;
  const viaNpm = script?.startsWith("bench") === true;
  const command = viaNpm ? `npm run ${script}${args ? ` -- ${args}` : ""}` : `tsx bench/run.ts ${args}`;
  return {
    machine: {
      cpu: cpuList[0]?.model.trim() ?? "unknown",
      cores: cpuList.length,
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
    },
    loadAtStart: loadavg()[0] ?? Number.NaN,
    date: new Date().toISOString(),
    command: command.trim(),
  };
}

export function renderRunInfo(info: RunInfo): string {
  const { machine } = info;
  const load = info.loadAtStart.toFixed(2);
  const busy = info.loadAtStart > machine.cores / 2 ? " (busy machine: latencies are inflated)" : "";
  return `${info.date} · ${machine.cpu}, ${machine.cores} cores, load ${load}${busy} · node ${machine.node} · ${info.command}`;
}

export type Cell = string | number;

/** A pipe table (valid Markdown), numbers right-aligned. */
export function renderTable(headers: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const text = rows.map((row) => row.map((cell) => String(cell)));
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...text.map((row) => (row[column] ?? "").length)),
  );
  const numeric = headers.map(
    (_, column) => rows.length > 0 && rows.every((row) => typeof row[column] === "number"),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells
      .map((cell, column) => {
        const width = widths[column] ?? 0;
        return numeric[column] ? cell.padStart(width) : cell.padEnd(width);
      })
      .join(" | ")} |`;
  const rule = `|${widths.map((width, column) => (numeric[column] ? `${"-".repeat(width + 1)}:` : "-".repeat(width + 2))).join("|")}|`;
  return [line(headers), rule, ...text.map(line)].join("\n");
}

/** Fixed decimals, as a number so the table right-aligns it. */
export const fixed = (value: number, digits: number): number => Number(value.toFixed(digits));

export interface Goal {
  readonly name: string;
  readonly target: string;
  readonly actual: string;
  readonly pass: boolean;
}

/** Goals are reported, never enforced: a miss prints MISS and the process still succeeds. */
export function renderGoals(goals: readonly Goal[]): string {
  return renderTable(
    ["goal", "target", "actual", "verdict"],
    goals.map((goal) => [goal.name, goal.target, goal.actual, goal.pass ? "PASS" : "MISS"]),
  );
}

/** Writes `.bench-data/results-<name>.json` and returns its path. */
export function writeResults(name: string, info: RunInfo, results: unknown): string {
  const path = benchDataFile(`results-${name}.json`);
  writeFileSync(path, `${JSON.stringify({ ...info, results }, null, 2)}\n`);
  return path;
}
