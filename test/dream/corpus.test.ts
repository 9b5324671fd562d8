/**
 * The labelled dream corpus (test/fixtures/dream/corpus.json + pairs.json) in a real SQLite store
 * with the local embedder, planned end to end; floors on precision and recall per label, and on
 * actions taken against hard negatives. Numbers and their reading are in BENCHMARKS.md
 * (`npx tsx bench/dream.ts`).
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DreamPlan } from "../../src/dream/plan.js";
import { type Memory, openMemory } from "../../src/index.js";
import { type CorpusScope, loadDreamCorpus } from "../fixtures/dream/corpus.js";
import { type Evaluation, evaluate, precision, recall } from "../fixtures/dream/evaluate.js";
import { cachedEmbedder } from "../helpers/cached-embedder.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("dream-corpus");
const scopes = loadDreamCorpus();
let memory: Memory;
let results: { scope: CorpusScope; plan: DreamPlan }[];
let tuned: Evaluation;
let heldOut: Evaluation;

beforeAll(async () => {
  // "allow": the store holds the secrets as a store written before redaction-on-add (or by Mem0)
  // would, which is what the dream's credentials analyser is for.
  memory = await openMemory({
    path: files.path(),
    embedder: cachedEmbedder(),
    policy: { secrets: { onAdd: "allow" } },
  });
  for (const scope of scopes) {
    const imported = await memory.importMemories([...scope.records]);
    expect(imported.failed).toBe(0);
  }
  results = [];
  for (const scope of scopes)
    results.push({ scope, plan: await memory.dream.plan(scope.scope, { now: scope.now }) });
  tuned = evaluate(results.filter((result) => !result.scope.heldOut));
  heldOut = evaluate(results.filter((result) => result.scope.heldOut));
}, 300_000);
afterAll(async () => {
  await memory.close();
});

/** [label, precision floor, recall floor] on the scopes the rules were written against. */
const FLOORS: readonly [string, number, number][] = [
  ["delete:credential", 0.95, 0.95],
  ["rewrite:credential_redacted", 0.95, 0.95],
  ["delete:noise", 0.95, 0.95],
  ["delete:expired", 0.95, 0.95],
  ["delete:low_confidence", 0.9, 0.9],
  ["rewrite:first_person", 0.95, 0.95],
  ["rewrite:missing_anchor", 0.95, 0.95],
  // End to end: a group loses to expiry when a member is past its TTL at the plan's clock.
  ["merge", 0.95, 0.75],
  ["conflict", 0.95, 0.8],
];

describe("the dream corpus", () => {
  it("holds at least 300 labelled memories in several scopes", () => {
    const total = scopes.reduce((sum, scope) => sum + scope.records.length, 0);
    expect(total).toBeGreaterThanOrEqual(300);
    expect(scopes.length).toBeGreaterThanOrEqual(5);
  });

  it.each(FLOORS)("%s: precision ≥ %d, recall ≥ %d", (label, minPrecision, minRecall) => {
    const score = tuned.scores.get(label);
    expect(score, `no ${label} in the corpus`).toBeDefined();
    if (score === undefined) return;
    expect(precision(score), JSON.stringify(score)).toBeGreaterThanOrEqual(minPrecision);
    expect(recall(score), JSON.stringify(score)).toBeGreaterThanOrEqual(minRecall);
  });

  it("leaves hard negatives and protected memories alone", () => {
    expect(tuned.hardNegatives).toBeGreaterThan(150);
    expect(tuned.hardNegativeHits).toEqual([]);
  });

  it("on the held-out scope, what it does is nearly always right", () => {
    const deletes = heldOut.scores.get("kind:delete");
    const rewrites = heldOut.scores.get("kind:rewrite");
    expect(deletes && precision(deletes)).toBeGreaterThanOrEqual(0.9);
    expect(rewrites && precision(rewrites)).toBeGreaterThanOrEqual(0.9);
    expect(heldOut.hardNegativeHits.length).toBeLessThanOrEqual(2);
  });

  it("never puts a fake secret into a plan", () => {
    const secrets = scopes
      .flatMap((scope) => scope.records)
      .filter((record) => /FAKE|fa4ec0de/u.test(record.text))
      .map((record) => /\S*(?:FAKE|fa4ec0de)\S*/u.exec(record.text)?.[0] ?? "");
    const json = JSON.stringify(results.map((result) => result.plan));
    for (const secret of secrets) expect(json).not.toContain(secret.slice(0, 24));
  });
});
