/**
 * Which runtime MiniLM runs on, and why, for `status`: what the process's own load found when it
 * has loaded one, else what importing onnxruntime-node finds now (the native library, ~40 ms; never
 * the model's weights). Kept apart from `load-runtime.ts` so asking loads none of the model code.
 *
 * @module
 */

import type { EmbedderRuntime } from "../../embedder.js";
import type { ImportOnnxRuntime, OnnxRuntimeModule } from "./native-runtime.js";
import type { MiniLmRuntimeChoice } from "./runtime-choice.js";

/** Imported only when asked for: it is an optional dependency, absent where it could not install. */
export const importOnnxRuntimeNode: ImportOnnxRuntime = () => import("onnxruntime-node");

type NativeOutcome =
  | { readonly ok: true; readonly engine: string }
  | { readonly ok: false; readonly reason: string };

/** How loading the native runtime went, per import function (always `importOnnxRuntimeNode` outside tests). */
const nativeOutcomes = new Map<ImportOnnxRuntime, NativeOutcome>();

/** `onnxruntime-node 1.30.0` (the version its module reports, when it does). */
export function onnxEngineName(ort: OnnxRuntimeModule): string {
  const version = ort.env?.versions?.node;
  return version === undefined ? "onnxruntime-node" : `onnxruntime-node ${version}`;
}

/** The first line of an error's message: a module-not-found error goes on with its require stack. */
export function causeLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n", 1)[0]?.trim() ?? "";
}

/** Called by the loader once its native attempt has settled. */
export function recordNativeOutcome(importOnnxRuntime: ImportOnnxRuntime, outcome: NativeOutcome): void {
  nativeOutcomes.set(importOnnxRuntime, outcome);
}

/**
 * @example
 * await describeMiniLmRuntime("auto", importOnnxRuntimeNode);
 * // { name: "native", reason: "onnxruntime-node 1.30.0", degraded: false }
 */
export async function describeMiniLmRuntime(
  choice: MiniLmRuntimeChoice,
  importOnnxRuntime: ImportOnnxRuntime,
): Promise<EmbedderRuntime> {
  if (choice === "wasm") return { name: "wasm", reason: 'runtime "wasm" chosen', degraded: false };
  const outcome = nativeOutcomes.get(importOnnxRuntime) ?? (await probe(importOnnxRuntime));
  if (outcome.ok) return { name: "native", reason: outcome.engine, degraded: false };
  const why = `onnxruntime-node could not be loaded: ${outcome.reason}`;
  return choice === "auto"
    ? { name: "wasm", reason: why, degraded: true }
    : {
        name: "native",
        reason: `${why}; embedding fails until it loads (runtime "auto" falls back to WASM)`,
        degraded: true,
      };
}

/** Not recorded: only a real load says what the process runs on (weights and session included). */
async function probe(importOnnxRuntime: ImportOnnxRuntime): Promise<NativeOutcome> {
  try {
    return { ok: true, engine: onnxEngineName(await importOnnxRuntime()) };
  } catch (error) {
    return { ok: false, reason: causeLine(error) };
  }
}
