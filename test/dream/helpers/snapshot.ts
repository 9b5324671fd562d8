/**
 * A DreamSnapshot for tests: memories in memory, vectors given or embedded with the real local
 * embedder, and neighbours by brute-force cosine (exact, so test results do not depend on an ANN
 * index). The production snapshot loads from a store; this one implements the same interface.
 */

import type { Scope } from "../../../src/core/scope.js";
import type { DreamSnapshot, Neighbour, SnapshotMemory } from "../../../src/dream/snapshot.js";
import { cosine } from "../../../src/embed/cosine.js";
import type { Embedder } from "../../../src/embed/embedder.js";
import { DEFAULT_CATEGORIES } from "../../../src/policy/categories.js";
import { DEFAULT_THRESHOLDS, type Policy } from "../../../src/policy/policy.js";
import { contentHash } from "../../../src/text/normalise.js";

export interface TestMemory {
  readonly id: string;
  readonly text: string;
  readonly category?: string | null;
  readonly createdAt: string;
  readonly updatedAt?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface TestSnapshotOptions {
  readonly scope?: Scope;
  readonly now?: string;
  readonly memories: readonly TestMemory[];
  /** One vector per memory, in order. */
  readonly vectors: readonly Float32Array[];
  /** Replaces brute force, for large synthetic snapshots whose neighbours are known by construction. */
  readonly neighbours?: (id: string, k: number) => readonly Neighbour[];
}

export const TEST_NOW = "2026-04-01T00:00:00.000Z";

/**
 * The policy the duplicate and contradiction tests run with: the defaults, with the duplicate
 * vector threshold these analysers were calibrated at (0.6: every paraphrase pair of
 * test/fixtures/dream/pairs.json scores ≥ 0.605 on USE lite; the words do the discriminating).
 */
export function testPolicy(overrides: Partial<Policy> = {}): Policy {
  return {
    ...DEFAULT_THRESHOLDS,
    categories: DEFAULT_CATEGORIES,
    sources: [],
    warnings: [],
    duplicates: { minSimilarity: 0.6, neighbours: 10 },
    contradictions: { minSimilarity: 0.6, neighbours: 10 },
    ...overrides,
  };
}

export function toSnapshotMemory(memory: TestMemory, scope: Scope): SnapshotMemory {
  const metadata = memory.metadata ?? {};
  const confidence = metadata.confidence;
  return {
    id: memory.id,
    text: memory.text,
    hash: contentHash(memory.text),
    user_id: scope.user_id ?? null,
    agent_id: scope.agent_id ?? null,
    app_id: scope.app_id ?? null,
    run_id: scope.run_id ?? null,
    category: memory.category ?? null,
    metadata,
    createdAt: memory.createdAt,
    updatedAt: memory.updatedAt ?? memory.createdAt,
    expiresAt: null,
    pinned: metadata.pinned === true,
    confidence: typeof confidence === "number" && confidence >= 0 && confidence <= 1 ? confidence : null,
  };
}

export function createTestSnapshot(options: TestSnapshotOptions): DreamSnapshot {
  const scope = options.scope ?? { user_id: "test-user" };
  const memories = options.memories.map((memory) => toSnapshotMemory(memory, scope));
  const index = new Map(memories.map((memory, i) => [memory.id, i]));
  if (index.size !== memories.length) throw new Error("memory ids must be unique");
  if (options.vectors.length !== memories.length) throw new Error("one vector per memory");
  const cache = new Map<string, readonly Neighbour[]>();

  const bruteForce = (id: string, k: number): readonly Neighbour[] => {
    const i = index.get(id);
    if (i === undefined || k <= 0) return [];
    const cached = cache.get(id);
    if (cached !== undefined && cached.length >= Math.min(k, memories.length - 1)) return cached.slice(0, k);
    const query = options.vectors[i] as Float32Array;
    const all: Neighbour[] = [];
    memories.forEach((memory, j) => {
      if (j !== i) all.push({ id: memory.id, similarity: cosine(query, options.vectors[j] as Float32Array) });
    });
    all.sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    cache.set(id, all);
    return all.slice(0, k);
  };

  return {
    scope,
    now: options.now ?? TEST_NOW,
    memories,
    byId: (id) => {
      const i = index.get(id);
      return i === undefined ? undefined : memories[i];
    },
    embedding: (id) => {
      const i = index.get(id);
      return i === undefined ? undefined : options.vectors[i];
    },
    neighbours: options.neighbours ?? bruteForce,
  };
}

/** Embeds the memories' texts with `embedder` and builds the snapshot. */
export async function embedTestSnapshot(
  embedder: Embedder,
  options: Omit<TestSnapshotOptions, "vectors">,
): Promise<DreamSnapshot> {
  const vectors = await embedder.embed(
    options.memories.map((memory) => memory.text),
    "add",
  );
  return createTestSnapshot({ ...options, vectors: vectors.map((vector) => Float32Array.from(vector)) });
}

export { cosine };
