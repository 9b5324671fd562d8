/**
 * Scale: engine-only search latency at 1k, 10k and 100k synthetic memories (vectors precomputed,
 * so no model runs), scoped (100 users, queries filter one) and unscoped (one scope holding
 * everything), plus add throughput with precomputed vectors and with the local model, and search
 * end to end at 10k (1k with --quick): a store the local model filled, each query embedded live.
 *
 * Stores are built with `add` calls of 100 messages each (single adds are measured separately),
 * which keeps building 100k within a couple of minutes on two cores.
 *
 * @module
 */

import { statSync } from "node:fs";
import {
  createLocalEmbedder,
  createSqliteStore,
  type Embedder,
  openMemory,
  SEARCH_MODES,
} from "../src/index.js";
import { createTempDir } from "./paths.js";
import { createPrecomputedEmbedder } from "./precomputed-embedder.js";
import { createRandom } from "./prng.js";
import { addAnalysis, profileUnits, searchAnalysis } from "./profile.js";
import { renderRunInfo, runInfo, writeResults } from "./report.js";
import { type EndToEnd, renderScale, type SizeResult, type Throughput } from "./scale-report.js";
import {
  addAsLists,
  addOneByOne,
  filtersOf,
  LAYOUTS,
  type Layout,
  LIST_SIZE,
  makeQueries,
  type SearchRun,
  SMALL_SCOPE_SIZE,
  scopeOf,
  timeSearches,
  timeSmallScope,
} from "./scale-runs.js";
import { createSampler, type Timings } from "./stats.js";
import {
  generateCorpus,
  SYNTHETIC_DIMENSION,
  type SyntheticCorpus,
  type SyntheticQuery,
} from "./synthetic.js";
import { createTimedStore } from "./timed-store.js";

export interface ScaleOptions {
  readonly quick: boolean;
  readonly sizes?: readonly number[];
}

const USERS = 100;
const SEED = 20_261_130;
const WARM_UP = 20;
// Any id works for a precomputed embedder; this one says the vectors are synthetic.
const EMBEDDER_ID = "synthetic-vectors@1";

const progress = (message: string) => process.stderr.write(`scale: ${message}\n`);

export async function runScale(options: ScaleOptions): Promise<void> {
  const info = runInfo();
  const sizes = options.sizes ?? (options.quick ? [1000, 10_000] : [1000, 10_000, 100_000]);
  const plan = {
    queries: options.quick ? 100 : 200,
    singleAdds: options.quick ? 300 : 1000,
    profileQueries: options.quick ? 50 : 100,
    profileAdds: options.quick ? 100 : 300,
    throughput: options.quick ? 1000 : 5000,
    localAdds: options.quick ? 100 : 500,
    endToEndSize: options.quick ? 1000 : 10_000,
    smallScopeQueries: options.quick ? 20 : 50,
    warmUp: WARM_UP,
  };
  const temp = createTempDir("scale");
  try {
    const results: SizeResult[] = [];
    for (const size of sizes) {
      progress(`${size} memories: generating`);
      const corpus = generateCorpus({
        count: size,
        extra: plan.singleAdds + plan.profileAdds + SMALL_SCOPE_SIZE,
        users: USERS,
        seed: SEED,
      });
      for (const layout of LAYOUTS) results.push(await runSize({ corpus, size, layout, plan }, temp.path));
    }
    const throughput = await measureThroughput(plan, temp.path);
    const endToEnd = await measureEndToEnd(plan, temp.path);
    const report = renderScale(results, throughput, endToEnd, sizes, plan);
    console.log(
      `\n## Scale (engine-only, synthetic ${SYNTHETIC_DIMENSION}-d vectors)\n${renderRunInfo(info)}\n`,
    );
    console.log(report.text);
    console.log(
      `\nresults: ${writeResults("scale", info, { plan, sizes: results, throughput, endToEnd, goals: report.goals })}`,
    );
  } finally {
    temp.remove();
  }
}

