/**
 * `npm run bench:sleep-sweep [-- --embedder all|hashing|minilm] [--nights 14]`: a full sleep sweep
 * (index, daily ingestion of the last 14 days, light, REM, deep promotion, the Dream Diary) over a
 * year of daily notes, against the issue's target of 15 s on 2 cores.
 *
 * The year is bench/sleep.ts's, generated the same way from the same seeds (365 notes, 6,859 chunks,
 * a hand-written `MEMORY.md`, 20,000 searches). Per embedder, in fresh temp workspaces and SQLite files,
 * with `timeZone: "UTC"` and `storage.mode: "both"`:
 *
 * 1. the year's end: the notes written, the cold index and the log recorded (each timed, none part
 *    of the target); then the first full sweep at `2026-11-30T23:30:00Z` (applied), a second one the
 *    same night (nothing new: it should promote and write nothing) and a preview (it must write
 *    nothing: the workspace's bytes, its records and its event log are compared before and after).
 *    Before them, on copies of the workspace and store as they were, the same sweep runs with
 *    phases `[]`, `light`, `rem`, `light`+`rem` and all three, and daily ingestion runs alone, three
 *    times each: a phase's cost is the difference of two medians.
 * 2. nights: another workspace holds the notes and searches up to the last `--nights` days of the
 *    year; after a sweep at 03:00 UTC the night before that stretch (not counted), each day's note is
 *    written (above the blocks that morning's sweep put in it), the day's searches recorded (not timed),
 *    and the sweep at 03:00 UTC the next morning timed.
 *
 * `hashing` is the deterministic bag-of-words embedder of bench/sleep.ts, so its times are the
 * engine's; `minilm` is the default local model (`createLocalEmbedder()`), loaded before the clock.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { copyFile, cp, mkdir, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import type { Embedder } from "../src/embed/embedder.js";
import { createLocalEmbedder, openMemory, type Workspace } from "../src/index.js";
import { createContext } from "../src/sdk/create-context.js";
import { planDailyIngestion, recordDailyIngestion } from "../src/sleep/daily-ingest.js";
import { chunkNote } from "../src/sleep/note-chunks.js";
import type { SweepPhase, SweepResult } from "../src/sleep/sleep-sweep.js";
import { createTempDir } from "./paths.js";
import { createRandom, hashSeed, type Random } from "./prng.js";
import { summarise } from "./stats.js";

const { values } = parseArgs({
  options: {
    embedder: { type: "string", default: "all" },
    nights: { type: "string", default: "14" },
  },
});
const NIGHTS = Number(values.nights);
const EVENTS = 20_000;
const FIRST_DAY = "2025-12-01";
const DAYS = 365;
/** bench/sleep.ts's sweep time: the year's last evening. */
const YEAR_END = "2026-11-30T23:30:00Z";
/** The issue's target for a full sweep. */
const SWEEP_TARGET_MS = 15_000;
/** Runs of each copy the phase costs are the medians of. */
const PHASE_ROUNDS = 3;
const SETTINGS = { storage: { mode: "both" as const } };

