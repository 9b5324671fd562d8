/**
 * Many writers on one PostgreSQL store: `npm run bench:postgres-writers -- [--processes 8]
 * [--adds 5000]`, against `LUCID_PG_URL`.
 *
 * 1. N processes each add M memories to one scope through the SDK, all at once; then the counts:
 *    memories, ADD history rows, distinct ids, and the keyword statistics' document count (kept by
 *    a trigger in shards) must all be N × M, with no failed add.
 * 2. Two processes plan a dream of the same scope (2,000 expired memories: 2,000 deletes) and are
 *    told to apply at the same moment: exactly one run may apply, and every memory is deleted once.
 *
 * @module
 */

import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { type DreamPlan, openMemory } from "../src/index.js";
import { hashEmbedder } from "./hash-embedder.js";
import { renderRunInfo, renderTable, runInfo, writeResults } from "./report.js";

const DREAM_MEMORIES = 2000;
const self = fileURLToPath(import.meta.url);

const progress = (message: string) => process.stderr.write(`postgres-writers: ${message}\n`);

function storeOf(url: string, schema: string) {
  return { provider: "postgres" as const, url, schema };
}

/** A child's message: ready, or its report. */
type Message = { kind: "ready" } | { kind: "done"; report: unknown };

async function writer(url: string, schema: string, index: number, adds: number): Promise<void> {
  const memory = await openMemory({ store: storeOf(url, schema), embedder: hashEmbedder });
  process.send?.({ kind: "ready" } satisfies Message);
  await new Promise((resolve) => process.once("message", resolve));
  const failures: Record<string, number> = {};
  const started = performance.now();
  for (let n = 0; n < adds; n++) {
    try {
      await memory.add(
        `Writer ${index} recorded note ${n}: the build on host ${index} took ${n % 97} minutes`,
        {
          userId: "team",
        },
      );
    } catch (error) {
      const code = (error as { code?: string }).code ?? String(error);
      failures[code] = (failures[code] ?? 0) + 1;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  await memory.close();
  process.send?.({ kind: "done", report: { index, seconds, failures } } satisfies Message);
}

async function dreamer(url: string, schema: string, index: number): Promise<void> {
  const memory = await openMemory({ store: storeOf(url, schema), embedder: hashEmbedder });
  const plan: DreamPlan = await memory.dream.plan({ userId: "alice" }, { now: "2026-11-30T00:00:00Z" });
  process.send?.({ kind: "ready" } satisfies Message);
  await new Promise((resolve) => process.once("message", resolve));
  let report: unknown;
  try {
    const result = await memory.dream.apply(plan);
    const applied = result.actions.filter((action) => action.status === "applied").length;
    report = { index, planned: plan.actions.length, applied, runId: result.runId ?? null, error: null };
  } catch (error) {
    report = {
      index,
      planned: plan.actions.length,
      applied: 0,
      error: (error as { code?: string }).code ?? String(error),
    };
  }
  await memory.close();
  process.send?.({ kind: "done", report } satisfies Message);
}

/** Forks `count` children with `args`, waits until all are ready, starts them together, collects reports. */
async function together(count: number, args: (i: number) => string[]): Promise<unknown[]> {
  const children = Array.from({ length: count }, (_, i) =>
    fork(self, args(i), { execArgv: process.execArgv }),
  );
  const ready = children.map(
    (child) => new Promise<void>((resolve) => child.once("message", () => resolve())),
  );
  await Promise.all(ready);
  const reports = children.map(
    (child) =>
      new Promise<unknown>((resolve, reject) => {
        child.on("message", (message: Message) => {
          if (message.kind === "done") resolve(message.report);
        });
        child.once("exit", (code) =>
          code === 0 ? undefined : reject(new Error(`child exited with ${code}`)),
        );
      }),
  );
  for (const child of children) child.send("go");
  return Promise.all(reports);
}

async function count(client: pg.Client, sql: string): Promise<number> {
  return Number((await client.query<{ n: string }>(sql)).rows[0]?.n ?? Number.NaN);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { processes: { type: "string" }, adds: { type: "string" } } });
  const url = process.env.LUCID_PG_URL;
  if (url === undefined || url === "") {
    console.error(
      "bench:postgres-writers needs LUCID_PG_URL (a server with pgvector; .ci/postgres.sh starts one).",
    );
    process.exit(1);
  }
  const processes = Number(values.processes ?? 8);
  const adds = Number(values.adds ?? 5000);
  const info = runInfo();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();

  const writersSchema = "lucid_bench_writers";
  await admin.query(`drop schema if exists ${writersSchema} cascade`);
  await (await openMemory({ store: storeOf(url, writersSchema), embedder: hashEmbedder })).close();
  progress(`${processes} processes × ${adds} adds`);
  const started = performance.now();
  const writerReports = (await together(processes, (i) => [
    "writer",
    url,
    writersSchema,
    String(i),
    String(adds),
  ])) as {
    index: number;
    seconds: number;
    failures: Record<string, number>;
  }[];
  const wallSeconds = (performance.now() - started) / 1000;
  const s = writersSchema;
  const counts = {
    memories: await count(admin, `select count(*) as n from ${s}.memories`),
    distinctIds: await count(admin, `select count(distinct id) as n from ${s}.memories`),
    addHistory: await count(admin, `select count(*) as n from ${s}.history where action = 'ADD'`),
    keywordDocuments: await count(admin, `select sum(documents) as n from ${s}.keyword_totals`),
  };
  const failed = writerReports.reduce(
    (sum, r) => sum + Object.values(r.failures).reduce((a, b) => a + b, 0),
    0,
  );
  const expected = processes * adds;

  const dreamSchema = "lucid_bench_dreamers";
  await admin.query(`drop schema if exists ${dreamSchema} cascade`);
  const seed = await openMemory({ store: storeOf(url, dreamSchema), embedder: hashEmbedder });
  await seed.importMemories(
    Array.from({ length: DREAM_MEMORIES }, (_, i) => ({
      text: `Alice was travelling to city ${i} in week ${i % 52}`,
      user_id: "alice",
      createdAt: "2026-01-01T00:00:00Z",
      expiresAt: "2026-02-01T00:00:00Z",
    })),
    { batchSize: 1000 },
  );
  await seed.close();
  progress("two dreamers on one scope");
  const dreamReports = (await together(2, (i) => ["dreamer", url, dreamSchema, String(i)])) as {
    index: number;
    planned: number;
    applied: number;
    error: string | null;
  }[];
  const remaining = await count(admin, `select count(*) as n from ${dreamSchema}.memories`);
  const runs = await count(admin, `select count(*) as n from ${dreamSchema}.runs`);
  const deletes = await count(
    admin,
    `select count(*) as n from ${dreamSchema}.history where action = 'DELETE'`,
  );
  await admin.query(`drop schema if exists ${writersSchema} cascade`);
  await admin.query(`drop schema if exists ${dreamSchema} cascade`);
  await admin.end();

  const appliedRuns = dreamReports.filter((r) => r.applied > 0).length;
  console.log(`\n## PostgreSQL: many writers\n${renderRunInfo(info)}\n`);
  console.log(
    renderTable(
      [
        "processes × adds",
        "wall s",
        "adds/s (all)",
        "failed adds",
        "memories",
        "distinct ids",
        "ADD history",
        "keyword documents",
        "lost",
      ],
      [
        [
          `${processes} × ${adds}`,
          Number(wallSeconds.toFixed(1)),
          Math.round(expected / wallSeconds),
          failed,
          counts.memories,
          counts.distinctIds,
          counts.addHistory,
          counts.keywordDocuments,
          expected - counts.memories,
        ],
      ],
    ),
  );
  console.log("");
  console.log(
    renderTable(
      ["dreamer", "planned", "applied", "error"],
      dreamReports.map((r) => [`process ${r.index}`, r.planned, r.applied, r.error ?? "-"]),
    ),
  );
  console.log(
    `\nruns recorded: ${runs}; runs that applied: ${appliedRuns}; memories left: ${remaining} of ${DREAM_MEMORIES}; DELETE history rows: ${deletes}`,
  );
  const verdict =
    failed === 0 &&
    Object.values(counts).every((n) => n === expected) &&
    appliedRuns === 1 &&
    runs === 1 &&
    remaining === 0 &&
    deletes === DREAM_MEMORIES;
  console.log(`verdict: ${verdict ? "PASS (zero lost writes; exactly one dream applied)" : "MISS"}`);
  console.log(
    `\nresults: ${writeResults("postgres-writers", info, { processes, adds, wallSeconds, writerReports, counts, dreamReports, runs, remaining, deletes, verdict })}`,
  );
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === "writer") await writer(rest[0] as string, rest[1] as string, Number(rest[2]), Number(rest[3]));
else if (mode === "dreamer") await dreamer(rest[0] as string, rest[1] as string, Number(rest[2]));
else await main();
