/**
 * Keyword ranking on PostgreSQL against SQLite's FTS5 BM25: `npm run bench:postgres-rank`, against
 * `LUCID_PG_URL`. The same memories go into a SQLite store and a PostgreSQL store through the store
 * port (LoCoMo's turns as conversations, so windows hold the neighbours; and the synthetic scale
 * corpus), and every query runs `searchKeyword` on both, scoped to its user, k 10.
 *
 * Method: per query, the two top-10 lists are compared — identical (same ids, same order), the same
 * first hit, overlap@10 (shared ids / 10), and Kendall's tau over the ids both lists hold. Scores
 * are compared too: the sum of |BM25 difference| over the shared ids, relative to the sum of SQLite's. Tokenisation differs in known
 * ways: Snowball English (Porter 2) stems a few words differently from FTS5's Porter, PostgreSQL
 * folds no diacritics, and keeps at most 256 positions per word.
 *
 * @module
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { parseFilters } from "../src/filters/parse-filters.js";
import type { NewMemory } from "../src/store/ports/memories.js";
import { openPostgresStore } from "../src/store/postgres/pg-store.js";
import { createSqliteStore } from "../src/store/sqlite/sqlite-store.js";
import type { MemoryStore } from "../src/store/store.js";
import { keywordTerms } from "../src/text/keywords.js";
import { loadLocomo } from "./locomo-data.js";
import { locomoPath } from "./paths.js";
import { createRandom } from "./prng.js";
import { fixed, renderRunInfo, renderTable, runInfo, writeResults } from "./report.js";
import { generateCorpus } from "./synthetic.js";

const K = 10;
const VECTOR = new Float32Array([1, 0, 0, 0]);

interface Corpus {
  readonly name: string;
  readonly memories: readonly NewMemory[];
  readonly queries: readonly { text: string; user: string }[];
}

function memoryOf(
  index: number,
  text: string,
  user: string,
  thread?: { id: string; position: number },
): NewMemory {
  return {
    id: `m${String(index).padStart(7, "0")}`,
    text,
    hash: `h${index}`,
    user_id: user,
    agent_id: null,
    app_id: null,
    run_id: null,
    category: null,
    metadata: {},
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    expiresAt: null,
    ...(thread === undefined ? {} : { thread: thread.id, threadPosition: thread.position }),
    embedding: VECTOR,
    entities: [],
  };
}

/**
 * LoCoMo's turns, in threads (each window holds its neighbours) or each on its own. In threads,
 * every insert rewrites its neighbours' windows, and SQLite's contentless FTS5 table never takes a
 * rewritten (deleted) row out of its row count or token total: its N grows with every version of a
 * window ever written (`bench/postgres-rank.ts` prints the evidence). PostgreSQL counts the rows
 * there are. Alone, nothing is rewritten and both statistics are exact.
 */
function locomoCorpus(threads: boolean): Corpus | null {
  const data = loadLocomo(locomoPath());
  if (data === null) return null;
  const positions = new Map<string, number>();
  const memories = data.turns.map((turn, index) => {
    const thread = `${turn.conversation}:${turn.session}`;
    const position = positions.get(thread) ?? 0;
    positions.set(thread, position + 1);
    return memoryOf(index, turn.text, turn.conversation, threads ? { id: thread, position } : undefined);
  });
  return {
    name: threads ? "LoCoMo (5 conversations, turns in threads)" : "LoCoMo (the same turns, no threads)",
    memories,
    queries: data.questions.map((q) => ({ text: q.question, user: q.conversation })),
  };
}

/**
 * The evidence for SQLite's drift: four memories, "apple" in two of them, so BM25's idf of "apple"
 * is ln(2.5 / 2.5) → clamped to 1e-6 and its score ~0. Rewriting the other two memories ten times
 * (as window refreshes do) leaves the rows as they were, yet the score rises: FTS5 counts every
 * version ever written.
 */
async function sqliteStatisticsDrift(): Promise<{ fresh: number; afterRewrites: number }> {
  const store = createSqliteStore({ path: ":memory:" });
  await store.bindEmbedder({ id: "rank-bench", dimension: VECTOR.length });
  const texts = ["apple pie", "apple tart", "banana bread", "banana cake"];
  for (const [i, text] of texts.entries()) await store.insertMemory(memoryOf(i, text, "u"));
  const search = { filter: parseFilters({ user_id: "u" }), terms: ["apple"], k: 1 };
  const fresh = (await store.searchKeyword(search))[0]?.bm25 ?? Number.NaN;
  for (let round = 0; round < 10; round++) {
    for (const i of [2, 3]) {
      const text = texts[i] as string;
      await store.updateMemory(memoryOf(i, text, "u").id, {
        text: `${text}.`,
        hash: `h${i}-${round}`,
        category: null,
        metadata: {},
        updatedAt: "2026-01-01T00:00:00.000Z",
        expiresAt: null,
      });
      await store.updateMemory(memoryOf(i, text, "u").id, {
        text,
        hash: `h${i}`,
        category: null,
        metadata: {},
        updatedAt: "2026-01-01T00:00:00.000Z",
        expiresAt: null,
      });
    }
  }
  const afterRewrites = (await store.searchKeyword(search))[0]?.bm25 ?? Number.NaN;
  await store.close();
  return { fresh, afterRewrites };
}