const EMBEDDERS: Record<string, () => Embedder> = {
  hashing: () => hashingEmbedder(256),
  minilm: () => createLocalEmbedder(),
};
const chosen = values.embedder === "all" ? ["hashing", "minilm"] : [values.embedder as string];
for (const name of chosen) {
  if (EMBEDDERS[name] === undefined) {
    console.error(`--embedder must be all, ${Object.keys(EMBEDDERS).join(", ")}; got ${name}.`);
    process.exit(1);
  }
}
if (!Number.isInteger(NIGHTS) || NIGHTS < 1 || NIGHTS > DAYS - 30) {
  console.error(`--nights must be a whole number from 1 to ${DAYS - 30}; got ${values.nights}.`);
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// The year, copied from bench/sleep.ts (which runs when imported): keep the two in step, or its
// seeds no longer make the same notes and searches.

const PROJECTS = [
  "billing-api",
  "search revamp",
  "mobile app",
  "data pipeline",
  "onboarding flow",
  "ledger migration",
  "design system",
  "on-call rotation",
  "Kyoto trip",
  "kitchen renovation",
  "marathon training",
  "tax return",
  "garden",
  "book club",
  "home network",
  "Lisbon offsite",
];
const PEOPLE = [
  "Alice",
  "Bob",
  "Priya",
  "Chen",
  "Maria",
  "Tomás",
  "Aiko",
  "Sam",
  "Noor",
  "Lena",
  "Kofi",
  "Dana",
];
const ACTIONS = [
  "moved the {thing} behind a feature flag",
  "wrote the migration for the {thing}",
  "paired with {person} on the {thing}",
  "fixed the flaky test around the {thing}",
  "reviewed the {thing} proposal",
  "measured the {thing}: {num} ms at p95",
  "split the {thing} into two steps",
  "found that the {thing} retries forever on a 429",
  "booked the {thing} for {day}",
  "compared three quotes for the {thing}",
  "set a budget of {num} euros for the {thing}",
  "drafted the plan for the {thing}",
];
const THINGS = [
  "invoice export",
  "rate limiter",
  "schema change",
  "retry queue",
  "ryokan",
  "train pass",
  "countertop",
  "long run",
  "tile order",
  "router",
  "webhook handler",
  "cache warmup",
  "login screen",
  "colour tokens",
  "pager schedule",
  "index rebuild",
  "tomato beds",
  "reading list",
  "receipts folder",
  "venue",
];
const DETAILS = [
  "{person} wants it done before {day}",
  "the old path stays until the {thing} is verified",
  "cost so far {num} euros",
  "blocked on the {thing} from {person}",
  "numbers are in the spreadsheet, tab {num}",
  "{person} said the {thing} is fine as is",
  "remember to check the {thing} logs on {day}",
  "the vendor answers within {num} hours",
  "keep the {thing} config in the repo, not the wiki",
  "next step: ask {person} about the {thing}",
];
const DECISIONS = [
  "We keep {project} on the current stack until {month}",
  "{person} owns {project} from now on",
  "{project}: ship the small version first, the {thing} later",
  "No new work on {project} during the freeze",
  "{project} budget capped at {num} euros",
  "Use the {thing} everywhere in {project}",
];
const REASONS = [
  "reason: the {thing} broke twice last month",
  "reason: {person} is out in {month}",
  "reason: it halves the {thing} cost",
  "reason: fewer moving parts before {month}",
];
const PARAGRAPHS = [
  "Slept badly; the {thing} kept me up. Coffee with {person} helped.",
  "Long day. {project} took most of it and the {thing} is still open.",
  "Read about the {thing} on the train. Worth trying for {project}.",
  "Quiet morning, walked to the market, then worked on {project} until {hour}:00.",
  "{person} called about {project}; we agreed to talk again on {day}.",
  "Weather turned. Moved the {thing} indoors and wrote up {project} notes.",
];
const PERSONAL = [
  "Call {person} about dinner on {day}",
  "Pharmacy: pick up the prescription",
  "Run {km} km, easy pace",
  "Pay the electricity bill",
  "Water the {thing}",
  "Send the photos to {person}",
];
const DAYS_OF_WEEK = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
];

interface Chunk {
  readonly path: string;
  readonly day: number;
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
  readonly project: number;
  /** How often this chunk comes back compared to others (heavy-tailed). */
  readonly importance: number;
}

function isoDay(index: number): string {
  return new Date(Date.parse(`${FIRST_DAY}T00:00:00Z`) + index * 86_400_000).toISOString().slice(0, 10);
}

function fill(template: string, random: Random, project: string): string {
  return template.replace(/\{(\w+)\}/gu, (_, slot: string) => {
    switch (slot) {
      case "person":
        return random.pick(PEOPLE);
      case "thing":
        return random.pick(THINGS);
      case "num":
        return String(2 + random.int(400));
      case "hour":
        return String(9 + random.int(11));
      case "km":
        return String(4 + random.int(18));
      case "day":
        return random.pick(DAYS_OF_WEEK);
      case "month":
        return random.pick(MONTHS);
      case "project":
        return project;
      default:
        return slot;
    }
  });
}

/** One day's note (~30 lines) and the projects it is about. */
function dailyNote(day: number, random: Random): { text: string; projects: number[] } {
  // Each project is active for a few stretches of the year; a day is about two or three of them.
  const active = PROJECTS.map((_, index) => index).filter(
    (index) => Math.sin((day / 365) * Math.PI * (2 + (index % 5)) + index * 1.7) > 0.1,
  );
  const pool = active.length >= 3 ? active : PROJECTS.map((_, index) => index);
  const projects = [...new Set([random.pick(pool), random.pick(pool), random.pick(pool)])];
  const main = PROJECTS[projects[0] as number] as string;
  const lines: string[] = [`# ${isoDay(day)}`, "", "## Work"];
  for (const index of projects) {
    const project = PROJECTS[index] as string;
    lines.push(`- ${project}: ${fill(random.pick(ACTIONS), random, project)}`);
    const nested = 1 + random.int(3);
    for (let n = 0; n < nested; n++) lines.push(`  - ${fill(random.pick(DETAILS), random, project)}`);
  }
  lines.push("", "## Decisions");
  const decisions = 1 + random.int(2);
  for (let n = 0; n < decisions; n++) {
    const project = PROJECTS[random.pick(projects)] as string;
    lines.push(`- ${fill(random.pick(DECISIONS), random, project)}`);
    lines.push(`  - ${fill(random.pick(REASONS), random, project)}`);
  }
  lines.push("", "## Journal");
  lines.push(fill(random.pick(PARAGRAPHS), random, main));
  lines.push(fill(random.pick(PARAGRAPHS), random, PROJECTS[random.pick(projects)] as string));
  if (random.next() < 0.5) lines.push(fill(random.pick(PARAGRAPHS), random, main));
  lines.push("", "## Personal");
  const personal = 2 + random.int(3);
  for (let n = 0; n < personal; n++) {
    lines.push(`- ${fill(random.pick(PERSONAL), random, main)}`);
    if (random.next() < 0.3) lines.push(`  - ${fill(random.pick(DETAILS), random, main)}`);
  }
  lines.push("", "## Todo");
  const todos = 2 + random.int(3);
  for (let n = 0; n < todos; n++) {
    const project = PROJECTS[random.pick(projects)] as string;
    lines.push(
      `- [${random.next() < 0.4 ? "x" : " "}] ${project}: ${fill(random.pick(ACTIONS), random, project)}`,
    );
  }
  lines.push("");
  return { text: lines.join("\n"), projects };
}

