/**
 * The measured steps of the scale benchmark, each on an open Memory: build a store with list adds,
 * time searches, time single and list adds.
 *
 * @module
 */

import type { Filters, Memory, ScopeOptions, SearchMode } from "../src/index.js";
import type { Random } from "./prng.js";
import { createSampler, type LatencySummary, type Timings } from "./stats.js";
import type { SyntheticCorpus, SyntheticQuery } from "./synthetic.js";

/** Scoped: one user per block of memories. Unscoped: every memory in one scope, as Lucid always needs one. */
export const LAYOUTS = ["scoped", "unscoped"] as const;
export type Layout = (typeof LAYOUTS)[number];

export const LIST_SIZE = 100;

export function scopeOf(layout: Layout, user: number): ScopeOptions {
  return layout === "scoped" ? { userId: `user-${user}` } : { agentId: "all" };
}

export function filtersOf(layout: Layout, user: number): Filters {
  return layout === "scoped" ? { user_id: `user-${user}` } : { agent_id: "all" };
}

/** Adds memories [from, to) as lists of up to LIST_SIZE messages, never mixing scopes in one call; returns their ids. */
export async function addAsLists(
  memory: Memory,
  corpus: SyntheticCorpus,
  layout: Layout,
  range: { from: number; to: number },
): Promise<{ ids: string[]; ms: number }> {
  const ids: string[] = [];
  const start = performance.now();
  let index = range.from;
  while (index < range.to) {
    const user = corpus.memories[index]?.user ?? 0;
    const batch = [];
    while (
      index < range.to &&
      batch.length < LIST_SIZE &&
      (layout === "unscoped" || corpus.memories[index]?.user === user)
    ) {
      batch.push({ role: "user", content: corpus.memories[index]?.text ?? "" });
      index++;
    }
    const { results } = await memory.add(batch, scopeOf(layout, user));
    for (const item of results) ids.push(item.id);
  }
  return { ids, ms: performance.now() - start };
}

/** One `add` call per memory in [from, to). */
export async function addOneByOne(
  memory: Memory,
  corpus: SyntheticCorpus,
  layout: Layout,
  range: { from: number; to: number },
): Promise<{ ms: number }> {
  const start = performance.now();
  for (let index = range.from; index < range.to; index++) {
    const item = corpus.memories[index];
    if (item === undefined) break;
    await memory.add(item.text, scopeOf(layout, item.user));
  }
  return { ms: performance.now() - start };
}

export interface SearchRun {
  readonly latency: LatencySummary;
  readonly cpu: LatencySummary;
  /** Share of queries whose source memory is in the top 10: a sanity check that the signals mean something. */
  readonly targetInTop10: number;
}

export function makeQueries(
  corpus: SyntheticCorpus,
  random: Random,
  count: number,
  pool: number,
): SyntheticQuery[] {
  return Array.from({ length: count }, () => corpus.query(random, pool));
}

export async function timeSearches(options: {
  memory: Memory;
  corpus: SyntheticCorpus;
  layout: Layout;
  mode: SearchMode;
  queries: readonly SyntheticQuery[];
  warmUp: number;
  ids: readonly string[];
}): Promise<SearchRun> {
  const { memory, corpus, layout, mode, queries, warmUp, ids } = options;
  const search = (query: SyntheticQuery) =>
    memory.search(query.text, {
      filters: filtersOf(layout, corpus.memories[query.target]?.user ?? 0),
      mode,
    });
  for (const query of queries.slice(0, warmUp)) await search(query);
  const sampler = createSampler();
  let hits = 0;
  const measured = queries.slice(warmUp);
  for (const query of measured) {
    const { results } = await sampler.run(() => search(query));
    if (results.slice(0, 10).some((item) => item.id === ids[query.target])) hits++;
  }
  const { wall, cpu } = sampler.summary();
  return { latency: wall, cpu, targetInTop10: hits / Math.max(measured.length, 1) };
}

export const SMALL_SCOPE_SIZE = 10;

/**
 * A user with only a few memories inside a big store: most users of a multi-tenant store look like
 * this, and their searches must not pay for everyone else's memories.
 */
export async function timeSmallScope(options: {
  memory: Memory;
  corpus: SyntheticCorpus;
  from: number;
  queries: readonly SyntheticQuery[];
  warmUp: number;
}): Promise<Timings> {
  const { memory, corpus, from, queries, warmUp } = options;
  const texts = corpus.memories.slice(from, from + SMALL_SCOPE_SIZE).map((item) => ({
    role: "user",
    content: item.text,
  }));
  await memory.add(texts, { userId: "small-scope" });
  const search = (query: SyntheticQuery) =>
    memory.search(query.text, { filters: { user_id: "small-scope" } });
  for (const query of queries.slice(0, warmUp)) await search(query);
  const sampler = createSampler();
  for (const query of queries.slice(warmUp)) await sampler.run(() => search(query));
  return sampler.summary();
}
