/**
 * Embeds a set of texts once and keeps the vectors in `.bench-data/<name>-vectors-<hash>.bin`
 * (float32, one row per text) with a JSON index, so reruns with the same texts and model skip the
 * model entirely. The hash covers the embedder's id and dimension and every text, in order.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { Embedder } from "../src/index.js";
import { benchDataFile } from "./paths.js";

export interface CachedVectors {
  readonly vectors: Map<string, Float32Array>;
  /** Time the model took when the cache was filled (now or on an earlier run). */
  readonly embedMs: number;
  readonly fromCache: boolean;
  readonly file: string;
}

interface CacheIndex {
  readonly embedder: string;
  readonly dimension: number;
  readonly count: number;
  readonly embedMs: number;
  readonly createdAt: string;
  readonly texts: readonly string[];
}

const CHUNK = 256;

export async function loadOrEmbed(options: {
  readonly name: string;
  readonly texts: readonly string[];
  readonly embedder: Embedder;
  readonly onProgress?: (done: number, total: number) => void;
}): Promise<CachedVectors> {
  const { embedder, name } = options;
  const texts = [...new Set(options.texts)];
  const id = embedder.id ?? "custom";
  const hash = createHash("sha256");
  hash.update(`${id}\u0000${embedder.dimension}`);
  for (const text of texts) hash.update(`\u0000${text}`);
  const stem = `${name}-vectors-${hash.digest("hex").slice(0, 16)}`;
  const binFile = benchDataFile(`${stem}.bin`);
  const indexFile = benchDataFile(`${stem}.json`);

  if (existsSync(binFile) && existsSync(indexFile)) {
    const index = JSON.parse(readFileSync(indexFile, "utf8")) as CacheIndex;
    const bytes = readFileSync(binFile);
    const all = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    if (all.length === index.count * index.dimension) {
      return {
        vectors: toMap(index.texts, all, index.dimension),
        embedMs: index.embedMs,
        fromCache: true,
        file: binFile,
      };
    }
  }

  const all = new Float32Array(texts.length * embedder.dimension);
  const start = performance.now();
  for (let offset = 0; offset < texts.length; offset += CHUNK) {
    const rows = await embedder.embed(texts.slice(offset, offset + CHUNK), "add");
    rows.forEach((row, index) => {
      all.set(Array.from(row), (offset + index) * embedder.dimension);
    });
    options.onProgress?.(Math.min(offset + CHUNK, texts.length), texts.length);
  }
  const embedMs = performance.now() - start;
  writeFileSync(binFile, new Uint8Array(all.buffer));
  const index: CacheIndex = {
    embedder: id,
    dimension: embedder.dimension,
    count: texts.length,
    embedMs,
    createdAt: new Date().toISOString(),
    texts,
  };
  writeFileSync(indexFile, JSON.stringify(index));
  return { vectors: toMap(texts, all, embedder.dimension), embedMs, fromCache: false, file: binFile };
}

function toMap(texts: readonly string[], all: Float32Array, dimension: number): Map<string, Float32Array> {
  return new Map(
    texts.map((text, index) => [text, all.subarray(index * dimension, (index + 1) * dimension)]),
  );
}