interface Year {
  readonly notes: { path: string; text: string }[];
  readonly chunks: Chunk[];
  /** Chunks mentioning each project, in day order. */
  readonly byProject: Chunk[][];
  readonly byDay: Chunk[][];
  readonly lines: number;
}

function buildYear(): Year {
  const random = createRandom(hashSeed("sleep-bench-notes"));
  const notes: { path: string; text: string }[] = [];
  const chunks: Chunk[] = [];
  const byProject: Chunk[][] = PROJECTS.map(() => []);
  const byDay: Chunk[][] = [];
  let lines = 0;
  for (let day = 0; day < DAYS; day++) {
    const path = `memory/${isoDay(day)}.md`;
    const { text } = dailyNote(day, random);
    notes.push({ path, text });
    lines += text.split("\n").length;
    const own: Chunk[] = [];
    for (const chunk of chunkNote(text)) {
      const project = PROJECTS.findIndex((name) => chunk.text.includes(name));
      const entry: Chunk = {
        path,
        day,
        startLine: chunk.startLine,
        endLine: chunk.endLine,
        text: chunk.text,
        project,
        // Pareto-like: most chunks are rarely recalled, a few very often.
        importance: Math.min(200, (1 - random.next()) ** -1.3),
      };
      chunks.push(entry);
      own.push(entry);
      if (project >= 0) byProject[project]?.push(entry);
    }
    byDay.push(own);
  }
  return { notes, chunks, byProject, byDay, lines };
}

const MEMORY_MD = `# MEMORY

Hand-written, long-lived facts.

- I live in Porto; the office is a 20-minute walk.
- Prefer TypeScript with strict mode for new services.
- Dana is my manager; 1:1 on Tuesdays.
`;

// ---------------------------------------------------------------------------------------------
// Searches over the year.

const QUERY_TEMPLATES = [
  "what did we decide about {project}",
  "{project} status",
  "who owns {project}",
  "{project} {thing}",
  "when is the {thing} for {project}",
  "what did {person} say about {project}",
  "{project} budget",
  "notes on the {thing}",
  "{person} {thing}",
  "why did we change the {thing} in {project}",
  "next steps for {project}",
  "{project} blockers this week",
];

interface LoggedHit {
  path: string;
  startLine: number;
  endLine: number;
  score: number;
}

interface Search {
  at: string;
  query: string;
  hits: LoggedHit[];
}

/** A search on `day` about something of the last weeks: its query and up to six hits on notes written by then. */
function searchOn(year: Year, day: number, at: string, random: Random): Search {
  // The seed chunk: a recent note (two-week half-life), one of its chunks about a project.
  let seed: Chunk | undefined;
  for (let tries = 0; tries < 20 && seed === undefined; tries++) {
    const back = Math.min(day, Math.floor(-Math.log(1 - random.next()) * 20));
    const candidates = (year.byDay[day - back] ?? []).filter((chunk) => chunk.project >= 0);
    if (candidates.length > 0) seed = random.pick(candidates);
  }
  const project = seed?.project ?? 0;
  const query = fill(random.pick(QUERY_TEMPLATES), random, PROJECTS[project] as string);
  // Hits: chunks of that project written by then, weighted by importance and recency.
  const pool = (year.byProject[project] ?? []).filter((chunk) => chunk.day <= day);
  const weights = pool.map((chunk) => chunk.importance * 0.5 ** ((day - chunk.day) / 45) + 0.02);
  const count = Math.min(pool.length, random.next() < 0.8 ? 6 : 1 + random.int(6));
  const picked: Chunk[] = [];
  let total = weights.reduce((sum, weight) => sum + weight, 0);
  for (let n = 0; n < count; n++) {
    let at = random.next() * total;
    let index = 0;
    while (index < weights.length - 1 && at >= (weights[index] as number)) at -= weights[index++] as number;
    picked.push(pool[index] as Chunk);
    total -= weights[index] as number;
    weights[index] = 0;
  }
  let score = 0.72 + random.next() * 0.26;
  const hits = picked.map((chunk) => {
    const hit: LoggedHit = {
      path: chunk.path,
      startLine: chunk.startLine,
      endLine: chunk.endLine,
      score: Math.round(Math.max(0.36, score) * 1000) / 1000,
    };
    score -= 0.02 + random.next() * 0.06;
    return hit;
  });
  return { at, query, hits };
}

