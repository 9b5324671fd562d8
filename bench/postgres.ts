/**
 * PostgreSQL + pgvector at scale: `npm run bench:postgres -- [--sizes 10000,100000,1000000]
 * [--queries 200] [--backends postgres,sqlite] [--keep]`, against the server `LUCID_PG_URL` names (the
 * benchmark makes and drops a schema `lucid_bench_<size>` per size); `sqlite` adds the same
 * measurements on a SQLite store of the same corpus, for the comparison.
 *
 * Per size: the synthetic corpus of the SQLite scale benchmark (512-d, 1,000 memories per user from
 * 100k up, 100 users below), bulk-loaded (`postgres-load.ts`), then through the store port and the
 * SDK: add throughput (single store inserts and SDK adds into the built store, HNSW index present),
 * scoped and unscoped dense search with recall@20 against brute force, scoped keyword search, and
 * scoped hybrid search (the SDK's `search`, query vectors precomputed: engine only).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { parseFilters } from "../src/filters/parse-filters.js";
import { openMemory } from "../src/index.js";
import { keywordTerms } from "../src/text/keywords.js";
import { BACKENDS, type BackendName, buildStore } from "./postgres-backends.js";
import { type LoadTimings, userId } from "./postgres-load.js";
import { newMemoryRow } from "./postgres-rows.js";
import { createPrecomputedEmbedder } from "./precomputed-embedder.js";
import { createRandom } from "./prng.js";
import {
  fixed,
  type Goal,
  renderGoals,
  renderRunInfo,
  renderTable,
  runInfo,
  writeResults,
} from "./report.js";
import { type LatencySummary, summarise } from "./stats.js";
import { generateCorpus, SYNTHETIC_DIMENSION, type SyntheticCorpus } from "./synthetic.js";

const SEED = 20_261_202;
const EMBEDDER_ID = "synthetic-vectors@1";
const K = 20;
const WARM_UP = 20;
const STORE_ADDS = 1000;
const SDK_ADDS = 500;

const progress = (message: string) => process.stderr.write(`postgres: ${message}\n`);

interface SizeResult {
  readonly backend: BackendName;
  readonly size: number;
  readonly users: number;
  readonly load: LoadTimings;
  readonly storeAdds: { perSecond: number; latency: LatencySummary };
  readonly sdkAdds: { perSecond: number; latency: LatencySummary };
  readonly scopedDense: LatencySummary;
  readonly scopedRecall: number;
  readonly unscopedDense: LatencySummary;
  readonly unscopedRecall: number;
  readonly scopedKeyword: LatencySummary;
  readonly scopedHybrid: LatencySummary;
  readonly tableMb: number;
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
  return dot;
}

/** The ids of the k memories in [from, to) nearest `query`, by exact cosine. */
function bruteForce(corpus: SyntheticCorpus, query: Float32Array, from: number, to: number): Set<string> {
  const scored: { index: number; similarity: number }[] = [];
  for (let index = from; index < to; index++) {
    const memory = corpus.memories[index];
    if (memory === undefined) continue;
    scored.push({ index, similarity: cosine(query, corpus.vectors.get(memory.text) as Float32Array) });
  }
  scored.sort((a, b) => b.similarity - a.similarity);
  return new Set(scored.slice(0, K).map((entry) => `mem-${String(entry.index).padStart(8, "0")}`));
}

async function timeCalls(count: number, call: (i: number) => Promise<unknown>): Promise<LatencySummary> {
  const samples: number[] = [];
  for (let i = 0; i < count + WARM_UP; i++) {
    const started = performance.now();
    await call(i);
    if (i >= WARM_UP) samples.push(performance.now() - started);
  }
  return summarise(samples);
}

