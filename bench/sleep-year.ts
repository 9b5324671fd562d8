/**
 * The year of daily notes and searches that the sleep benchmarks run on (`bench/sleep.ts`,
 * `bench/sleep-sweep.ts`): 365 seeded notes (`memory/2025-12-01.md` … `memory/2026-11-30.md`, ~30
 * lines each: headings, list items with nested items, short paragraphs, across 16 projects that come
 * and go), a hand-written `MEMORY.md`, and a search log whose hits are chunks of notes written
 * before each search, picked by topic, recency and a per-chunk importance. The seeds are fixed, so
 * every run, and both benchmarks, see the same year.
 *
 * @module
 */

import { mkdir, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Embedder } from "../src/embed/embedder.js";
import { chunkNote } from "../src/sleep/note-chunks.js";
import { createRandom, hashSeed, type Random } from "./prng.js";

export const FIRST_DAY = "2025-12-01";
export const DAYS = 365;

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

export interface Chunk {
  readonly path: string;
  readonly day: number;
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
  readonly project: number;
  /** How often this chunk comes back compared to others (heavy-tailed). */
  readonly importance: number;
}

export function isoDay(index: number): string {
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
export function dailyNote(day: number, random: Random): { text: string; projects: number[] } {
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

export interface Year {
  readonly notes: { path: string; text: string }[];
  readonly chunks: Chunk[];
  /** Chunks mentioning each project, in day order. */
  readonly byProject: Chunk[][];
  readonly byDay: Chunk[][];
  readonly lines: number;
}

export function buildYear(): Year {
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

export const MEMORY_MD = `# MEMORY

Hand-written, long-lived facts.

- I live in Porto; the office is a 20-minute walk.
- Prefer TypeScript with strict mode for new services.
- Dana is my manager; 1:1 on Tuesdays.
`;

export async function writeWorkspace(dir: string, year: Year): Promise<void> {
  await mkdir(join(dir, "memory"), { recursive: true });
  await writeFile(join(dir, "MEMORY.md"), MEMORY_MD);
  // Each note dated its day, as a year of writing would leave it.
  for (const [day, note] of year.notes.entries()) {
    const file = join(dir, note.path);
    await writeFile(file, note.text);
    const time = new Date(Date.parse(`${isoDay(day)}T22:00:00Z`));
    await utimes(file, time, time);
  }
}

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

export interface LoggedHit {
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  snippet?: string;
}

export interface Search {
  at: string;
  query: string;
  hits: LoggedHit[];
}

/** A search on `day` about something of the last weeks: its query and up to six hits on notes written by then. */
export function searchOn(year: Year, day: number, at: string, random: Random, withSnippets = false): Search {
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
      ...(withSnippets ? { snippet: chunk.text } : {}),
    };
    score -= 0.02 + random.next() * 0.06;
    return hit;
  });
  return { at, query, hits };
}

/** `events` searches spread over the year (fewer at weekends), in time order, as a JSONL log. */
export function yearLog(
  year: Year,
  events: number,
): {
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
    const target = Math.round((events * weights.slice(0, day + 1).reduce((s, w) => s + w, 0)) / totalWeight);
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

/** The day of a daily note's path. */

// ---------------------------------------------------------------------------------------------
// A cheap deterministic embedder: hashed bag of words, L2-normalised.

export function hashingEmbedder(dimension: number): Embedder {
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
