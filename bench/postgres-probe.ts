/**
 * Scoped and unscoped dense search on a PostgreSQL store the scale benchmark kept (`npm run
 * bench:postgres -- --keep`): `tsx bench/postgres-probe.ts lucid_bench_1000000 [--queries 200]`.
 * Queries are stored memories' vectors (and four words of their text, for keyword search), each
 * searched in its own user's scope (and, dense, unscoped), so a
 * change to the server (shared_buffers, a warm cache) can be measured without rebuilding the store.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { parseFilters } from "../src/filters/parse-filters.js";
import { openPostgresStore } from "../src/store/postgres/pg-store.js";
import { keywordTerms } from "../src/text/keywords.js";
import { memoryId } from "./postgres-load.js";
import { createRandom } from "./prng.js";
import { fixed, renderRunInfo, renderTable, runInfo } from "./report.js";
import { summarise } from "./stats.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { queries: { type: "string" } },
});
const schema = positionals[0] ?? "lucid_bench_1000000";
const queries = Number(values.queries ?? 200);
const url = process.env.LUCID_PG_URL ?? "";
const info = runInfo();
const store = await openPostgresStore({ url, schema });
const total = (await store.stats({ now: new Date().toISOString(), ttlDaysByCategory: {} })).total;
const random = createRandom(42);
const times = { scoped: [] as number[], unscoped: [] as number[], keyword: [] as number[] };
for (let i = 0; i < queries + 20; i++) {
  const id = memoryId(random.int(Math.min(total, 1_000_000)));
  const [row] = await store.getMemories([id]);
  const vector = (await store.getEmbeddings([id])).get(id);
  if (row === undefined || vector === undefined) continue;
  for (const mode of ["scoped", "unscoped"] as const) {
    const filter = parseFilters(mode === "scoped" ? { user_id: row.user_id } : {});
    const started = performance.now();
    await store.searchDense({ filter, vector, k: 20 });
    if (i >= 20) times[mode].push(performance.now() - started);
  }
  const started = performance.now();
  await store.searchKeyword({
    filter: parseFilters({ user_id: row.user_id }),
    terms: keywordTerms(row.text).slice(0, 4),
    k: 20,
  });
  if (i >= 20) times.keyword.push(performance.now() - started);
}
await store.close();
const scoped = summarise(times.scoped);
const unscoped = summarise(times.unscoped);
const keyword = summarise(times.keyword);
console.log(`${renderRunInfo(info)} · schema ${schema}, ${total} memories\n`);
console.log(
  renderTable(
    ["search", "queries", "p50 ms", "p95 ms"],
    [
      ["scoped dense", scoped.count, fixed(scoped.p50, 2), fixed(scoped.p95, 2)],
      ["unscoped dense", unscoped.count, fixed(unscoped.p50, 2), fixed(unscoped.p95, 2)],
      ["scoped keyword (4 terms of a memory)", keyword.count, fixed(keyword.p50, 2), fixed(keyword.p95, 2)],
    ],
  ),
);
