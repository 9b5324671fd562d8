import { LucidError } from "../errors.js";

/**
 * An `INVALID_CONFIG` error naming the file and the key (a dotted path such as `embedder.model`);
 * `message` continues the sentence: `"must be a positive integer, got \"x\"."`.
 */
export function configError(file: string, key: string, message: string, cause?: unknown): LucidError {
  const where = key === "" ? file : `${file}: ${key}`;
  return new LucidError("INVALID_CONFIG", `${where} ${message}`, {
    cause,
    details: { file, key },
  });
}