/** `EVENTS` searches spread over the year (fewer at weekends), in time order, as a JSONL log. */
function yearLog(year: Year): {
  text: string;
  searches: number;
  distinctQueries: number;
  hits: number;
  all: Search[];
} {
  const random = createRandom(hashSeed("sleep-bench-searches"));
  const weights = Array.from({ length: DAYS }, (_, day) => ((day + 1) % 7 < 2 ? 0.5 : 1));
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0);
  const lines: string[] = [];
  const all: Search[] = [];
  const queries = new Set<string>();
  let hits = 0;
  let made = 0;
  for (let day = 0; day < DAYS; day++) {
    const target = Math.round((EVENTS * weights.slice(0, day + 1).reduce((s, w) => s + w, 0)) / totalWeight);
    const today = target - made;
    const seconds = Array.from({ length: today }, () => 7 * 3600 + random.int(16 * 3600)).sort(
      (a, b) => a - b,
    );
    for (const second of seconds) {
      const at = new Date(Date.parse(`${isoDay(day)}T00:00:00Z`) + second * 1000).toISOString();
      const search = searchOn(year, day, at, random);
      queries.add(search.query.toLowerCase());
      hits += search.hits.length;
      lines.push(JSON.stringify(search));
      all.push(search);
    }
    made = target;
  }
  return { text: `${lines.join("\n")}\n`, searches: lines.length, distinctQueries: queries.size, hits, all };
}

type YearLog = ReturnType<typeof yearLog>;

// ---------------------------------------------------------------------------------------------
// A cheap deterministic embedder: hashed bag of words, L2-normalised.