async function runSize(
  backend: BackendName,
  size: number,
  queries: number,
  keep: boolean,
): Promise<SizeResult> {
  const users = Math.max(100, Math.round(size / 1000));
  const perUser = size / users;
  progress(`${backend} ${size}: generating (${users} users of ${perUser})`);
  const corpus = generateCorpus({ count: size, extra: STORE_ADDS + SDK_ADDS, users, seed: SEED });
  progress(`${backend} ${size}: loading`);
  const built = await buildStore(backend, corpus, size, EMBEDDER_ID, progress);
  const { store, load } = built;
  progress(
    `${backend} ${size}: loaded in ${load.rowsSeconds.toFixed(1)} s, index ${load.indexSeconds.toFixed(1)} s`,
  );

  const random = createRandom(SEED + size);
  const asked = Array.from({ length: queries + WARM_UP }, () => corpus.query(random, size));
  const vectorOf = (text: string) => corpus.vectors.get(text) as Float32Array;
  const userOf = (target: number) => corpus.memories[target]?.user ?? 0;

  progress(`${backend} ${size}: scoped dense`);
  const scopedHits: string[][] = [];
  const scopedDense = await timeCalls(queries, async (i) => {
    const query = asked[i % asked.length] as (typeof asked)[number];
    const hits = await store.searchDense({
      filter: parseFilters({ user_id: userId(userOf(query.target)) }),
      vector: vectorOf(query.text),
      k: K,
    });
    scopedHits[i] = hits.map((hit) => hit.id);
  });
  const scopedRecall = recallOf(asked, scopedHits, (query) => {
    const user = userOf(query.target);
    return bruteForce(corpus, vectorOf(query.text), user * perUser, (user + 1) * perUser);
  });

  progress(`${backend} ${size}: unscoped dense`);
  const unscopedHits: string[][] = [];
  const unscopedDense = await timeCalls(queries, async (i) => {
    const query = asked[i % asked.length] as (typeof asked)[number];
    const hits = await store.searchDense({ filter: parseFilters({}), vector: vectorOf(query.text), k: K });
    unscopedHits[i] = hits.map((hit) => hit.id);
  });
  // Brute force over every memory is slow in JavaScript at 1M: 50 queries are enough for a recall.
  const unscopedRecall = recallOf(asked.slice(0, WARM_UP + 50), unscopedHits, (query) =>
    bruteForce(corpus, vectorOf(query.text), 0, size),
  );

  progress(`${backend} ${size}: scoped keyword`);
  const scopedKeyword = await timeCalls(queries, async (i) => {
    const query = asked[i % asked.length] as (typeof asked)[number];
    await store.searchKeyword({
      filter: parseFilters({ user_id: userId(userOf(query.target)) }),
      terms: keywordTerms(query.text),
      k: K,
    });
  });

  const embedder = createPrecomputedEmbedder({
    id: EMBEDDER_ID,
    dimension: SYNTHETIC_DIMENSION,
    vectors: corpus.vectors,
  });
  const memory = await openMemory({ store, embedder });
  progress(`${backend} ${size}: scoped hybrid`);
  const scopedHybrid = await timeCalls(queries, async (i) => {
    const query = asked[i % asked.length] as (typeof asked)[number];
    await memory.search(query.text, { filters: { user_id: userId(userOf(query.target)) }, topK: K });
  });

  progress(`${backend} ${size}: adds`);
  const storeAddsStarted = performance.now();
  const storeLatency = await timeCalls(STORE_ADDS - WARM_UP, async (i) => {
    const index = size + i;
    await store.insertMemory(newMemoryRow(corpus, index));
  });
  const storeAdds = {
    perSecond: STORE_ADDS / ((performance.now() - storeAddsStarted) / 1000),
    latency: storeLatency,
  };
  const sdkStarted = performance.now();
  const sdkLatency = await timeCalls(SDK_ADDS - WARM_UP, async (i) => {
    const extra = corpus.memories[size + STORE_ADDS + i];
    if (extra === undefined) throw new Error("corpus too short");
    await memory.add(extra.text, { userId: userId(extra.user) });
  });
  const sdkAdds = { perSecond: SDK_ADDS / ((performance.now() - sdkStarted) / 1000), latency: sdkLatency };

  const bytes = await built.size();
  await memory.close();
  // --keep leaves the store for a look afterwards (EXPLAIN ANALYZE of its queries).
  if (keep) {
    await built.release();
    progress(`${backend} ${size}: kept`);
  } else await built.dispose();
  return {
    backend,
    size,
    users,
    load,
    storeAdds,
    sdkAdds,
    scopedDense,
    scopedRecall,
    unscopedDense,
    unscopedRecall,
    scopedKeyword,
    scopedHybrid,
    tableMb: bytes / 1e6,
  };
}

/** Mean recall@K of the measured queries (the warm-up ones are not timed, nor scored). */
function recallOf<Q>(
  asked: readonly Q[],
  hits: readonly string[][],
  truth: (query: Q) => Set<string>,
): number {
  let total = 0;
  let count = 0;
  for (let i = WARM_UP; i < asked.length && i < hits.length; i++) {
    const expected = truth(asked[i] as Q);
    const found = hits[i] ?? [];
    total += found.filter((id) => expected.has(id)).length / expected.size;
    count++;
  }
  return count === 0 ? Number.NaN : total / count;
}

