/**
 * Both pair analysers on a synthetic 10k-memory scope: families of templated memories (restatements,
 * near-misses with another number or name, contradictions) whose vectors sit around a random family
 * centre, so the vector neighbours behave like a real scope's: what both find at that size. How
 * long they take is measured by the benchmark (`npx tsx bench/dream.ts`, BENCHMARKS.md), not here.
 */

import { describe, expect, it } from "vitest";
import { analyseContradictions } from "../../src/dream/analyse/contradictions.js";
import { analyseDuplicates } from "../../src/dream/analyse/duplicates.js";
import type { Neighbour } from "../../src/dream/snapshot.js";
import { cosine, createTestSnapshot, type TestMemory, testPolicy } from "./helpers/snapshot.js";

const SIZE = 10_000;
const DIMENSION = 512;

const NAMES = ["Ana", "Marta", "Tom", "Priya", "Omar", "Kai", "Lena", "Noah", "Sofia", "Ravi"];
const CITIES = ["Lisbon", "Porto", "Berlin", "Denver", "Austin", "Leeds", "Toronto", "Osaka"];
const SERVICES = ["billing-api", "auth-api", "search-api", "ledger-service", "notify-worker", "photo-sync"];
const TARGETS = ["Fly.io", "AWS", "Render", "Vercel", "Kubernetes"];

/** Each template yields one family: a list of texts about one subject. */
const TEMPLATES: readonly ((n: number) => string[])[] = [
  (n) => [`User runs ${n % 20} km every morning.`, `Every morning the user goes for a ${n % 20} km run.`],
  (n) => [`User runs ${n % 20} km every morning.`, `User runs ${(n % 20) + 1} km every morning.`],
  (n) => [
    `${pick(NAMES, n)}'s sister ${pick(NAMES, n + 3)} lives in ${pick(CITIES, n)}.`,
    `${pick(NAMES, n + 3)}, ${pick(NAMES, n)}'s sister, lives in ${pick(CITIES, n)}.`,
  ],
  (n) => [`service-${n} deploys to ${pick(TARGETS, n)}.`, `service-${n} deploys to ${pick(TARGETS, n + 1)}.`],
  (n) => [`${pick(SERVICES, n)}-${n} runs on Node 18.`, `${pick(SERVICES, n)}-${n} runs on Node 20.`],
  (n) => [
    `As of 2026-03-0${(n % 9) + 1}, team-${n} holds standup at 9:30 every weekday.`,
    `Team-${n} standup is daily at 9:30 on weekdays.`,
    `team-${n} standup is at 10:00 on weekdays.`,
  ],
  (n) => [`Person${n} likes horror movies.`, `Person${n} doesn't like horror movies.`],
  (n) => [
    `The staging database for app-${n} listens on port ${5400 + (n % 90)}.`,
    `The production database for app-${n} listens on port ${5400 + (n % 90)}.`,
  ],
  (n) => [`User's favourite colour number ${n} is green.`],
  (n) => [
    `I prefer tabs over spaces in project-${n}.`,
    `User likes to indent project-${n} with tabs rather than spaces.`,
  ],
];

function pick<T>(list: readonly T[], n: number): T {
  return list[n % list.length] as T;
}

/** A deterministic pseudo-random generator (mulberry32), so every run builds the same scope. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function unit(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  const scale = 1 / Math.sqrt(norm);
  return vector.map((x) => x * scale);
}

function buildScope() {
  const next = random(42);
  const gaussian = () => Math.sqrt(-2 * Math.log(next() + 1e-12)) * Math.cos(2 * Math.PI * next());
  const memories: TestMemory[] = [];
  const vectors: Float32Array[] = [];
  const families: number[][] = [];
  for (let family = 0; memories.length < SIZE; family++) {
    const texts = (TEMPLATES[family % TEMPLATES.length] as (n: number) => string[])(family);
    const centre = Float32Array.from({ length: DIMENSION }, gaussian);
    const members: number[] = [];
    for (const text of texts.slice(0, SIZE - memories.length)) {
      members.push(memories.length);
      memories.push({
        id: `m${String(memories.length).padStart(5, "0")}`,
        text,
        createdAt: new Date(Date.UTC(2025, 0, 1) + memories.length * 60_000).toISOString(),
      });
      // Noise of 0.35 per dimension puts family members at cosine ~0.9, strangers at ~0.
      vectors.push(unit(centre.map((x) => x + 0.35 * gaussian())));
    }
    families.push(members);
  }
  // Neighbours by construction: a memory's family, then other memories in id order, all with
  // their true cosine. Exact top-k within the family, which is all that clears the threshold.
  const lists = new Map<string, readonly Neighbour[]>();
  for (const members of families) {
    for (const i of members) {
      const own = members.filter((j) => j !== i);
      const strangers = [1, 2, 3].map((step) => (i + step * 997) % SIZE).filter((j) => !members.includes(j));
      const list = [...own, ...strangers].map((j) => ({
        id: (memories[j] as TestMemory).id,
        similarity: cosine(vectors[i] as Float32Array, vectors[j] as Float32Array),
      }));
      lists.set(
        (memories[i] as TestMemory).id,
        list.sort((a, b) => b.similarity - a.similarity),
      );
    }
  }
  return createTestSnapshot({
    memories,
    vectors,
    neighbours: (id, k) => (lists.get(id) ?? []).slice(0, k),
  });
}

describe("duplicates and contradictions at 10k memories", () => {
  it("finds every restatement and contradiction family of a 10k scope, and no near miss", () => {
    const snapshot = buildScope();
    const policy = testPolicy();
    const merges = analyseDuplicates(snapshot, policy);
    const conflicts = analyseContradictions(snapshot, policy);
    // 500 families per template: four restatement templates merge (2,000), the near-miss ones
    // (another number, environment) never do; four templates conflict (2,000): the three
    // contradiction templates, and the same morning run with another distance (one slot, two
    // values), plus a few residence conflicts where the synthetic names repeat across families.
    expect(merges).toHaveLength(2_000);
    expect(conflicts.length).toBeGreaterThanOrEqual(2_000);
    expect(conflicts.length).toBeLessThan(2_050);
  });
});