function hashingEmbedder(dimension: number): Embedder {
  const vectorOf = (text: string) => {
    const vector = new Float32Array(dimension);
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      const hash = hashSeed(word);
      vector[hash % dimension] = (vector[hash % dimension] as number) + (hash & 0x80000000 ? -1 : 1);
    }
    let norm = 0;
    for (const value of vector) norm += value * value;
    if (norm === 0) {
      vector[0] = 1;
      return vector;
    }
    const scale = 1 / Math.sqrt(norm);
    for (let index = 0; index < dimension; index++) vector[index] = (vector[index] as number) * scale;
    return vector;
  };
  return {
    id: `bench-hashing-${dimension}`,
    dimension,
    async embed(texts) {
      return texts.map(vectorOf);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Workspaces, snapshots, timing.

/** The year's notes of days `from` … `to − 1`, each dated its day; `MEMORY.md` with the first. */
async function writeNotes(dir: string, year: Year, from: number, to: number): Promise<void> {
  await mkdir(join(dir, "memory"), { recursive: true });
  if (from === 0) await writeFile(join(dir, "MEMORY.md"), MEMORY_MD);
  for (let day = from; day < to; day++) {
    const note = year.notes[day] as { path: string; text: string };
    const file = join(dir, note.path);
    // The night's sweep may have put its blocks in the day's note already: the day's writing goes
    // above them, so the log's line numbers still hold.
    const blocks = await readFile(file, "utf8").catch(() => "");
    await writeFile(file, blocks === "" ? note.text : `${note.text}\n${blocks}`);
    const time = new Date(Date.parse(`${isoDay(day)}T22:00:00Z`));
    await utimes(file, time, time);
  }
}

/** Every file under `dir` by relative path, with a hash of its bytes. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    files.set(
      file.slice(dir.length + 1),
      createHash("sha1")
        .update(await readFile(file))
        .digest("hex"),
    );
  }
  return files;
}

function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((path) => before.get(path) !== after.get(path)).sort();
}

interface Timing {
  readonly wallMs: number;
  readonly cpuMs: number;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; timing: Timing }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = await fn();
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { result, timing: { wallMs, cpuMs: (used.user + used.system) / 1000 } };
}

/** The median wall and the median CPU time, each on its own. */
const median = (timings: readonly Timing[]): Timing => ({
  wallMs: summarise(timings.map((t) => t.wallMs)).p50,
  cpuMs: summarise(timings.map((t) => t.cpuMs)).p50,
});
const minus = (a: Timing, b: Timing): Timing => ({ wallMs: a.wallMs - b.wallMs, cpuMs: a.cpuMs - b.cpuMs });
const plus = (a: Timing, b: Timing): Timing => ({ wallMs: a.wallMs + b.wallMs, cpuMs: a.cpuMs + b.cpuMs });

/** What one sweep did, and which files it changed. */
interface SweepRow extends Timing {
  readonly label: string;
  readonly result: SweepResult;
  readonly changed: readonly string[];
}

async function timedSweep(
  ws: Workspace,
  label: string,
  options: { now: string; phases?: readonly SweepPhase[]; preview?: boolean },
): Promise<SweepRow> {
  const before = await snapshot(ws.dir);
  const run = options.preview === true ? ws.preview.bind(ws) : ws.sweep.bind(ws);
  const { now, phases } = options;
  const { result, timing } = await timed(() => run(phases === undefined ? { now } : { now, phases }));
  return { label, ...timing, result, changed: changedFiles(before, await snapshot(ws.dir)) };
}

/** The phases that did not complete (skipped ones not asked for are fine). */
function phaseProblems(row: SweepRow, asked: readonly SweepPhase[] = ["light", "rem", "deep"]): string[] {
  return row.result.phases
    .filter((report) => asked.includes(report.phase) && report.outcome !== "completed")
    .map((report) => `${row.label}: ${report.phase} ${report.outcome} (${report.reason ?? "no reason"})`);
}

/** The model is shared by every store a run opens, and closed once at its end. */
function unclosable(embedder: Embedder): Embedder {
  return {
    id: embedder.id,
    dimension: embedder.dimension,
    embed: (texts, purpose) => embedder.embed(texts, purpose),
  };
}

const open = (db: string, dir: string, embedder: Embedder) =>
  openMemory({ path: db, embedder: unclosable(embedder) }).then((memory) => ({
    memory,
    ws: memory.workspace(dir, { timeZone: "UTC", settings: SETTINGS }),
  }));

// ---------------------------------------------------------------------------------------------
// One embedder's run.

/** The first sweep's cost by phase, from the copies: ingestion alone, the rest by difference. */
interface PhaseCosts {
  readonly index: Timing;
  readonly ingestion: Timing;
  readonly light: Timing;
  readonly rem: Timing;
  readonly deep: Timing;
  /** REM with nothing staged (phases [rem]): it considers every live entry, not only the staged ones. */
  readonly remAlone: Timing;
  /** The median of the full sweeps on copies, beside the one measured once. */
  readonly full: Timing;
}

interface RunResult {
  readonly embedder: string;
  readonly modelLoadMs: number;
  readonly setup: Record<string, Timing & { note: string }>;
  readonly phases: PhaseCosts;
  readonly first: SweepRow;
  readonly second: SweepRow;
  readonly preview: SweepRow;
  readonly warmUp: SweepRow;
  readonly nights: readonly SweepRow[];
  /** Chunks of the reports the night before's sweep wrote under `memory/dreaming/`: the night's index embeds them. */
  readonly reportChunks: readonly number[];
  readonly issues: string[];
}

async function runWith(name: string, year: Year, log: YearLog): Promise<RunResult> {
  const temp = createTempDir(`sleep-sweep-${name}`);
  const issues: string[] = [];
  const embedder = (EMBEDDERS[name] as () => Embedder)();
  const loadStart = performance.now();
  await embedder.embed(["warm up"], "add");
  const modelLoadMs = performance.now() - loadStart;
  const setup: RunResult["setup"] = {};
  try {
    // The year's end.
    const dir = temp.path("workspace");
    const db = temp.path("lucid.db");
    const written = await timed(() => writeNotes(dir, year, 0, DAYS));
    setup["write the year's notes"] = { ...written.timing, note: `${DAYS} notes and MEMORY.md` };
    let { memory, ws } = await open(db, dir, embedder);
    const cold = await timed(() => ws.index());
    setup["first index (cold)"] = {
      ...cold.timing,
      note: `${cold.result.indexed} files, ${cold.result.chunks.toLocaleString("en-US")} chunks`,
    };
    const expectedChunks = year.chunks.length + chunkNote(MEMORY_MD).length;
    if (cold.result.indexed !== DAYS + 1 || cold.result.chunks !== expectedChunks)
      issues.push(
        `cold index: ${cold.result.indexed} files, ${cold.result.chunks} chunks; expected ${DAYS + 1}, ${expectedChunks}`,
      );
    const recording = await timed(() => ws.recordLog(log.text));
    setup[`record ${log.searches.toLocaleString("en-US")} searches (recordLog)`] = {
      ...recording.timing,
      note: `${recording.result.recorded.toLocaleString("en-US")} hits recorded, ${recording.result.evicted.toLocaleString("en-US")} evicted by the cap`,
    };
    if (recording.result.errors.length > 0 || recording.result.skipped > 0)
      issues.push(
        `recordLog: ${recording.result.errors.length} bad lines, ${recording.result.skipped} hits skipped`,
      );
    await memory.close();

    // The state before the first sweep, restored for each copy and for the real sweep.
    const saved = { dir: temp.path("saved-workspace"), db: temp.path("saved.db") };
    await cp(dir, saved.dir, { recursive: true, preserveTimestamps: true });
    // Closed, the store has folded its write-ahead log into the file: the file is the whole store.
    if (existsSync(`${db}-wal`))
      issues.push("the closed store left a write-ahead log; the copies may be stale");
    await copyFile(db, saved.db);
    const restore = async () => {
      await rm(dir, { recursive: true, force: true });
      await cp(saved.dir, dir, { recursive: true, preserveTimestamps: true });
      for (const file of [`${db}-wal`, `${db}-shm`]) await rm(file, { force: true });
      await copyFile(saved.db, db);
    };
    // Each copy PHASE_ROUNDS times, taking turns, so a burst of other work on the machine moves one
    // run, not a whole phase.
    const partial = new Map<string, Timing[]>();
    let ingested = 0;
    const variants: SweepPhase[][] = [[], ["light"], ["rem"], ["light", "rem"], ["light", "rem", "deep"]];
    for (let round = 0; round < PHASE_ROUNDS; round++) {
      for (const phases of variants) {
        await restore();
        ({ memory, ws } = await open(db, dir, embedder));
        const row = await timedSweep(ws, `first sweep, phases [${phases.join(", ")}]`, {
          now: YEAR_END,
          phases,
        });
        issues.push(...phaseProblems(row, phases));
        partial.set(phases.join("+"), [...(partial.get(phases.join("+")) ?? []), row]);
        await memory.close();
      }
      // Ingestion on its own: what the sweep would plan and record.
      await restore();
      const context = await createContext({ path: db, embedder: unclosable(embedder) });
      const ingestion = await timed(async () => {
        const { light, rem } = ws.settings.phases;
        const plan = await planDailyIngestion(context, dir, {
          now: YEAR_END,
          today: YEAR_END.slice(0, 10),
          lookbackDays: Math.max(light.lookbackDays, rem.lookbackDays),
          limit: light.limit,
        });
        return recordDailyIngestion(context, dir, plan, "UTC");
      });
      await context.store.close();
      partial.set("ingestion", [...(partial.get("ingestion") ?? []), ingestion.timing]);
      ingested = ingestion.result;
    }
    await restore();
    ({ memory, ws } = await open(db, dir, embedder));
    const first = await timedSweep(ws, "first sweep", { now: YEAR_END });
    const second = await timedSweep(ws, "second sweep", { now: YEAR_END });
    const signalsBefore = JSON.stringify(await ws.signals());
    const eventsBefore = (await ws.events({ limit: 100_000 })).length;
    const preview = await timedSweep(ws, "preview", { now: YEAR_END, preview: true });
    for (const row of [first, second, preview]) issues.push(...phaseProblems(row));
    const window = first.result.ingestion;
    if (window.files !== 15 || window.read !== window.files)
      issues.push(`first sweep: ingestion read ${window.read} of ${window.files} notes; expected 15 of 15`);
    if ((first.result.promotion?.promoted.length ?? 0) === 0) issues.push("first sweep: promoted nothing");
    if (first.result.diary?.written !== true) issues.push("first sweep: no diary entry written");
    if (second.result.ingestion.read > 0)
      issues.push(`second sweep: ingestion read ${second.result.ingestion.read} notes again`);
    if ((second.result.promotion?.promoted.length ?? 0) > 0)
      issues.push(`second sweep: promoted ${second.result.promotion?.promoted.length} more`);
    if (second.changed.length > 0) issues.push(`second sweep: changed ${second.changed.join(", ")}`);
    if (preview.changed.length > 0) issues.push(`preview: changed ${preview.changed.join(", ")}`);
    if (preview.result.diary?.written === true) issues.push("preview: wrote the diary");
    if (JSON.stringify(await ws.signals()) !== signalsBefore)
      issues.push("preview: changed the recall records");
    const eventsAfter = (await ws.events({ limit: 100_000 })).length;
    if (eventsAfter !== eventsBefore) issues.push(`preview: logged ${eventsAfter - eventsBefore} events`);
    await memory.close();

    if (ingested !== first.result.ingestion.sightings)
      issues.push(
        `ingestion alone recorded ${ingested} sightings, the first sweep ${first.result.ingestion.sightings}`,
      );
    const get = (key: string) => median(partial.get(key) ?? []);
    const phases: PhaseCosts = {
      index: get(""),
      ingestion: get("ingestion"),
      light: minus(get("light"), plus(get(""), get("ingestion"))),
      rem: minus(get("light+rem"), get("light")),
      deep: minus(get("light+rem+deep"), get("light+rem")),
      remAlone: minus(get("rem"), plus(get(""), get("ingestion"))),
      full: get("light+rem+deep"),
    };

    // Nights: a second workspace that has reached the last NIGHTS days of the year.
    const nightsDir = temp.path("nights");
    const nightsDb = temp.path("nights.db");
    const start = DAYS - NIGHTS;
    await writeNotes(nightsDir, year, 0, start);
    ({ memory, ws } = await open(nightsDb, nightsDir, embedder));
    const nightsCold = await timed(() => ws.index());
    setup[`nights: first index (cold, ${start} notes)`] = {
      ...nightsCold.timing,
      note: `${nightsCold.result.indexed} files, ${nightsCold.result.chunks.toLocaleString("en-US")} chunks`,
    };
    const before = log.all.filter((search) => search.at < `${isoDay(start)}T`);
    const nightsRecording = await timed(() => ws.recordLog(jsonl(before)));
    setup[`nights: record ${before.length.toLocaleString("en-US")} searches (recordLog)`] = {
      ...nightsRecording.timing,
      note: `${nightsRecording.result.recorded.toLocaleString("en-US")} hits recorded`,
    };
    const warmUp = await timedSweep(ws, `warm-up sweep, ${isoDay(start)} 03:00`, {
      now: `${isoDay(start)}T03:00:00Z`,
    });
    issues.push(...phaseProblems(warmUp));
    const nights: SweepRow[] = [];
    const reportChunks: number[] = [];
    for (let day = start; day < DAYS; day++) {
      await writeNotes(nightsDir, year, day, day + 1);
      const today = log.all.filter((search) => search.at.startsWith(isoDay(day)));
      const recorded = await ws.recordLog(jsonl(today));
      if (recorded.errors.length > 0 || recorded.skipped > 0)
        issues.push(
          `night of ${isoDay(day)}: recordLog skipped ${recorded.skipped}, ${recorded.errors.length} bad lines`,
        );
      let chunks = 0;
      for (const phase of ["light", "rem"]) {
        const report = join(nightsDir, "memory", "dreaming", phase, `${isoDay(day)}.md`);
        chunks += chunkNote(await readFile(report, "utf8").catch(() => "")).length;
      }
      reportChunks.push(chunks);
      const row = await timedSweep(ws, `night of ${isoDay(day)}`, { now: `${isoDay(day + 1)}T03:00:00Z` });
      issues.push(...phaseProblems(row));
      if (row.result.ingestion.read === 0) issues.push(`${row.label}: ingestion read no note`);
      nights.push(row);
    }
    const failed = (await ws.events({ type: "memory.dream.completed", limit: 100_000 })).filter(
      (event) => event.data.outcome === "failed",
    );
    if (failed.length > 0) issues.push(`nights: ${failed.length} failed phases in the event log`);
    await memory.close();
    return {
      embedder: name,
      modelLoadMs,
      setup,
      phases,
      first,
      second,
      preview,
      warmUp,
      nights,
      reportChunks,
      issues,
    };
  } finally {
    await embedder.close?.();
    temp.remove();
  }
}

const jsonl = (searches: readonly Search[]) =>
  searches.map((search) => `${JSON.stringify(search)}\n`).join("");

// ---------------------------------------------------------------------------------------------

const cpuModel =
  /model name\s*:\s*(.+)/u.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1]?.trim() ??
  cpus()[0]?.model ??
  "unknown CPU";
const started = new Date().toISOString();
const load = loadavg()
  .map((value) => value.toFixed(2))
  .join(" ");
const year = buildYear();
const log = yearLog(year);

console.log(
  `${started} · ${cpuModel}, ${cpus().length} cores, load ${load} · node ${process.version} · tsx bench/sleep-sweep.ts ${process.argv.slice(2).join(" ")}`.trimEnd(),
);
console.log(
  `\nData: ${year.notes.length} daily notes (${FIRST_DAY} … ${isoDay(DAYS - 1)}), ${year.lines.toLocaleString("en-US")} lines, ${year.chunks.length.toLocaleString("en-US")} chunks; ${log.searches.toLocaleString("en-US")} searches (${log.distinctQueries.toLocaleString("en-US")} distinct queries, ${log.hits.toLocaleString("en-US")} hits); first sweep at ${YEAR_END}; ${NIGHTS} nights at 03:00 UTC from ${isoDay(DAYS - NIGHTS + 1)}.`,
);

const results: RunResult[] = [];
for (const name of chosen) results.push(await runWith(name, year, log));

const ms = (value: number) =>
  Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(2);
const cell = (timing: Timing) => `${ms(timing.wallMs)} / ${ms(timing.cpuMs)}`;
const header = (first: string) => {
  console.log(`| ${first} | ${results.map((r) => r.embedder).join(" | ")} |`);
  console.log(`| --- | ${results.map(() => "---:").join(" | ")} |`);
};
const nightly = (r: RunResult) => {
  const wall = summarise(r.nights.map((row) => row.wallMs));
  const cpu = summarise(r.nights.map((row) => row.cpuMs));
  return { p50: { wallMs: wall.p50, cpuMs: cpu.p50 }, max: { wallMs: wall.max, cpuMs: cpu.max } };
};

console.log("\nBefore the sweeps, not part of the target (wall ms / CPU ms)\n");
header("step");
console.log(`| model load | ${results.map((r) => ms(r.modelLoadMs)).join(" | ")} |`);
for (const step of Object.keys(results[0]?.setup ?? {}))
  console.log(`| ${step} | ${results.map((r) => cell(r.setup[step] as Timing)).join(" | ")} |`);
console.log("");
for (const r of results)
  for (const [step, timing] of Object.entries(r.setup))
    console.log(`- ${r.embedder}, ${step}: ${timing.note}`);

console.log("\nSweeps (wall ms / CPU ms)\n");
header("sweep");
const rows: [string, (r: RunResult) => Timing][] = [
  [`first full sweep (${YEAR_END}, apply)`, (r) => r.first],
  ["second sweep, same night", (r) => r.second],
  ["preview, same night", (r) => r.preview],
  ["nights: warm-up sweep (not counted)", (r) => r.warmUp],
  [`nights: p50 of ${NIGHTS}`, (r) => nightly(r).p50],
  [`nights: max of ${NIGHTS}`, (r) => nightly(r).max],
];
for (const [label, of] of rows) console.log(`| ${label} | ${results.map((r) => cell(of(r))).join(" | ")} |`);

console.log(
  "\nThe first sweep by phase, on copies: ingestion timed alone, the rest as differences of sweeps with fewer phases (wall ms / CPU ms)\n",
);
header("phase");
const phaseRows: [string, keyof PhaseCosts][] = [
  ["index (incremental) + diary, phases []", "index"],
  ["daily ingestion (14 days)", "ingestion"],
  ["light", "light"],
  ["REM", "rem"],
  ["deep promotion + its diary entry", "deep"],
  ["REM with nothing staged (phases [rem]; not part of a full sweep)", "remAlone"],
  ["the full sweep on the copies (median)", "full"],
];
for (const [label, key] of phaseRows)
  console.log(`| ${label} | ${results.map((r) => cell(r.phases[key])).join(" | ")} |`);

console.log("\nWhat each sweep did\n");
console.log(
  "| embedder | sweep | wall ms | index: files / chunks embedded | ingestion read / in window | sightings | staged | reflections | truths | candidates | promoted | diary written | files changed |",
);
console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |");
for (const r of results) {
  for (const row of [r.first, r.second, r.preview, r.warmUp, ...r.nights]) {
    const s = row.result;
    console.log(
      `| ${r.embedder} | ${row.label} | ${ms(row.wallMs)} | ${s.index.indexed} / ${s.index.chunks} | ${s.ingestion.read} / ${s.ingestion.files} | ${s.ingestion.sightings} | ${s.staged.length} | ${s.reflections.length} | ${s.truths.length} | ${s.candidates.length} | ${s.promotion?.promoted.length ?? "—"} | ${s.diary?.written === true ? "yes" : "no"} | ${row.changed.length} |`,
    );
  }
}
console.log("");
for (const r of results)
  console.log(`- ${r.embedder}, files the first sweep changed: ${r.first.changed.join(", ")}`);
for (const r of results) {
  const embedded = summarise(r.nights.map((row) => row.result.index.chunks)).p50;
  console.log(
    `- ${r.embedder}, nights: the sweep's index embedded a median ${embedded} chunks a night, ${summarise(r.reportChunks).p50} of them the light and REM reports the sweep before wrote under memory/dreaming/.`,
  );
}

console.log("\nGoal\n");
console.log("| goal | target | embedder | measured | verdict |");
console.log("| --- | --- | --- | --- | --- |");
for (const r of results) {
  const pass = r.first.wallMs <= SWEEP_TARGET_MS;
  console.log(
    `| a full sweep over a year of notes, 2 cores | ≤ ${SWEEP_TARGET_MS / 1000} s | ${r.embedder} | ${(r.first.wallMs / 1000).toFixed(2)} s first sweep; nightly p50 ${(nightly(r).p50.wallMs / 1000).toFixed(2)} s, max ${(nightly(r).max.wallMs / 1000).toFixed(2)} s | ${pass ? "pass" : "MISS"} |`,
  );
}
const issues = results.flatMap((r) => r.issues.map((issue) => `${r.embedder}: ${issue}`));
console.log(
  issues.length === 0
    ? "\nNo unexpected results."
    : `\nUnexpected:\n${issues.map((i) => `- ${i}`).join("\n")}`,
);