function syntheticCorpus(): Corpus {
  const corpus = generateCorpus({ count: 10_000, extra: 0, users: 100, seed: 7 });
  const random = createRandom(11);
  return {
    name: "synthetic (10,000 memories, 100 users)",
    memories: corpus.memories.map((memory, index) => memoryOf(index, memory.text, `user-${memory.user}`)),
    queries: Array.from({ length: 1000 }, () => {
      const query = corpus.query(random, 10_000);
      return { text: query.text, user: `user-${corpus.memories[query.target]?.user ?? 0}` };
    }),
  };
}

async function fill(store: MemoryStore, memories: readonly NewMemory[]): Promise<void> {
  await store.bindEmbedder({ id: "rank-bench", dimension: VECTOR.length });
  for (let from = 0; from < memories.length; from += 500) {
    await store.transaction(async (tx) => {
      for (const memory of memories.slice(from, from + 500)) await tx.insertMemory(memory);
    });
  }
}

/** Kendall's tau-a over the ids both rankings hold (1: same order; NaN when fewer than two). */
function kendall(a: readonly string[], b: readonly string[]): number {
  const shared = a.filter((id) => b.includes(id));
  if (shared.length < 2) return Number.NaN;
  let concordant = 0;
  let pairs = 0;
  for (let i = 0; i < shared.length; i++) {
    for (let j = i + 1; j < shared.length; j++) {
      pairs++;
      if (b.indexOf(shared[i] as string) < b.indexOf(shared[j] as string)) concordant++;
    }
  }
  return (2 * concordant - pairs) / pairs;
}

async function compare(corpus: Corpus, url: string) {
  const dir = mkdtempSync(join(tmpdir(), "lucid-rank-"));
  const schema = "lucid_bench_rank";
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop schema if exists ${schema} cascade`);
  const sqlite = createSqliteStore({ path: join(dir, "rank.db") });
  const postgres = await openPostgresStore({ url, schema });
  try {
    await fill(sqlite, corpus.memories);
    await fill(postgres, corpus.memories);
    let asked = 0;
    let identical = 0;
    let sameFirst = 0;
    let overlap = 0;
    let taus = 0;
    let tauCount = 0;
    let scoreDiff = 0;
    let scored = 0;
    for (const query of corpus.queries) {
      const terms = keywordTerms(query.text);
      if (terms.length === 0) continue;
      const search = { filter: parseFilters({ user_id: query.user }), terms, k: K };
      const [a, b] = await Promise.all([sqlite.searchKeyword(search), postgres.searchKeyword(search)]);
      if (a.length === 0 && b.length === 0) continue;
      asked++;
      const ids = [a.map((hit) => hit.id), b.map((hit) => hit.id)] as const;
      if (ids[0].join() === ids[1].join()) identical++;
      if (ids[0][0] === ids[1][0]) sameFirst++;
      overlap += ids[0].filter((id) => ids[1].includes(id)).length / Math.max(ids[0].length, ids[1].length);
      const tau = kendall(ids[0], ids[1]);
      if (!Number.isNaN(tau)) {
        taus += tau;
        tauCount++;
      }
      for (const hit of a) {
        const other = b.find((candidate) => candidate.id === hit.id);
        if (other === undefined) continue;
        scoreDiff += Math.abs(other.bm25 - hit.bm25);
        scored += Math.abs(hit.bm25);
      }
    }
    return {
      corpus: corpus.name,
      memories: corpus.memories.length,
      queries: asked,
      identical: identical / asked,
      sameFirst: sameFirst / asked,
      overlap: overlap / asked,
      kendall: taus / tauCount,
      scoreDifference: scoreDiff / scored,
    };
  } finally {
    await sqlite.close();
    await postgres.close();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const url = process.env.LUCID_PG_URL;
  if (url === undefined || url === "") {
    console.error(
      "bench:postgres-rank needs LUCID_PG_URL (a server with pgvector; .ci/postgres.sh starts one).",
    );
    process.exit(1);
  }
  const info = runInfo();
  const corpora = [locomoCorpus(true), locomoCorpus(false), syntheticCorpus()].filter(
    (corpus): corpus is Corpus => corpus !== null,
  );
  const drift = await sqliteStatisticsDrift();
  if (corpora.length === 1)
    process.stderr.write("postgres-rank: LoCoMo is absent; the synthetic corpus only\n");
  const results = [];
  for (const corpus of corpora) {
    process.stderr.write(`postgres-rank: ${corpus.name}\n`);
    results.push(await compare(corpus, url));
  }
  console.log(
    `\n## PostgreSQL keyword ranking against SQLite FTS5 (top ${K}, scoped)\n${renderRunInfo(info)}\n`,
  );
  console.log(
    renderTable(
      [
        "corpus",
        "memories",
        "queries",
        "identical top 10",
        "same first hit",
        "overlap@10",
        "Kendall tau",
        "BM25 relative difference",
      ],
      results.map((r) => [
        r.corpus,
        r.memories,
        r.queries,
        fixed(r.identical, 3),
        fixed(r.sameFirst, 3),
        fixed(r.overlap, 3),
        fixed(r.kendall, 3),
        fixed(r.scoreDifference, 4),
      ]),
    ),
  );
  console.log(
    `\nSQLite's FTS5 statistics after rewrites: "apple" in 2 of 4 rows scores ${drift.fresh.toFixed(6)} fresh, ${drift.afterRewrites.toFixed(4)} after the other two rows were rewritten 20 times each (the rows are the same).`,
  );
  console.log(`\nresults: ${writeResults("postgres-rank", info, { results, drift })}`);
}

await main();
