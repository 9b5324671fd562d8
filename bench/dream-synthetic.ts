/**
 * A synthetic scope for the dream timing benchmark: the scale benchmark's template memories and
 * precomputed 512-d vectors, all in one scope, with a realistic share of what the analysers look
 * for mixed in — first-person text, noise, fake secrets, low confidence, project and operational
 * memories of every age — written straight into a SQLite store (no model runs).
 *
 * Run as a script to build one store: `tsx bench/dream-synthetic.ts <count> <file>`.
 *
 * @module
 */

import { createSqliteStore } from "../src/index.js";
import { contentHash } from "../src/text/normalise.js";
import { createFakeSecrets } from "../test/fixtures/secrets/fake-secrets.js";
import { generateCorpus, SYNTHETIC_DIMENSION } from "./synthetic.js";

export const SYNTHETIC_SCOPE = { user_id: "synthetic" } as const;
export const SYNTHETIC_NOW = "2026-11-30T12:00:00.000Z";
const BATCH = 2000;
const DAY_MS = 86_400_000;
const NOISE = [
  "ok thanks",
  "Got it!",
  "HEARTBEAT_OK",
  "2026-11-29T08:00:00Z",
  "[cron] sync finished in 2.1s (exit 0)",
];

/** Text, category and metadata of synthetic memory `index` (its base sentence is `text`). */
function decorate(index: number, text: string, secret: () => string) {
  if (index % 50 === 7) return { text: NOISE[index % NOISE.length] as string, category: null, metadata: {} };
  if (index % 200 === 13) return { text: `${text} Token: ${secret()}`, category: null, metadata: {} };
  const category =
    index % 7 === 0 ? "project" : index % 11 === 0 ? "operational" : index % 5 === 0 ? "preference" : null;
  const firstPerson = index % 20 === 3 ? `I think ${text.charAt(0).toLowerCase()}${text.slice(1)}` : text;
  return { text: firstPerson, category, metadata: index % 30 === 4 ? { confidence: 0.2 } : {} };
}

/** Builds a store of `count` synthetic memories at `file`. */
export async function buildSyntheticStore(count: number, file: string): Promise<void> {
  // One scope, but the sentences of ~count/1000 different "worlds" (people, places, tools), so the
  // scope is as varied as a real one rather than 100k rewordings of the same few facts.
  const corpus = generateCorpus({
    count,
    extra: 0,
    users: Math.max(1, Math.round(count / 1000)),
    seed: 20_261_130,
  });
  const secret = createFakeSecrets(11)["github-pat"] as () => string;
  const store = createSqliteStore({ path: file });
  await store.bindEmbedder({ id: "synthetic-512", dimension: SYNTHETIC_DIMENSION });
  const start = Date.parse(SYNTHETIC_NOW) - 400 * DAY_MS;
  for (let from = 0; from < count; from += BATCH) {
    await store.transaction(async (tx) => {
      for (let index = from; index < Math.min(count, from + BATCH); index++) {
        const base = corpus.memories[index];
        if (base === undefined) continue;
        const { text, category, metadata } = decorate(index, base.text, secret);
        const createdAt = new Date(start + Math.floor((index / count) * 400 * DAY_MS)).toISOString();
        await tx.insertMemory({
          id: `syn-${String(index).padStart(6, "0")}`,
          text,
          hash: contentHash(text),
          ...{ user_id: SYNTHETIC_SCOPE.user_id, agent_id: null, app_id: null, run_id: null },
          category,
          metadata,
          createdAt,
          updatedAt: createdAt,
          expiresAt: null,
          embedding: corpus.vectors.get(base.text) as Float32Array,
          entities: [],
        });
      }
    });
  }
  await store.close();
}

if (process.argv[1]?.endsWith("dream-synthetic.ts")) {
  await buildSyntheticStore(Number(process.argv[2]), String(process.argv[3]));
}
