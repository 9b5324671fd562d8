/**
 * The dream benchmark: `npx tsx bench/dream.ts [--sizes 10000,100000] [--skip-quality] [--embedder minilm|use-lite]`.
 *
 * 1. Quality on the labelled corpus (see dream-quality.ts).
 * 2. Time and peak memory to plan one scope of 10k and 100k synthetic memories with precomputed
 *    vectors (dream-synthetic.ts builds the store once into .bench-data/; dream-time.ts plans it in
 *    a fresh process so that its peak RSS is the plan's own).
 *
 * Prints Markdown tables for BENCHMARKS.md and writes .bench-data/results-dream.json.
 *
 * @module
 */

import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SCHEMA_VERSION } from "../src/store/sqlite/sqlite-schema.js";
import { measureQuality, type QualityResult, qualityEmbedder, renderQuality } from "./dream-quality.js";
import type { DreamTiming } from "./dream-time.js";
import { benchDataFile } from "./paths.js";
import { fixed, renderRunInfo, renderTable, runInfo, writeResults } from "./report.js";

// Bump when the synthetic scope changes, so stale stores are rebuilt. The store's schema version is
// in the file name too: the timing opens it read-only, and an older schema cannot be upgraded there.
const SYNTHETIC_VERSION = 2;
const GOALS_MS: Readonly<Record<number, number>> = { 10000: 10_000, 100000: 120_000 };

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index < 0 ? undefined : process.argv[index + 1];
}

/** Runs a bench script in a child process with the same loader (tsx) and returns its stdout. */
function runScript(script: string, args: readonly string[]): string {
  const file = fileURLToPath(new URL(script, import.meta.url));
  return execFileSync(process.execPath, [...process.execArgv, file, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 24,
    stdio: ["ignore", "pipe", "inherit"],
  });
}

function timeSize(count: number): DreamTiming {
  const file = benchDataFile(`dream-${count}-v${SYNTHETIC_VERSION}-s${SCHEMA_VERSION}.db`);
  if (!existsSync(file)) {
    process.stderr.write(`building ${count} synthetic memories into ${file}…\n`);
    runScript("./dream-synthetic.ts", [String(count), file]);
  }
  process.stderr.write(`planning ${count}…\n`);
  return JSON.parse(runScript("./dream-time.ts", [file]).trim()) as DreamTiming;
}

function renderPhases(timings: readonly DreamTiming[]): string {
  const phases = [...new Set(timings.flatMap((timing) => Object.keys(timing.phasesMs)))];
  return renderTable(
    ["memories", ...phases.map((phase) => `${phase} s`)],
    timings.map((timing) => [
      timing.memories,
      ...phases.map((phase) => fixed((timing.phasesMs[phase] ?? 0) / 1000, 1)),
    ]),
  );
}

function renderTimings(timings: readonly DreamTiming[]): string {
  return renderTable(
    [
      "memories",
      "index",
      "load s",
      "plan s",
      "total s",
      "goal s",
      "peak RSS MB",
      "neighbour recall ≥0.6",
      "≥0.8",
      "actions",
    ],
    timings.map((timing) => [
      timing.memories,
      timing.index,
      fixed(timing.loadMs / 1000, 1),
      fixed(timing.planMs / 1000, 1),
      fixed(timing.totalMs / 1000, 1),
      (GOALS_MS[timing.memories] ?? Number.NaN) / 1000,
      timing.peakRssMb,
      fixed(timing.neighbourRecall, 3),
      fixed(timing.neighbourRecallStrong, 3),
      Object.entries(timing.actions)
        .map(([kind, count]) => `${kind} ${count}`)
        .join(", "),
    ]),
  );
}

const info = runInfo();
const sizes = (argument("--sizes") ?? "10000,100000").split(",").map(Number);
let quality: QualityResult | undefined;
if (!process.argv.includes("--skip-quality"))
  quality = await measureQuality(qualityEmbedder(argument("--embedder")));
const timings = sizes.map(timeSize);

console.log(
  `## Dream\n\n${renderRunInfo({ ...info, command: `npx tsx bench/dream.ts ${process.argv.slice(2).join(" ")}`.trim() })}\n`,
);
if (quality !== undefined) console.log(`### Quality\n\n${renderQuality(quality)}\n`);
console.log(`### Scale (one scope, synthetic 512-d vectors, precomputed)\n\n${renderTimings(timings)}\n`);
console.log(`Where the plan's time goes:\n\n${renderPhases(timings)}`);
const path = writeResults("dream", info, {
  quality:
    quality === undefined
      ? undefined
      : {
          memories: quality.memories,
          tuned: Object.fromEntries(quality.tuned.scores),
          heldOut: Object.fromEntries(quality.heldOut.scores),
          analysersOnly: Object.fromEntries(quality.analysersOnly.scores),
          independent: Object.fromEntries(quality.independent.scores),
          independentHarmful: quality.independent.harmful.length,
          dev: Object.fromEntries(quality.dev.scores),
          surfaced: {
            tuned: Object.fromEntries(quality.surfaced.tuned.scores),
            independent: Object.fromEntries(quality.surfaced.independent.scores),
            dev: Object.fromEntries(quality.surfaced.dev.scores),
          },
        },
  timings,
});
process.stderr.write(`results: ${path}\n`);