function render(results: readonly SizeResult[]): { text: string; goals: Goal[] } {
  const ms = (summary: LatencySummary) => [fixed(summary.p50, 2), fixed(summary.p95, 2)];
  const text = [
    "Load (bulk, SQL; then the keyword statistics and the HNSW index, m 16, ef_construction 64)",
    "",
    renderTable(
      ["backend", "memories", "users", "rows s", "rows/s", "statistics s", "HNSW build s", "MB on disk"],
      results.map((r) => [
        r.backend,
        r.size,
        r.users,
        fixed(r.load.rowsSeconds, 1),
        Math.round(r.size / r.load.rowsSeconds),
        fixed(r.load.statsSeconds, 1),
        fixed(r.load.indexSeconds, 1),
        fixed(r.tableMb, 0),
      ]),
    ),
    "",
    `Adds into the built store (HNSW present): ${STORE_ADDS} store inserts (each its own transaction), ${SDK_ADDS} SDK adds (vectors precomputed)`,
    "",
    renderTable(
      [
        "backend",
        "memories",
        "store insert/s",
        "insert p50 ms",
        "insert p95 ms",
        "SDK add/s",
        "add p50 ms",
        "add p95 ms",
      ],
      results.map((r) => [
        r.backend,
        r.size,
        Math.round(r.storeAdds.perSecond),
        ...ms(r.storeAdds.latency),
        Math.round(r.sdkAdds.perSecond),
        ...ms(r.sdkAdds.latency),
      ]),
    ),
    "",
    `Search (k ${K}; recall@${K} against brute force over the same memories)`,
    "",
    renderTable(
      [
        "backend",
        "memories",
        "scoped dense p50 ms",
        "p95",
        "scoped recall",
        "unscoped dense p50 ms",
        "p95",
        "unscoped recall",
        "scoped keyword p50 ms",
        "p95",
        "scoped hybrid p50 ms",
        "p95",
      ],
      results.map((r) => [
        r.backend,
        r.size,
        ...ms(r.scopedDense),
        fixed(r.scopedRecall, 4),
        ...ms(r.unscopedDense),
        fixed(r.unscopedRecall, 4),
        ...ms(r.scopedKeyword),
        ...ms(r.scopedHybrid),
      ]),
    ),
  ].join("\n");
  const postgres = results.filter((r) => r.backend === "postgres");
  const largest = postgres.at(-1);
  const goals: Goal[] =
    largest === undefined
      ? []
      : [
          {
            name: `PostgreSQL scoped dense search p50 at ${largest.size} (engine-only, loopback)`,
            target: "≤ 5 ms",
            actual: `${fixed(largest.scopedDense.p50, 2)} ms`,
            pass: largest.scopedDense.p50 <= 5,
          },
          {
            name: `PostgreSQL scoped exact search recall@${K} at every size`,
            target: "1.0",
            actual: postgres.map((r) => fixed(r.scopedRecall, 4)).join(" / "),
            pass: postgres.every((r) => r.scopedRecall === 1),
          },
        ];
  return { text: `${text}\n\nGoals\n\n${renderGoals(goals)}`, goals };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: "string" },
      queries: { type: "string" },
      backends: { type: "string" },
      keep: { type: "boolean", default: false },
    },
  });
  const backends = (values.backends ?? "postgres").split(",") as BackendName[];
  if (backends.some((backend) => !BACKENDS.includes(backend))) {
    console.error(`--backends takes a list of ${BACKENDS.join(", ")}`);
    process.exit(1);
  }
  const url = process.env.LUCID_PG_URL;
  if (backends.includes("postgres") && (url === undefined || url === "")) {
    console.error("bench:postgres needs LUCID_PG_URL (a server with pgvector; .ci/postgres.sh starts one).");
    process.exit(1);
  }
  const sizes = (values.sizes ?? "10000,100000").split(",").map(Number);
  const queries = Number(values.queries ?? 200);
  const info = runInfo();
  const results: SizeResult[] = [];
  for (const size of sizes)
    for (const backend of backends) results.push(await runSize(backend, size, queries, values.keep === true));
  const report = render(results);
  console.log(
    `\n## PostgreSQL (engine-only, synthetic ${SYNTHETIC_DIMENSION}-d vectors)\n${renderRunInfo(info)}\n`,
  );
  console.log(report.text);
  console.log(
    `\nresults: ${writeResults(`postgres-${backends.join("-")}`, info, { sizes, queries, results, goals: report.goals })}`,
  );
}

await main();
