/**
 * Where the dream analysers lose a labelled pair: `npx tsx bench/dream-diagnose.ts <pairs.json>
 * [--embedder use-lite|minilm]`. For each expected merge pair, conflict and near-miss pair of a
 * pairs-format corpus it prints the cosine, whether the vector index returns it as a neighbour,
 * the lexical overlap, the comparison's refusals and what the plan did with it. Meant for a
 * development corpus (test/fixtures/dream-dev/), never the independent one: reading that one's
 * misses would be tuning on it.
 *
 * @module
 */

import { readFileSync } from "node:fs";
import { scopeFromOptions } from "../src/core/scope.js";
import { comparePair, lexicalOverlap } from "../src/dream/analyse/similarity/compare.js";
import { snapshotFeatures, snapshotTermWeights } from "../src/dream/analyse/similarity/features.js";
import { loadSnapshot } from "../src/dream/load-snapshot.js";
import { openMemory } from "../src/index.js";
import { resolvePolicy } from "../src/policy/resolve-policy.js";
import { qualityEmbedder } from "./dream-quality.js";

interface PairsScope {
  user_id: string;
  memories: { key: string; text: string; category?: string; createdAt: string }[];
  expect: { merges: string[][]; conflicts: string[][]; none: string[] };
}

const file = process.argv[2];
if (file === undefined) throw new Error("usage: dream-diagnose.ts <pairs.json> [--embedder name]");
if (file.includes("dream-independent")) throw new Error("The independent corpus is never diagnosed.");
const embedderIndex = process.argv.indexOf("--embedder");
const embedder = qualityEmbedder(embedderIndex < 0 ? undefined : process.argv[embedderIndex + 1]);
const { scopes } = JSON.parse(readFileSync(file, "utf8")) as { scopes: PairsScope[] };
const memory = await openMemory({ path: ":memory:", embedder, policy: { secrets: { onAdd: "allow" } } });
const policy = await resolvePolicy();
const tally = new Map<string, number>();
const count = (what: string) => tally.set(what, (tally.get(what) ?? 0) + 1);
try {
  for (const scope of scopes) {
    await memory.importMemories(
      scope.memories.map((m) => ({
        id: m.key,
        text: m.text,
        user_id: scope.user_id,
        ...(m.category === undefined ? {} : { category: m.category }),
        createdAt: m.createdAt,
      })),
    );
    const newest = Math.max(...scope.memories.map((m) => Date.parse(m.createdAt)));
    const now = new Date(newest + 86_400_000).toISOString();
    const plan = await memory.dream.plan({ userId: scope.user_id }, { now });
    const context = await memory.ready();
    const snapshot = await loadSnapshot(context.store, {
      scope: scopeFromOptions({ userId: scope.user_id }),
      now,
    });
    const features = snapshotFeatures(snapshot);
    const weight = snapshotTermWeights(snapshot);
    const text = new Map(scope.memories.map((m) => [m.key, m.text]));
    const fate = (a: string, b: string): string => {
      const both = (ids: readonly string[]) => ids.includes(a) && ids.includes(b);
      for (const action of plan.actions) {
        if (action.kind === "merge" && both(action.ids)) return "MERGED";
        if (action.kind === "conflict" && both(action.ids)) return "CONFLICT";
      }
      for (const item of plan.review) if (both(item.proposal.ids)) return `review:${item.kind}`;
      const touched = plan.actions.filter((action) => action.ids.some((id) => id === a || id === b));
      return touched.length === 0
        ? "nothing"
        : `other:${touched.map((t) => t.kind).join("+")} (${touched.map((t) => t.ids.join("~")).join(", ")})`;
    };
    const show = (label: string, a: string, b: string) => {
      const fa = features(a);
      const fb = features(b);
      if (fa === undefined || fb === undefined) return;
      const neighbours = snapshot.neighbours(a, policy.duplicates.neighbours);
      const rank = neighbours.findIndex((n) => n.id === b);
      const cosine = neighbours.find((n) => n.id === b)?.similarity;
      const { overlap, shared } = lexicalOverlap(fa, fb, weight);
      const comparison = comparePair(fa, fb, weight);
      const result = fate(a, b);
      count(`${label} → ${result.replace(/ \(.*$/u, "")}`);
      console.log(
        `${label} ${scope.user_id}/${a}~${b}: ${result} | rank ${rank} cos ${cosine?.toFixed(2) ?? "-"} overlap ${overlap.toFixed(2)} [${shared.join(",")}] agrees ${comparison.agrees} refusals ${comparison.refusals.map((r) => `${r.reason}(${r.detail})`).join("; ") || "-"}\n    A: ${text.get(a)}\n    B: ${text.get(b)}`,
      );
    };
    for (const group of scope.expect.merges)
      for (let i = 1; i < group.length; i++) show("merge", group[0] as string, group[i] as string);
    for (const [a, b] of scope.expect.conflicts) show("conflict", a as string, b as string);
    const none = scope.expect.none;
    for (let i = 0; i + 1 < none.length; i += 2) show("none", none[i] as string, none[i + 1] as string);
  }
} finally {
  await memory.close();
}
console.log("\nSummary:");
for (const [what, n] of [...tally.entries()].sort()) console.log(`  ${what}: ${n}`);
