/**
 * The duplicates analyser on the labelled corpus (test/fixtures/dream/pairs.json), embedded with the
 * real local embedder. Floors sit a little under the measured scores (pair precision 1.00, pair
 * recall 0.90, 52 of 58 groups exact) so that a regression fails and noise does not.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyseDuplicates } from "../../src/dream/analyse/duplicates.js";
import type { MergeAction } from "../../src/dream/plan.js";
import type { Embedder } from "../../src/embed/embedder.js";
import { cachedEmbedder } from "../helpers/cached-embedder.js";
import {
  embedFixtureScope,
  loadPairsFixture,
  type PairsFixtureScope,
  pairKeys,
  score,
} from "./helpers/pairs-fixture.js";
import { testPolicy } from "./helpers/snapshot.js";

const MIN_PAIR_PRECISION = 0.95;
const MIN_PAIR_RECALL = 0.85;
const MIN_EXACT_GROUPS = 0.85;

const fixture = loadPairsFixture();
let embedder: Embedder;
const results: { scope: PairsFixtureScope; merges: readonly MergeAction[] }[] = [];

beforeAll(async () => {
  embedder = cachedEmbedder();
  for (const scope of fixture.scopes) {
    results.push({
      scope,
      merges: analyseDuplicates(await embedFixtureScope(embedder, scope), testPolicy()),
    });
  }
});
afterAll(async () => {
  await embedder.close?.();
});

describe("analyseDuplicates on the labelled corpus", () => {
  it("the corpus is as large as promised", () => {
    const count = (pick: (scope: PairsFixtureScope) => number) =>
      fixture.scopes.reduce((sum, s) => sum + pick(s), 0);
    expect(count((s) => s.expect.merges.length)).toBeGreaterThanOrEqual(40);
    expect(count((s) => s.expect.conflicts.length)).toBeGreaterThanOrEqual(30);
    expect(count((s) => s.expect.none.length) / 2).toBeGreaterThanOrEqual(60);
  });

  it(`holds pair precision ≥ ${MIN_PAIR_PRECISION}, pair recall ≥ ${MIN_PAIR_RECALL} and ≥ ${MIN_EXACT_GROUPS} exact groups`, () => {
    const predicted = new Set<string>();
    const expected = new Set<string>();
    let exact = 0;
    let groups = 0;
    for (const { scope, merges } of results) {
      for (const key of pairKeys(merges.map((merge) => merge.ids))) predicted.add(key);
      for (const key of pairKeys(scope.expect.merges)) expected.add(key);
      const found = new Set(merges.map((merge) => [...merge.ids].sort().join("|")));
      exact += scope.expect.merges.filter((group) => found.has([...group].sort().join("|"))).length;
      groups += scope.expect.merges.length;
    }
    const pairs = score(predicted, expected);
    console.info(
      `duplicates corpus: pair precision ${pairs.precision.toFixed(3)}, recall ${pairs.recall.toFixed(3)} ` +
        `(${pairs.correct}/${pairs.expected}), exact groups ${exact}/${groups}`,
    );
    expect(pairs.precision).toBeGreaterThanOrEqual(MIN_PAIR_PRECISION);
    expect(pairs.recall).toBeGreaterThanOrEqual(MIN_PAIR_RECALL);
    expect(exact / groups).toBeGreaterThanOrEqual(MIN_EXACT_GROUPS);
  });

  it("merges no hard negative and no contradicting pair, in any scope", () => {
    for (const { scope, merges } of results) {
      const none = new Set(scope.expect.none);
      const touched = merges.flatMap((merge) => merge.ids.filter((id) => none.has(id)));
      expect(touched, scope.user_id).toEqual([]);
      for (const [a, b] of scope.expect.conflicts) {
        expect(
          merges.some((merge) => merge.ids.includes(a) && merge.ids.includes(b)),
          `${a}+${b}`,
        ).toBe(false);
      }
    }
  });

  it("keeps the merged text self-contained: third person, a full sentence", () => {
    for (const { merges } of results) {
      for (const merge of merges) {
        expect(merge.text).toMatch(/\.$/u);
        expect(merge.text).not.toMatch(/\b(?:I|my|me)\b/u);
        expect(merge.ids[0]).toBe(merge.keep);
      }
    }
  });
});
