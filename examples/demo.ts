/**
 * `npm run demo`: builds a store from examples/sample-memories.json (two users' memories), runs a
 * few searches and prints the ranked results with their scores. Offline; a fresh temporary store
 * each run.
 */

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FUSION_WEIGHTS, openMemory } from "../src/index.js";

interface Sample {
  memories: { user: string; text: string; category: string }[];
  searches: { user: string; query: string }[];
}

const sample = JSON.parse(readFileSync(new URL("./sample-memories.json", import.meta.url), "utf8")) as Sample;
const dir = mkdtempSync(join(tmpdir(), "lucid-demo-"));
const path = join(dir, "demo.db");

const memory = await openMemory({ path });
try {
  const started = performance.now();
  for (const { user, text, category } of sample.memories) {
    await memory.add(text, { userId: user, category, metadata: { source: "demo" } });
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`Lucid demo: ${sample.memories.length} memories of 2 users stored in ${seconds} s`);
  console.log(`store: ${path} (SQLite + local embedder, offline)\n`);

  for (const { user, query } of sample.searches) {
    const { results } = await memory.search(query, { filters: { user_id: user }, topK: 3 });
    console.log(`${user} › ${query}`);
    for (const result of results) {
      const score = (result.score ?? 0).toFixed(2);
      console.log(`  ${score}  ${result.memory.padEnd(64)} [${String(result.metadata.category)}]`);
    }
    console.log("");
  }

  const { results } = await memory.search("Who manages Alice?", {
    filters: { user_id: "alice", category: { in: ["relationship", "identity"] } },
    topK: 1,
    explain: true,
  });
  const top = results[0];
  if (top?.score_details !== undefined) {
    const details = top.score_details;
    console.log("alice › Who manages Alice?  (filters: category in [relationship, identity], explain)");
    console.log(`  ${(top.score ?? 0).toFixed(2)}  ${top.memory}`);
    console.log(
      // Each signal times its weight (FUSION_WEIGHTS) adds up to the raw score.
      `        semantic ${details.semanticScore.toFixed(2)}×${FUSION_WEIGHTS.semantic}` +
        ` + keyword ${details.bm25Score.toFixed(2)}×${FUSION_WEIGHTS.bm25}` +
        ` + entity ${details.entityBoost.toFixed(2)}×${FUSION_WEIGHTS.entity}` +
        ` = ${details.rawScore.toFixed(2)} / ${details.maxPossibleScore} (matched by ${details.matchedBy.join(", ")})`,
    );
  }
} finally {
  await memory.close();
  rmSync(dir, { recursive: true, force: true });
}
