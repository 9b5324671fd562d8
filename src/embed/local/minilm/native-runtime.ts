/**
 * Runs MiniLM natively with onnxruntime-node on the graph `bert-graph.ts` builds from the
 * safetensors weights: about 8× the WASM engine's throughput on one core (bench:embedders).
 *
 * @module
 */

import { buildBertModel } from "./bert-graph.js";
import { MINILM_DIMENSION } from "./identity.js";
import { meanPool } from "./mean-pool.js";
import type { MiniLmFiles } from "./model-files.js";
import type { EncodedText, MiniLmRuntime } from "./runtime.js";
import { onnxEngineName } from "./runtime-report.js";
import { readSafetensors } from "./safetensors.js";
import { readVerifiedWeights } from "./verify-weights.js";

/** The part of onnxruntime-node used here, so a test can hand in another module. */
export interface OnnxRuntimeModule {
  InferenceSession: {
    create(model: Uint8Array, options: OnnxSessionOptions): Promise<OnnxSession>;
  };
  Tensor: new (
    type: "int64" | "float32",
    data: BigInt64Array | Float32Array,
    dims: readonly number[],
  ) => unknown;
  /** onnxruntime-node sets `versions.node` to its version. */
  env?: { versions?: { node?: string } };
}

interface OnnxSessionOptions {
  intraOpNumThreads: number;
  interOpNumThreads: number;
  graphOptimizationLevel: "all";
}

interface OnnxSession {
  run(feeds: Record<string, unknown>): Promise<Record<string, { readonly data: unknown } | undefined>>;
}

export type ImportOnnxRuntime = () => Promise<OnnxRuntimeModule>;

/** Adding this to a padding token's attention score gives it a weight of exactly 0 after Softmax. */
const PADDING_BIAS = -1e9;

/**
 * One thread: a second one measured no faster on this model (its matrices are small), and leaving
 * the other core free keeps a server answering while it embeds.
 */
const SESSION_OPTIONS: OnnxSessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  graphOptimizationLevel: "all",
};

/**
 * Loads onnxruntime-node through `importOnnxRuntime` and builds a session on the verified weights.
 * Rejects with the underlying error if either fails; the caller decides whether to fall back.
 */
export async function loadNativeRuntime(
  files: MiniLmFiles,
  importOnnxRuntime: ImportOnnxRuntime,
): Promise<MiniLmRuntime> {
  const ort = await importOnnxRuntime();
  const weights = await readVerifiedWeights(files.manifest.weightsPath);
  const session = await ort.InferenceSession.create(
    buildBertModel(readSafetensors(weights)),
    SESSION_OPTIONS,
  );
  return {
    name: "native",
    engine: onnxEngineName(ort),
    maxBatchTexts: 32,
    // Measured on 500 LoCoMo turns (one thread): ~210 sentences/s at 512 padded tokens per run,
    // 190 at 2,048, 110 at 100 texts unbounded, so bigger runs are slower per token. A run also
    // blocks the event loop (onnxruntime-node runs synchronously), here for ~70 ms at most.
    maxBatchTokens: 512,
    async embedBatch(batch) {
      const { ids, positions, bias, sequence } = encodeInputs(batch);
      const outputs = await session.run({
        input_ids: new ort.Tensor("int64", ids, [batch.length, sequence]),
        position_ids: new ort.Tensor("int64", positions, [1, sequence]),
        attention_bias: new ort.Tensor("float32", bias, [batch.length, 1, 1, sequence]),
      });
      const hidden = outputs.last_hidden_state?.data;
      if (!(hidden instanceof Float32Array) || hidden.length !== batch.length * sequence * MINILM_DIMENSION) {
        throw new Error("onnxruntime returned no last_hidden_state of the expected size");
      }
      return meanPool(
        hidden,
        batch.map((text) => text.ids.length),
        sequence,
        MINILM_DIMENSION,
      );
    },
  };
}

/** Right-pads every text to the longest one ([PAD] is id 0) and masks the padding out. */
function encodeInputs(batch: readonly EncodedText[]) {
  const sequence = Math.max(...batch.map((text) => text.ids.length));
  const ids = new BigInt64Array(batch.length * sequence);
  const bias = new Float32Array(batch.length * sequence).fill(PADDING_BIAS);
  batch.forEach((text, row) => {
    text.ids.forEach((id, position) => {
      ids[row * sequence + position] = BigInt(id);
      bias[row * sequence + position] = 0;
    });
  });
  const positions = BigInt64Array.from({ length: sequence }, (_, position) => BigInt(position));
  return { ids, positions, bias, sequence };
}
