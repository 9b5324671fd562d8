/**
 * `npm run bench:sleep [-- --embedder all|hashing|minilm|use-lite] [--events 20000] [--calls 1000] [--searches 400]`:
 * sleep's costs on a year of daily notes.
 *
 * A workspace of 365 daily notes (`memory/2025-12-01.md` … `memory/2026-11-30.md`, ~30 lines each:
 * headings, list items with nested items, short paragraphs; seeded) and a hand-written `MEMORY.md`;
 * 20,000 searches over the year replayed as a search log (each hit a chunk of a note written before
 * the search, picked by topic, recency and a per-chunk importance, so a few ranges keep coming back
 * under many queries and pass the deep phase's gates). Per embedder, in a fresh temp workspace and
 * SQLite file:
 *
 * 1. the year: first index (cold), second index (nothing changed), one note edited and re-indexed,
 *    the log recorded (`recordLog`), the deep sweep (`promote({ apply: true })`), and their total;
 * 2. recording one search's recalls (`ws.record`, up to 6 hits) on the workspace the year filled
 *    (512 records, the cap), `--calls` distinct queries and timestamps: hits without their text
 *    (read from the note, as a replayed log does), with it (as a search passes them), and six
 *    ranges already recorded (no record added, so the cap is not checked);
 * 3. `ws.index()` with nothing changed (what every search does first), then `ws.search` with
 *    `record: false` and `record: true`, `--searches` each, interleaved: the difference of the
 *    medians is what recording adds to a search.
 *
 * It also replays the log in memory without the cap (the recorder's `applyHit`, the sweep's
 * `rankForPromotion`; not timed), to show what the cap's evictions leave the sweep to rank.
 *
 * `minilm` is the default local model (all-MiniLM-L6-v2) and `use-lite` the previous one; `hashing`
 * is a deterministic bag-of-words embedder that costs next to nothing, so its times are the engine's.
 * `all` (the default) runs `hashing` then `minilm`. `SLEEP_BENCH_DUMP=DIR` writes a sample note, the
 * log's first lines and each run's `MEMORY.md` there.
 *
 * @module
 */

