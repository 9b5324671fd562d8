/**
 * Plans of small scopes through the SDK with the default local model (MiniLM, vectors cached):
 * each call imports `older`, then `newer` (and any `extra` in between) into a fresh scope and plans
 * it at a fixed clock. Registers its own `beforeAll`/`afterAll`, so a test file calls it once at the
 * top level.
 */

import { afterAll, beforeAll } from "vitest";
import type { DreamAction, ReviewItem } from "../../../src/dream/plan.js";
import type { Embedder } from "../../../src/embed/embedder.js";
import { createLocalEmbedder, type Memory, openMemory } from "../../../src/index.js";
import { cachedEmbedder } from "../../helpers/cached-embedder.js";

export interface PlannedPair {
  readonly userId: string;
  readonly actions: readonly DreamAction[];
  readonly review: readonly ReviewItem[];
  /** Each memory's text by id, to tell which one a conflict suggests. */
  readonly texts: ReadonlyMap<string, string>;
}

export interface PairPlanner {
  /** The store the plans are made in, once `beforeAll` has opened it. */
  memory(): Memory;
  plan(older: string, newer: string, extra?: readonly string[]): Promise<PlannedPair>;
}

export const PLAN_NOW = "2026-07-01T00:00:00.000Z";

/**
 * @example
 * const pairs = pairPlanner("relation");
 * const { actions } = await pairs.plan("billing-api deploys to Fly.io.", "billing-api deploys to AWS ECS.");
 */
export function pairPlanner(prefix: string): PairPlanner {
  let embedder: Embedder | undefined;
  let memory: Memory | undefined;
  let scopes = 0;
  beforeAll(async () => {
    embedder = cachedEmbedder(createLocalEmbedder());
    memory = await openMemory({ path: ":memory:", embedder });
  });
  afterAll(async () => {
    await memory?.close();
    await embedder?.close?.();
  });
  const opened = (): Memory => {
    if (memory === undefined) throw new Error("pairPlanner: the store opens in beforeAll");
    return memory;
  };
  return {
    memory: opened,
    async plan(older, newer, extra = []) {
      const store = opened();
      const userId = `${prefix}-${++scopes}`;
      await store.importMemories([
        { text: older, user_id: userId, createdAt: "2026-01-05T09:00:00.000Z" },
        { text: newer, user_id: userId, createdAt: "2026-06-05T09:00:00.000Z" },
        ...extra.map((text) => ({ text, user_id: userId, createdAt: "2026-03-05T09:00:00.000Z" })),
      ]);
      const plan = await store.dream.plan({ userId }, { now: PLAN_NOW });
      const listed = await store.getAll({ userId });
      return {
        userId,
        actions: plan.actions,
        review: plan.review,
        texts: new Map(listed.results.map((item) => [item.id, item.memory])),
      };
    },
  };
}
