/**
 * One timed dream plan over a synthetic store, in a fresh process so that its peak memory is the
 * plan's alone: `tsx bench/dream-time.ts <file>` prints one JSON line.
 *
 * @module
 */

import type { Analyser } from "../src/dream/analyser.js";
import { DEFAULT_ANALYSERS } from "../src/dream/analysers.js";
import { loadSnapshot } from "../src/dream/load-snapshot.js";
import { createExactIndex } from "../src/dream/neighbours/exact-index.js";
import { createVectorSet } from "../src/dream/neighbours/vector-set.js";
import { planDream } from "../src/dream/plan-dream.js";
import { createSqliteStore } from "../src/index.js";
import { resolvePolicy } from "../src/policy/resolve-policy.js";
import { SYNTHETIC_NOW, SYNTHETIC_SCOPE } from "./dream-synthetic.js";

const RECALL_SAMPLE = 100;

export interface DreamTiming {
  readonly memories: number;
  readonly loadMs: number;
  readonly planMs: number;
  readonly totalMs: number;
  readonly peakRssMb: number;
  readonly actions: Record<string, number>;
  /** Building the neighbour index and every memory's neighbour list, then each analyser alone. */
  readonly phasesMs: Record<string, number>;
  readonly index: string;
  /** Of each sampled memory's true 10 nearest with similarity ≥ 0.6, the share the snapshot returned. */
  readonly neighbourRecall: number;
  /** The same for true neighbours with similarity ≥ 0.8 (where duplicates are). */
  readonly neighbourRecallStrong: number;
}

async function timePlan(file: string): Promise<DreamTiming> {
  const store = createSqliteStore({ path: file, readOnly: true });
  const policy = await resolvePolicy();
  const started = performance.now();
  const snapshot = await loadSnapshot(store, { scope: SYNTHETIC_SCOPE, now: SYNTHETIC_NOW });
  const loaded = performance.now();
  const phasesMs: Record<string, number> = {};
  // Every neighbour list first (the analysers then read them from the snapshot's cache), so the
  // index's cost is reported apart from the analysers'.
  const k = Math.max(policy.duplicates.neighbours, policy.contradictions.neighbours);
  for (const memory of snapshot.memories) snapshot.neighbours(memory.id, k);
  phasesMs.neighbours = Math.round(performance.now() - loaded);
  const timed = DEFAULT_ANALYSERS.map(
    (analyse): Analyser =>
      (s, p) => {
        const start = performance.now();
        const actions = analyse(s, p);
        phasesMs[analyse.name.replace(/^analyse/u, "").toLowerCase()] = Math.round(performance.now() - start);
        return actions;
      },
  );
  const plan = planDream(snapshot, policy, { startedAt: loaded, analysers: timed });
  const done = performance.now();
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  const actions: Record<string, number> = {};
  for (const action of plan.actions) {
    const key =
      action.kind === "delete"
        ? `delete:${action.reason}`
        : action.kind === "rewrite" && action.reasons.includes("credential_redacted")
          ? "rewrite:credential"
          : action.kind;
    actions[key] = (actions[key] ?? 0) + 1;
  }
  // Recall of the neighbour lookup against brute force, on a sample (after the peak was read).
  const memories = snapshot.memories;
  const set = createVectorSet(
    memories.map((memory) => snapshot.embedding(memory.id)),
    512,
  );
  const exact = createExactIndex(set);
  const wanted = [0, 0];
  const found = [0, 0];
  const step = Math.max(1, Math.floor(memories.length / RECALL_SAMPLE));
  for (let row = 0; row < memories.length; row += step) {
    const truth = exact.search(row, 33).slice(0, 10);
    const got = new Set(snapshot.neighbours((memories[row] as { id: string }).id, 10).map((hit) => hit.id));
    [0.6, 0.8].forEach((bar, index) => {
      const strong = truth.filter((hit) => hit.score >= bar);
      wanted[index] = (wanted[index] as number) + strong.length;
      found[index] =
        (found[index] as number) +
        strong.filter((hit) => got.has((memories[hit.row] as { id: string }).id)).length;
    });
  }
  await store.close();
  return {
    memories: memories.length,
    loadMs: Math.round(loaded - started),
    planMs: Math.round(done - loaded),
    totalMs: Math.round(done - started),
    peakRssMb,
    actions,
    phasesMs,
    index: memories.length > 2000 ? "ivf" : "exact",
    neighbourRecall: ratio(found[0] as number, wanted[0] as number),
    neighbourRecallStrong: ratio(found[1] as number, wanted[1] as number),
  };
}

function ratio(found: number, wanted: number): number {
  return wanted === 0 ? 1 : found / wanted;
}

if (process.argv[1]?.endsWith("dream-time.ts")) {
  console.log(JSON.stringify(await timePlan(String(process.argv[2]))));
}
