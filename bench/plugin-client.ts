/**
 * What a host plugin pays for reaching Lucid through a `lucid mcp` child (integrations/shared/
 * lucid-process.ts) instead of loading the store in the host's own runtime: the first call (spawn,
 * MCP handshake, opening the store, loading the sentence model) and then each recall and capture
 * on a warm process, over a home of 200 memories. Runs the built CLI (`npm run build` first).
 *
 * @module
 */

import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startLucid } from "../integrations/shared/lucid-process.js";
import { createTempDir, REPO_ROOT } from "./paths.js";
import { renderRunInfo, renderTable, runInfo } from "./report.js";
import { summarise } from "./stats.js";

const BIN = join(REPO_ROOT, "bin", "lucid.js");
const COLD_RUNS = 5;
const WARM_CALLS = 50;
const TOPICS = ["coffee", "the deploy", "Sam", "the Lisbon trip", "tabs", "the database", "lunch", "Rust"];

if (!existsSync(join(REPO_ROOT, "dist", "cli", "main.js"))) {
  console.error("bench:plugin needs the built CLI: run `npm run build` first.");
  process.exit(2);
}

const info = runInfo();
const home = createTempDir("lucid-bench-plugin-");
const jsonl = Array.from({ length: 200 }, (_, index) => {
  const topic = TOPICS[index % TOPICS.length] as string;
  return JSON.stringify({
    memory: `Note ${index} about ${topic}: detail number ${index}.`,
    user_id: "alice",
  });
}).join("\n");
writeFileSync(home.path("seed.jsonl"), `${jsonl}\n`);
execFileSync(process.execPath, [BIN, "import", home.path("seed.jsonl"), "--home", home.path("lucid")], {
  stdio: "ignore",
});

const spawnLucid = () =>
  startLucid({ command: [process.execPath, BIN], args: ["--home", home.path("lucid"), "--user", "alice"] });

const firstCalls: number[] = [];
for (let run = 0; run < COLD_RUNS; run++) {
  const lucid = spawnLucid();
  const started = performance.now();
  await lucid.call("memory_recall", { query: "how do I take my coffee" });
  firstCalls.push(performance.now() - started);
  lucid.close();
}

const lucid = spawnLucid();
await lucid.call("memory_recall", { query: "warm up" });
const recalls: number[] = [];
const captures: number[] = [];
for (let call = 0; call < WARM_CALLS; call++) {
  const topic = TOPICS[call % TOPICS.length] as string;
  let started = performance.now();
  await lucid.call("memory_recall", { query: `what do I know about ${topic}, round ${call}?` });
  recalls.push(performance.now() - started);
  started = performance.now();
  await lucid.call("memory_capture", {
    messages: [
      { role: "user", content: `I decided that ${topic} review number ${call} happens on Mondays.` },
      { role: "assistant", content: "Noted." },
    ],
  });
  captures.push(performance.now() - started);
}
lucid.close();
home.remove();

const row = (label: string, samples: number[]) => {
  const summary = summarise(samples);
  return [label, summary.count, Math.round(summary.p50), Math.round(summary.p95), Math.round(summary.max)];
};
console.log("## Host plugins: the Lucid child process\n");
console.log(renderRunInfo(info));
console.log("");
console.log(
  renderTable(
    ["call", "n", "p50 ms", "p95 ms", "max ms"],
    [
      row("first call (spawn, handshake, store, model) + recall", firstCalls),
      row("memory_recall, warm", recalls),
      row("memory_capture (triage, no LLM), warm", captures),
    ],
  ),
);