async function runSize(
  run: {
    corpus: SyntheticCorpus;
    size: number;
    layout: Layout;
    plan: {
      queries: number;
      singleAdds: number;
      profileQueries: number;
      profileAdds: number;
      smallScopeQueries: number;
    };
  },
  tempPath: (file: string) => string,
): Promise<SizeResult> {
  const { corpus, size, layout, plan } = run;
  const embedder = precomputed(corpus.vectors);
  const queries = makeQueries(corpus, createRandom(SEED + size), plan.queries + WARM_UP, size);
  const path = tempPath(`${layout}-${size}.db`);

  const memory = await openMemory({ path, embedder });
  progress(`${size} memories, ${layout}: building with lists of ${LIST_SIZE}`);
  const build = await addAsLists(memory, corpus, layout, { from: 0, to: size });
  const search: Record<string, SearchRun> = {};
  for (const mode of SEARCH_MODES) {
    progress(`${size} memories, ${layout}: ${plan.queries} ${mode} searches`);
    search[mode] = await timeSearches({
      memory,
      corpus,
      layout,
      mode,
      queries,
      warmUp: WARM_UP,
      ids: build.ids,
    });
  }
  progress(`${size} memories, ${layout}: ${plan.singleAdds} single adds`);
  const singles = await addOneByOne(memory, corpus, layout, { from: size, to: size + plan.singleAdds });
  const smallFrom = size + plan.singleAdds + plan.profileAdds;
  let smallScope: Timings | undefined;
  if (layout === "scoped") {
    progress(`${size} memories, ${layout}: searches of a ${SMALL_SCOPE_SIZE}-memory user`);
    const sample = queries.slice(0, WARM_UP + plan.smallScopeQueries);
    smallScope = await timeSmallScope({ memory, corpus, from: smallFrom, queries: sample, warmUp: WARM_UP });
  }
  await memory.close();
  const dbBytes = statSync(path).size;

  // Reopened over a timed store: the instrumentation costs a little, so it is kept out of the timings above.
  const timed = createTimedStore(createSqliteStore({ path }));
  const profiled = await openMemory({ store: timed.store, embedder });
  const searchProfile = await profileUnits({
    name: "search",
    timed,
    inputs: queries.slice(WARM_UP, WARM_UP + plan.profileQueries).map((query) => ({
      text: query.text,
      user: corpus.memories[query.target]?.user ?? 0,
    })),
    unit: (query) => profiled.search(query.text, { filters: filtersOf(layout, query.user) }),
    analysis: {
      "extractEntities(query)": (query) => searchAnalysis["extractEntities(query)"](query.text),
      "keywordTerms(query)": (query) => searchAnalysis["keywordTerms(query)"](query.text),
    },
  });
  const from = size + plan.singleAdds;
  const addProfile = await profileUnits({
    name: "add",
    timed,
    inputs: corpus.memories.slice(from, from + plan.profileAdds),
    unit: (item) => profiled.add(item.text, scopeOf(layout, item.user)),
    analysis: {
      "extractEntities(text)": (item) => addAnalysis["extractEntities(text)"](item.text),
      "contentHash(text)": (item) => addAnalysis["contentHash(text)"](item.text),
    },
  });
  await profiled.close();
  return {
    size,
    layout,
    buildMs: build.ms,
    dbBytes,
    search,
    singleAdds: { count: plan.singleAdds, ms: singles.ms },
    ...(smallScope === undefined ? {} : { smallScope }),
    searchProfile,
    addProfile,
  };
}

async function measureThroughput(
  plan: { throughput: number; localAdds: number },
  tempPath: (file: string) => string,
): Promise<Throughput[]> {
  const corpus = generateCorpus({ count: plan.throughput, extra: 0, users: USERS, seed: SEED + 1 });
  const results: Throughput[] = [];
  const run = async (
    label: { embedder: string; shape: string; file: string },
    embedder: Embedder,
    count: number,
    add: typeof addOneByOne,
  ) => {
    progress(`throughput: ${count} memories, ${label.embedder}, ${label.shape}`);
    const memory = await openMemory({ path: tempPath(label.file), embedder });
    const { ms } = await add(memory, corpus, "scoped", { from: 0, to: count });
    await memory.close();
    results.push({ embedder: label.embedder, shape: label.shape, count, ms });
  };
  const fast = precomputed(corpus.vectors);
  await run(
    { embedder: "precomputed", shape: "single add", file: "t1.db" },
    fast,
    plan.throughput,
    addOneByOne,
  );
  await run(
    { embedder: "precomputed", shape: `lists of ${LIST_SIZE}`, file: "t2.db" },
    fast,
    plan.throughput,
    addAsLists,
  );
  const local = createLocalEmbedder();
  await local.embed(["warm the model up"], "add");
  await run(
    { embedder: `local (${local.id})`, shape: "single add", file: "t3.db" },
    local,
    plan.localAdds,
    addOneByOne,
  );
  await run(
    { embedder: `local (${local.id})`, shape: `lists of ${LIST_SIZE}`, file: "t4.db" },
    local,
    plan.localAdds,
    addAsLists,
  );
  await local.close?.();
  return results;
}

async function measureEndToEnd(
  plan: { endToEndSize: number; queries: number },
  tempPath: (file: string) => string,
): Promise<EndToEnd> {
  const size = plan.endToEndSize;
  const corpus = generateCorpus({ count: size, extra: 0, users: USERS, seed: SEED + 2 });
  const local = createLocalEmbedder();
  const memory = await openMemory({ path: tempPath("end-to-end.db"), embedder: local });
  try {
    progress(`end to end: ${size} memories embedded by ${local.id}, lists of ${LIST_SIZE}`);
    const build = await addAsLists(memory, corpus, "scoped", { from: 0, to: size });
    const queries = makeQueries(corpus, createRandom(SEED + 3), plan.queries + WARM_UP, size);
    progress(`end to end: ${plan.queries} hybrid searches, each query embedded`);
    const search = (query: SyntheticQuery) =>
      memory.search(query.text, { filters: filtersOf("scoped", corpus.memories[query.target]?.user ?? 0) });
    for (const query of queries.slice(0, WARM_UP)) await search(query);
    const sampler = createSampler();
    for (const query of queries.slice(WARM_UP)) await sampler.run(() => search(query));
    return {
      size,
      embedder: local.id ?? "local",
      buildMs: build.ms,
      queries: plan.queries,
      hybrid: sampler.summary(),
    };
  } finally {
    await memory.close();
  }
}

function precomputed(vectors: ReadonlyMap<string, Float32Array>): Embedder {
  return createPrecomputedEmbedder({ id: EMBEDDER_ID, dimension: SYNTHETIC_DIMENSION, vectors });
}
