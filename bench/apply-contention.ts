/**
 * A large dream apply against a second writer: `npm run bench:contention`. A store of 13,000
 * expired memories (13,000 delete actions) is planned and applied in this process while another
 * process adds a memory every 50 ms. Reported: how long the apply holds the write lock, the second
 * writer's slowest add, and whether any add failed (STORE_BUSY after the 5 s busy timeout).
 *
 * @module
 */

import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openMemory } from "../src/index.js";
import { hashEmbedder } from "./hash-embedder.js";

const MEMORIES = Number(process.env.CONTENTION_MEMORIES ?? 13_000);
const ADD_EVERY_MS = 50;

interface WriterReport {
  readonly adds: number;
  readonly failures: readonly string[];
  readonly slowestMs: number;
}

/** The second writer: adds until told to stop, then reports. */
async function secondWriter(path: string): Promise<void> {
  const memory = await openMemory({ path, embedder: hashEmbedder });
  let stop = false;
  process.on("message", () => {
    stop = true;
  });
  const failures: string[] = [];
  let adds = 0;
  let slowestMs = 0;
  process.send?.("ready");
  while (!stop) {
    const started = performance.now();
    try {
      await memory.add(`Bob note number ${adds}`, { userId: "bob" });
    } catch (error) {
      failures.push((error as { code?: string }).code ?? String(error));
    }
    slowestMs = Math.max(slowestMs, performance.now() - started);
    adds++;
    await new Promise((resolve) => setTimeout(resolve, ADD_EVERY_MS));
  }
  await memory.close();
  process.send?.({ adds, failures, slowestMs: Math.round(slowestMs) } satisfies WriterReport);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "lucid-contention-"));
  const path = join(dir, "lucid.db");
  try {
    const memory = await openMemory({ path, embedder: hashEmbedder });
    const records = Array.from({ length: MEMORIES }, (_, i) => ({
      text: `Alice was travelling to city ${i} in week ${i % 52}`,
      user_id: "alice",
      createdAt: "2026-01-01T00:00:00Z",
      expiresAt: "2026-02-01T00:00:00Z",
    }));
    await memory.importMemories(records, { batchSize: 1000 });
    const plan = await memory.dream.plan({ userId: "alice" }, { now: "2026-11-30T00:00:00Z" });

    const writer = fork(fileURLToPath(import.meta.url), ["writer", path], { execArgv: process.execArgv });
    await new Promise((resolve) => writer.once("message", resolve));
    await new Promise((resolve) => setTimeout(resolve, 500)); // the writer at its pace first
    const started = performance.now();
    const result = await memory.dream.apply(plan);
    const applyMs = Math.round(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const report = new Promise<WriterReport>((resolve) => writer.once("message", resolve as never));
    writer.send("stop");
    const second = await report;
    await memory.close();
    console.log(
      JSON.stringify({
        memories: MEMORIES,
        actions: plan.actions.length,
        applied: result.actions.filter((action) => action.status === "applied").length,
        applyMs,
        secondWriter: second,
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "writer") await secondWriter(process.argv[3] as string);
else await main();