import { readFileSync, writeFileSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import type { Embedder } from "../src/embed/embedder.js";
import { createLocalEmbedder, createUseLiteEmbedder, openMemory } from "../src/index.js";
import { rankForPromotion } from "../src/sleep/deep-rank.js";
import { chunkNote } from "../src/sleep/note-chunks.js";
import { applyHit, type RecallEntry } from "../src/sleep/recall-entry.js";
import { createTempDir } from "./paths.js";
import { createRandom, hashSeed } from "./prng.js";
import {
  buildYear,
  DAYS,
  FIRST_DAY,
  hashingEmbedder,
  isoDay,
  MEMORY_MD,
  type Search,
  searchOn,
  writeWorkspace,
  type Year,
  yearLog,
} from "./sleep-year.js";
import { type LatencySummary, summarise, timeOnce } from "./stats.js";

const { values } = parseArgs({
  options: {
    embedder: { type: "string", default: "all" },
    events: { type: "string", default: "20000" },
    calls: { type: "string", default: "1000" },
    searches: { type: "string", default: "400" },
  },
});
const EVENTS = Number(values.events);
const CALLS = Number(values.calls);
const SEARCHES = Number(values.searches);
const SWEEP_AT = "2026-11-30T23:30:00Z";
/** The issue's targets. */
const RECORD_P50_MS = 1;
const YEAR_TOTAL_MS = 10_000;
const COLD_PHASE = "first index (cold)";

const EMBEDDERS: Record<string, () => Embedder> = {
  hashing: () => hashingEmbedder(256),
  minilm: () => createLocalEmbedder(),
  "use-lite": () => createUseLiteEmbedder(),
};
const chosen = values.embedder === "all" ? ["hashing", "minilm"] : [values.embedder as string];
for (const name of chosen) {
  if (EMBEDDERS[name] === undefined) {
    console.error(`--embedder must be all, ${Object.keys(EMBEDDERS).join(", ")}; got ${name}.`);
    process.exit(1);
  }
}

const noteDay = (path: string) => /(\d{4}-\d{2}-\d{2})\.md$/u.exec(path)?.[1] ?? "?";

function dateSpan(paths: readonly string[]): string {
  const days = paths.map(noteDay).sort();
  return days.length === 0 ? "—" : `${days[0]} … ${days.at(-1)}`;
}

const RECENT_FROM = isoDay(DAYS - 30);

/** How many records are kept, and how many of them are on the last 30 days' notes (and with ≥ 3 signals). */
function describeKept(entries: readonly RecallEntry[]): string {
  const recent = entries.filter((entry) => noteDay(entry.path) >= RECENT_FROM);
  const strong = recent.filter((entry) => entry.recallCount >= 3);
  const median = [...entries.map((entry) => entry.recallCount)].sort((a, b) => a - b)[entries.length >> 1];
  return `${entries.length} records kept (median ${median} recalls), ${recent.length} on notes of the last 30 days (${strong.length} of them with ≥ 3 recalls)`;
}

/**
 * The same searches replayed without the store's cap (entries updated as the recorder updates them,
 * ranked as the sweep ranks them): what the deep phase would see if no record were ever evicted.
 */
function uncappedRanking(year: Year, searches: readonly Search[]): string {
  const lines = new Map(year.notes.map((note) => [note.path, note.text.split("\n")]));
  const entries = new Map<string, RecallEntry>();
  for (const search of searches) {
    const signal = {
      type: "recall" as const,
      query: search.query,
      at: search.at,
      day: search.at.slice(0, 10),
    };
    for (const hit of search.hits) {
      const key = `memory:${hit.path}:${hit.startLine}:${hit.endLine}`;
      const snippet = (lines.get(hit.path) ?? []).slice(hit.startLine - 1, hit.endLine).join("\n");
      const update = applyHit(entries.get(key), { ...hit, snippet }, signal);
      if (update.recorded) entries.set(key, update.entry);
    }
  }
  const all = [...entries.values()];
  const passing = rankForPromotion(all, { now: SWEEP_AT, limit: all.length });
  const recent = passing.filter((scored) => noteDay(scored.entry.path) >= RECENT_FROM).length;
  const top = passing.slice(0, 10).map((scored) => scored.entry.path);
  return `${all.length.toLocaleString("en-US")} distinct ranges recalled; ${passing.length} pass every gate (${recent} on notes of the last 30 days); the top 10 are on notes of ${dateSpan(top)}`;
}

// ---------------------------------------------------------------------------------------------
// One embedder's run.

interface Phase {
  readonly wallMs: number;
  readonly cpuMs: number;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; phase: Phase }> {
  const { result, wallMs, cpuMs } = await timeOnce(fn);
  return { result, phase: { wallMs, cpuMs } };
}

/** Wall-clock percentiles of a series of calls, and the median CPU time of this process over one call. */
type Series = LatencySummary & { readonly cpuP50: number };
type RecordSummary = Series & { readonly adding: number };

/** Collects one call's wall and CPU time into `wall` and `cpu`. */
async function sample<T>(wall: number[], cpu: number[], keep: boolean, fn: () => Promise<T>): Promise<T> {
  const startCpu = process.cpuUsage();
  const start = performance.now();
  const result = await fn();
  const elapsed = performance.now() - start;
  const used = process.cpuUsage(startCpu);
  if (keep) {
    wall.push(elapsed);
    cpu.push((used.user + used.system) / 1000);
  }
  return result;
}

const series = (wall: readonly number[], cpu: readonly number[]): Series => ({
  ...summarise(wall),
  cpuP50: summarise(cpu).p50,
});

interface RunResult {
  readonly embedder: string;
  readonly modelLoadMs: number;
  readonly phases: Record<string, Phase & { note: string }>;
  readonly recordBare: RecordSummary;
  readonly recordSnippet: RecordSummary;
  readonly recordRepeat: RecordSummary;
  readonly indexUnchanged: Series;
  readonly searchOff: Series;
  readonly searchOn: Series;
  readonly searchRecorded: number;
  readonly searchNotes: number;
  readonly issues: string[];
}

async function runWith(name: string, year: Year, log: ReturnType<typeof yearLog>): Promise<RunResult> {
  const temp = createTempDir(`sleep-${name}`);
  const dir = temp.path("workspace");
  const issues: string[] = [];
  const embedder = (EMBEDDERS[name] as () => Embedder)();
  // The model loads on its first vector; load it before the clock runs, and say how long it took.
  const loadStart = performance.now();
  await embedder.embed(["warm up"], "add");
  const modelLoadMs = performance.now() - loadStart;
  try {
    await writeWorkspace(dir, year);
    const memory = await openMemory({ path: temp.path("lucid.db"), embedder });
    try {
      const ws = memory.workspace(dir);
      const phases: RunResult["phases"] = {};

      const cold = await timed(() => ws.index());
      phases[COLD_PHASE] = {
        ...cold.phase,
        note: `${cold.result.indexed} files, ${cold.result.chunks} chunks`,
      };
      if (cold.result.indexed !== year.notes.length + 1)
        issues.push(`cold index indexed ${cold.result.indexed} files, expected ${year.notes.length + 1}`);
      if (cold.result.chunks !== year.chunks.length + chunkNote(MEMORY_MD).length)
        issues.push(
          `cold index made ${cold.result.chunks} chunks, chunkNote makes ${year.chunks.length} + MEMORY.md`,
        );

      const again = await timed(() => ws.index());
      phases["second index (unchanged)"] = {
        ...again.phase,
        note: `${again.result.indexed} files re-indexed`,
      };
      if (again.result.indexed !== 0) issues.push(`unchanged re-index indexed ${again.result.indexed} files`);

      // An edit the agent makes to one note: a line appended (earlier line numbers stay put).
      const edited = year.notes[200] as { path: string; text: string };
      await writeFile(
        join(dir, edited.path),
        `${edited.text}- [ ] follow up on the rate limiter with Chen\n`,
      );
      const edit = await timed(() => ws.index());
      phases["one note edited, re-index"] = {
        ...edit.phase,
        note: `${edit.result.indexed} file, ${edit.result.chunks} chunks`,
      };
      if (edit.result.indexed !== 1)
        issues.push(`re-index after one edit indexed ${edit.result.indexed} files`);

      const recording = await timed(() => ws.recordLog(log.text));
      phases[`record ${log.searches.toLocaleString("en-US")} searches (recordLog)`] = {
        ...recording.phase,
        note: `${recording.result.recorded.toLocaleString("en-US")} hits recorded, ${recording.result.skipped} skipped; ${describeKept(await ws.signals())}`,
      };
      if (recording.result.errors.length > 0)
        issues.push(
          `recordLog: ${recording.result.errors.length} bad lines, first ${JSON.stringify(recording.result.errors[0])}`,
        );
      if (recording.result.skipped > 0) issues.push(`recordLog skipped ${recording.result.skipped} hits`);

      const sweep = await timed(() => ws.promote({ now: SWEEP_AT, apply: true }));
      const sweepPhase = {
        ...sweep.phase,
        note: `${sweep.result.candidates.length} candidates, ${sweep.result.promoted.length} promoted, ${sweep.result.refused.length} refused`,
      };
      phases["deep sweep (promote, apply)"] = sweepPhase;
      if (sweep.result.promoted.length === 0) issues.push("the sweep promoted nothing");
      const eligible = await ws.promote({ now: SWEEP_AT, limit: 512, includePromoted: true });
      sweepPhase.note += `; ${eligible.candidates.length} of ${(await ws.signals()).length} records pass every gate; promoted ranges are on notes of ${dateSpan(sweep.result.promoted.map((entry) => entry.path))}`;
      const memoryText = readFileSync(join(dir, "MEMORY.md"), "utf8");
      if (process.env.SLEEP_BENCH_DUMP !== undefined)
        writeFileSync(join(process.env.SLEEP_BENCH_DUMP, `MEMORY-${name}.md`), memoryText);
      const markers = memoryText.match(/openclaw-memory-promotion:/gu)?.length ?? 0;
      if (markers !== sweep.result.promoted.length)
        issues.push(
          `MEMORY.md holds ${markers} promotion markers, the sweep promoted ${sweep.result.promoted.length}`,
        );
      const total = Object.values(phases).reduce(
        (sum, phase) => ({ wallMs: sum.wallMs + phase.wallMs, cpuMs: sum.cpuMs + phase.cpuMs }),
        { wallMs: 0, cpuMs: 0 },
      );
      phases.total = { ...total, note: "index ×3 + record + sweep" };

      // What every search pays first: the index brought up to date when nothing changed.
      const unchangedWall: number[] = [];
      const unchangedCpu: number[] = [];
      for (let n = 0; n < 30; n++) await sample(unchangedWall, unchangedCpu, true, () => ws.index());

      // Target 1: one search's recalls on a workspace at the cap, distinct queries and times.
      const random = createRandom(hashSeed(`sleep-bench-record-${name}`));
      const base = Date.parse("2026-12-01T08:00:00Z");
      const recordSeries = async (kind: "search" | "snippet" | "repeat", offset: number) => {
        const wall: number[] = [];
        const cpu: number[] = [];
        const known = new Set((await ws.signals()).map((entry) => entry.key));
        const recorded = [...known].map((key) => {
          const [, path = "", start = "0", end = "0"] = /^memory:(.+):(\d+):(\d+)$/u.exec(key) ?? [];
          return { path, startLine: Number(start), endLine: Number(end) };
        });
        let adding = 0;
        for (let call = 0; call < CALLS + 20; call++) {
          const at = new Date(base + (offset + call) * 37_000).toISOString();
          const search = searchOn(year, DAYS - 1, at, random, kind === "snippet");
          // "repeat": six ranges the workspace holds already, so no record is added and the cap is not checked.
          const hits =
            kind === "repeat"
              ? Array.from({ length: 6 }, (_, n) => ({ ...random.pick(recorded), score: 0.9 - n * 0.04 }))
              : search.hits;
          const keys = hits.map((hit) => `memory:${hit.path}:${hit.startLine}:${hit.endLine}`);
          if (keys.some((key) => !known.has(key))) adding++;
          for (const key of keys) known.add(key);
          const query = `${search.query} (${offset + call})`;
          const result = await sample(wall, cpu, call >= 20, () => ws.record(query, hits, { at }));
          if (result.skipped.length > 0) issues.push(`record skipped ${result.skipped.length} hits`);
          if (result.recorded !== hits.length)
            issues.push(`record of ${hits.length} hits recorded ${result.recorded}`);
        }
        return { ...series(wall, cpu), adding: adding / (CALLS + 20) };
      };
      const recordBare = await recordSeries("search", 0);
      const recordSnippet = await recordSeries("snippet", CALLS + 20);
      const recordRepeat = await recordSeries("repeat", 2 * (CALLS + 20));

      // Target 1, the other way: searches with and without recording, interleaved.
      const off = { wall: [] as number[], cpu: [] as number[] };
      const on = { wall: [] as number[], cpu: [] as number[] };
      let recorded = 0;
      let notesFound = 0;
      const searchBase = base + 3 * (CALLS + 20) * 37_000;
      for (let index = 0; index < SEARCHES + 10; index++) {
        for (const record of index % 2 === 0 ? [false, true] : [true, false]) {
          const at = new Date(searchBase + (2 * index + (record ? 1 : 0)) * 41_000).toISOString();
          const { query } = searchOn(year, DAYS - 1, at, random);
          const into = record ? on : off;
          const result = await sample(into.wall, into.cpu, index >= 10, () =>
            ws.search(query, { at, record }),
          );
          if (index < 10) continue;
          if (record) recorded += result.recorded;
          notesFound += result.notes.length;
          if (!record && result.recorded !== 0) issues.push("a search with record: false recorded");
        }
      }
      return {
        embedder: name,
        modelLoadMs,
        phases,
        recordBare,
        recordSnippet,
        recordRepeat,
        indexUnchanged: series(unchangedWall, unchangedCpu),
        searchOff: series(off.wall, off.cpu),
        searchOn: series(on.wall, on.cpu),
        searchRecorded: recorded / SEARCHES,
        searchNotes: notesFound / (2 * SEARCHES),
        issues: [...new Set(issues)],
      };
    } finally {
      await memory.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
    temp.remove();
  }
}

// ---------------------------------------------------------------------------------------------

const cpuModel =
  /model name\s*:\s*(.+)/u.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.trim() ??
  cpus()[0]?.model ??
  "unknown CPU";
const started = new Date().toISOString();
const load = loadavg()[0]?.toFixed(2);
const year = buildYear();
const log = yearLog(year, EVENTS);

console.log(
  `${started} · ${cpuModel}, ${cpus().length} cores, load ${load} · node ${process.version} · tsx bench/sleep.ts ${process.argv.slice(2).join(" ")}`.trimEnd(),
);
console.log(
  `\nData: ${year.notes.length} daily notes (${FIRST_DAY} … ${isoDay(DAYS - 1)}), ${year.lines.toLocaleString("en-US")} lines, ${year.chunks.length.toLocaleString("en-US")} chunks; ${log.searches.toLocaleString("en-US")} searches (${log.distinctQueries.toLocaleString("en-US")} distinct queries, ${log.hits.toLocaleString("en-US")} hits); sweep at ${SWEEP_AT}.`,
);
if (process.env.SLEEP_BENCH_DUMP !== undefined) {
  writeFileSync(join(process.env.SLEEP_BENCH_DUMP, "sample-note.md"), year.notes[200]?.text ?? "");
  writeFileSync(
    join(process.env.SLEEP_BENCH_DUMP, "sample-log.jsonl"),
    log.text.split("\n").slice(0, 50).join("\n"),
  );
}

console.log(`Without the 512-record cap (replayed in memory, not timed): ${uncappedRanking(year, log.all)}.`);

const results: RunResult[] = [];
for (const name of chosen) results.push(await runWith(name, year, log));

const ms = (value: number) =>
  value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
const verdict = (pass: boolean) => (pass ? "pass" : "MISS");

console.log(`\nThe year: index, record, sweep (wall ms / CPU ms)\n`);
console.log(`| phase | ${results.map((r) => r.embedder).join(" | ")} |`);
console.log(`| --- | ${results.map(() => "---:").join(" | ")} |`);
console.log(`| model load (before the clock) | ${results.map((r) => ms(r.modelLoadMs)).join(" | ")} |`);
for (const phase of Object.keys(results[0]?.phases ?? {})) {
  const cells = results.map((r) => {
    const p = r.phases[phase] as Phase & { note: string };
    return `${ms(p.wallMs)} / ${ms(p.cpuMs)}`;
  });
  console.log(`| ${phase} | ${cells.join(" | ")} |`);
}
console.log("");
for (const r of results)
  for (const [phase, p] of Object.entries(r.phases))
    if (p.note !== "") console.log(`- ${r.embedder}, ${phase}: ${p.note}`);

console.log(`\nRecording one search's recalls (6 hits at most; ${CALLS} calls after 20 warm-up; ms)\n`);
console.log("| embedder | call | p50 | p95 | p99 | max | CPU p50 |");
console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
for (const r of results) {
  const row = (label: string, s: Series) =>
    console.log(
      `| ${r.embedder} | ${label} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.p99)} | ${ms(s.max)} | ${ms(s.cpuP50)} |`,
    );
  row("`ws.record`, hits without text (read from the note)", r.recordBare);
  row("`ws.record`, hits with their text (as a search passes them)", r.recordSnippet);
  row("`ws.record`, six ranges already recorded (no record added)", r.recordRepeat);
  row("`ws.index()`, nothing changed (every search does it first)", r.indexUnchanged);
  row("`ws.search`, `record: false`", r.searchOff);
  row("`ws.search`, `record: true`", r.searchOn);
}
console.log("");
for (const r of results)
  console.log(
    `- ${r.embedder}: of the \`ws.record\` calls with generated hits, ${(100 * r.recordBare.adding).toFixed(0)}% and ${(100 * r.recordSnippet.adding).toFixed(0)}% add at least one record (then the cap of 512 is checked).`,
  );
for (const r of results)
  console.log(
    `- ${r.embedder}: ${SEARCHES} searches each way, interleaved; ${r.searchNotes.toFixed(1)} note hits a search, ${r.searchRecorded.toFixed(1)} recorded a recording search; p50 difference ${ms(r.searchOn.p50 - r.searchOff.p50)} ms.`,
  );

console.log("\nGoals\n");
console.log("| goal | target | embedder | measured | verdict |");
console.log("| --- | --- | --- | --- | --- |");
for (const r of results) {
  // "Beyond the search itself" is the recorder's own call with the hits as a search passes them
  // (their text in hand): judged. A search with recording minus one without says the same from the
  // outside, but as a difference of two medians of 15–35 ms searches it moves by a millisecond from
  // run to run: shown, not judged. Reading the lines from the notes (a replayed log's case) is shown.
  const diff = r.searchOn.p50 - r.searchOff.p50;
  console.log(
    `| record one search's recalls, p50 | ≤ ${RECORD_P50_MS} ms | ${r.embedder} | ${ms(diff)} ms (search on − off), ${ms(r.recordSnippet.p50)} ms (\`ws.record\` with the hits' text); ${ms(r.recordBare.p50)} ms reading them from the notes | ${verdict(r.recordSnippet.p50 <= RECORD_P50_MS)} |`,
  );
  const total = r.phases.total as Phase;
  console.log(
    `| a year: index + record ${EVENTS.toLocaleString("en-US")} searches + sweep | ≤ ${YEAR_TOTAL_MS / 1000} s | ${r.embedder} | ${(total.wallMs / 1000).toFixed(2)} s | ${verdict(total.wallMs <= YEAR_TOTAL_MS)} |`,
  );
  // A workspace that is searched every day is indexed a note at a time: the cold index of a whole
  // year happens once, when a year of notes first meets Lucid.
  const cold = r.phases[COLD_PHASE] as Phase;
  console.log(
    `| the same year without its first, cold index | ≤ ${YEAR_TOTAL_MS / 1000} s | ${r.embedder} | ${((total.wallMs - cold.wallMs) / 1000).toFixed(2)} s | ${verdict(total.wallMs - cold.wallMs <= YEAR_TOTAL_MS)} |`,
  );
}
const issues = results.flatMap((r) => r.issues.map((issue) => `${r.embedder}: ${issue}`));
console.log(
  issues.length === 0
    ? "\nNo unexpected results."
    : `\nUnexpected:\n${issues.map((i) => `- ${i}`).join("\n")}`,
);
