/**
 * Where search and add spend their time: each store operation's share (from a timed store), the
 * rest attributed to JavaScript (vector checks, query parsing, ranking), and the text analysis
 * steps timed on their own.
 *
 * @module
 */

import { extractEntities } from "../src/text/entities.js";
import { keywordTerms } from "../src/text/keywords.js";
import { contentHash } from "../src/text/normalise.js";
import { renderTable } from "./report.js";
import type { TimedStore } from "./timed-store.js";

export interface ProfileRow {
  readonly step: string;
  /** Mean milliseconds per call of the measured unit (one search, one add). */
  readonly meanMs: number;
}

export interface Profile {
  readonly unit: string;
  readonly count: number;
  readonly totalMeanMs: number;
  readonly rows: readonly ProfileRow[];
}

/** Runs `unit` once per input through a memory opened over `timed.store`, and splits the mean time. */
export async function profileUnits<T>(options: {
  name: string;
  timed: TimedStore;
  inputs: readonly T[];
  unit: (input: T) => Promise<unknown>;
  /** Text analysis done inside the unit, timed separately over the same inputs. */
  analysis: Record<string, (input: T) => unknown>;
}): Promise<Profile> {
  const { timed, inputs, unit } = options;
  const sums = new Map<string, number>();
  let total = 0;
  timed.take();
  for (const input of inputs) {
    const start = performance.now();
    await unit(input);
    total += performance.now() - start;
    for (const [label, ms] of timed.take()) sums.set(label, (sums.get(label) ?? 0) + ms);
  }
  const n = Math.max(inputs.length, 1);
  // A transaction's own time includes its tx.* operations; it is shown as the rest ("commit and glue").
  const txOps = [...sums].filter(([label]) => label.startsWith("tx.")).reduce((sum, [, ms]) => sum + ms, 0);
  const rows: ProfileRow[] = [...sums]
    .map(([label, ms]) => ({
      step: label === "transaction" ? "transaction: begin/commit + callback JS" : `store.${label}`,
      meanMs: (label === "transaction" ? ms - txOps : ms) / n,
    }))
    .sort((a, b) => b.meanMs - a.meanMs);
  const storeMs = [...sums]
    .filter(([label]) => !label.startsWith("tx."))
    .reduce((sum, [, ms]) => sum + ms, 0);
  rows.push({
    step: "outside the store (JS: validation, text analysis, ranking, …)",
    meanMs: (total - storeMs) / n,
  });
  for (const [label, fn] of Object.entries(options.analysis)) {
    const start = performance.now();
    for (const input of inputs) fn(input);
    rows.push({ step: `  of which ${label}`, meanMs: (performance.now() - start) / n });
  }
  return { unit: options.name, count: inputs.length, totalMeanMs: total / n, rows };
}

export const searchAnalysis = {
  "extractEntities(query)": (query: string) => extractEntities(query),
  "keywordTerms(query)": (query: string) => keywordTerms(query),
};

export const addAnalysis = {
  "extractEntities(text)": (text: string) => extractEntities(text),
  "contentHash(text)": (text: string) => contentHash(text),
};

export function renderProfile(profile: Profile): string {
  return renderTable(
    ["step", "mean ms", "share"],
    [
      ...profile.rows.map((row) => [
        row.step,
        Number(row.meanMs.toFixed(3)),
        `${((100 * row.meanMs) / profile.totalMeanMs).toFixed(0)}%`,
      ]),
      [`total per ${profile.unit}`, Number(profile.totalMeanMs.toFixed(3)), "100%"],
    ],
  );
}
