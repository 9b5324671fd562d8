/**
 * The labelled pairs corpus (test/fixtures/dream/pairs.json) and the scores the duplicate and
 * contradiction tests hold floors on.
 */

import { readFileSync } from "node:fs";
import type { DreamSnapshot } from "../../../src/dream/snapshot.js";
import type { Embedder } from "../../../src/embed/embedder.js";
import { embedTestSnapshot, type TestMemory } from "./snapshot.js";

export interface PairsFixtureMemory {
  readonly key: string;
  readonly text: string;
  readonly category?: string;
  readonly createdAt: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface PairsFixtureScope {
  readonly user_id: string;
  readonly memories: readonly PairsFixtureMemory[];
  readonly expect: {
    /** Groups that are one fact. */
    readonly merges: readonly (readonly string[])[];
    /** Contradicting pairs, expected winner first. */
    readonly conflicts: readonly (readonly [string, string])[];
    /** Near-misses: in no merge and no conflict. */
    readonly none: readonly string[];
  };
}

export interface PairsFixture {
  readonly scopes: readonly PairsFixtureScope[];
}

export function loadPairsFixture(): PairsFixture {
  const url = new URL("../../fixtures/dream/pairs.json", import.meta.url);
  return JSON.parse(readFileSync(url, "utf8")) as PairsFixture;
}

export function fixtureMemories(scope: PairsFixtureScope): TestMemory[] {
  return scope.memories.map((memory) => ({
    id: memory.key,
    text: memory.text,
    category: memory.category ?? null,
    createdAt: memory.createdAt,
    ...(memory.metadata === undefined ? {} : { metadata: memory.metadata }),
  }));
}

export function embedFixtureScope(embedder: Embedder, scope: PairsFixtureScope): Promise<DreamSnapshot> {
  return embedTestSnapshot(embedder, { scope: { user_id: scope.user_id }, memories: fixtureMemories(scope) });
}

/** Every unordered pair inside each group, as "a|b" with a < b. */
export function pairKeys(groups: readonly (readonly string[])[]): Set<string> {
  const keys = new Set<string>();
  for (const group of groups) {
    const sorted = [...group].sort();
    sorted.forEach((a, i) => {
      for (const b of sorted.slice(i + 1)) keys.add(`${a}|${b}`);
    });
  }
  return keys;
}

export interface Score {
  readonly predicted: number;
  readonly expected: number;
  readonly correct: number;
  readonly precision: number;
  readonly recall: number;
}

export function score(predicted: ReadonlySet<string>, expected: ReadonlySet<string>): Score {
  const correct = [...predicted].filter((key) => expected.has(key)).length;
  return {
    predicted: predicted.size,
    expected: expected.size,
    correct,
    precision: predicted.size === 0 ? 1 : correct / predicted.size,
    recall: expected.size === 0 ? 1 : correct / expected.size,
  };
}
