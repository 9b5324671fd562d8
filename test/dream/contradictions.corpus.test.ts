/**
 * The contradictions analyser on the labelled corpus (test/fixtures/dream/pairs.json), embedded with
 * the real local embedder. Measured: 41 of 41 conflicts found, none extra, every suggested winner
 * the expected one. The rules were written alongside most of this corpus, so the floors leave room:
 * the last scope ("riley") was the only one written blind, and new phrasings will miss.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyseContradictions } from "../../src/dream/analyse/contradictions.js";
import type { ConflictAction } from "../../src/dream/plan.js";
import type { Embedder } from "../../src/embed/embedder.js";
import { cachedEmbedder } from "../helpers/cached-embedder.js";
import {
  embedFixtureScope,
  loadPairsFixture,
  type PairsFixtureScope,
  score,
} from "./helpers/pairs-fixture.js";
import { testPolicy } from "./helpers/snapshot.js";

const MIN_PRECISION = 0.95;
const MIN_RECALL = 0.9;
const MIN_RIGHT_WINNER = 0.95;

const fixture = loadPairsFixture();
let embedder: Embedder;
const results: { scope: PairsFixtureScope; conflicts: readonly ConflictAction[] }[] = [];

beforeAll(async () => {
  embedder = cachedEmbedder();
  for (const scope of fixture.scopes) {
    results.push({
      scope,
      conflicts: analyseContradictions(await embedFixtureScope(embedder, scope), testPolicy()),
    });
  }
});
afterAll(async () => {
  await embedder.close?.();
});

const pairKey = (ids: readonly string[]) => [...ids].sort().join("|");

describe("analyseContradictions on the labelled corpus", () => {
  it(`holds precision ≥ ${MIN_PRECISION}, recall ≥ ${MIN_RECALL} and the right winner ≥ ${MIN_RIGHT_WINNER}`, () => {
    const predicted = new Set<string>();
    const expected = new Set<string>();
    let found = 0;
    let rightWinner = 0;
    for (const { scope, conflicts } of results) {
      for (const conflict of conflicts) predicted.add(pairKey(conflict.ids));
      for (const [winner, loser] of scope.expect.conflicts) {
        expected.add(pairKey([winner, loser]));
        const conflict = conflicts.find((c) => pairKey(c.ids) === pairKey([winner, loser]));
        if (conflict === undefined) continue;
        found += 1;
        if (conflict.suggested === winner) rightWinner += 1;
      }
    }
    const result = score(predicted, expected);
    console.info(
      `contradictions corpus: precision ${result.precision.toFixed(3)}, recall ${result.recall.toFixed(3)} ` +
        `(${result.correct}/${result.expected}), right winner ${rightWinner}/${found}`,
    );
    expect(result.precision).toBeGreaterThanOrEqual(MIN_PRECISION);
    expect(result.recall).toBeGreaterThanOrEqual(MIN_RECALL);
    expect(rightWinner / Math.max(1, found)).toBeGreaterThanOrEqual(MIN_RIGHT_WINNER);
  });

  it("raises no conflict on a hard negative, in any scope", () => {
    for (const { scope, conflicts } of results) {
      const none = new Set(scope.expect.none);
      expect(
        conflicts.flatMap((conflict) => conflict.ids.filter((id) => none.has(id))),
        scope.user_id,
      ).toEqual([]);
    }
  });

  it("names every topic and explains every suggestion", () => {
    for (const { conflicts } of results) {
      for (const conflict of conflicts) {
        expect(conflict.topic.length).toBeGreaterThan(0);
        expect(conflict.ids).toContain(conflict.suggested);
        expect(conflict.why.detail).toMatch(/suggest /u);
      }
    }
  });
});
