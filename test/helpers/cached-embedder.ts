/**
 * The real local model, with its vectors kept on disk between test runs: the labelled-corpus tests
 * embed the same ~2,000 texts every run, and the model is deterministic, so after the first run they
 * read the vectors back instead of computing them again. The cache is a SQLite file in the
 * git-ignored `.bench-data/`, keyed by the embedder's id and dimension and the text's hash; several
 * test workers may fill it at once (WAL, one row per text).
 */

import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import type { Embedder } from "../../src/embed/embedder.js";
import { createUseLiteEmbedder } from "../../src/embed/local/use-lite-embedder.js";

const CACHE_DIR = fileURLToPath(new URL("../../.bench-data/", import.meta.url));

function openCache(): Database.Database {
  mkdirSync(CACHE_DIR, { recursive: true });
  const db = new Database(join(CACHE_DIR, "test-vectors.db"), { timeout: 60_000 });
  db.pragma("journal_mode = WAL");
  db.exec("create table if not exists vectors(key text primary key, vector blob not null)");
  return db;
}

/** `embedder`, remembering every vector it computes; by default the local model. */
export function cachedEmbedder(embedder: Embedder = createUseLiteEmbedder()): Embedder {
  const db = openCache();
  const prefix = `${embedder.id ?? "custom"}/${embedder.dimension}/`;
  const keyOf = (text: string, purpose: string) =>
    `${prefix}${purpose}/${createHash("sha256").update(text).digest("hex")}`;
  const read = db.prepare("select vector from vectors where key = ?");
  const write = db.prepare("insert or replace into vectors(key, vector) values (?, ?)");
  return {
    ...(embedder.id === undefined ? {} : { id: embedder.id }),
    dimension: embedder.dimension,
    async embed(texts, purpose) {
      const found = texts.map((text) => {
        const row = read.get(keyOf(text, purpose)) as { vector: Buffer } | undefined;
        return row === undefined
          ? undefined
          : new Float32Array(
              row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength),
            );
      });
      const missing = [...new Set(texts.filter((_, index) => found[index] === undefined))];
      if (missing.length > 0) {
        const computed = await embedder.embed(missing, purpose);
        const vectorOf = new Map(
          missing.map((text, index) => [text, Float32Array.from(computed[index] ?? [])]),
        );
        db.transaction(() => {
          for (const [text, vector] of vectorOf) write.run(keyOf(text, purpose), Buffer.from(vector.buffer));
        })();
        return texts.map((text, index) => found[index] ?? (vectorOf.get(text) as Float32Array));
      }
      return found as Float32Array[];
    },
    async close() {
      db.close();
      await embedder.close?.();
    },
  };
}
