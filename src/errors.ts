/**
 * The one error class Lucid throws, and the catalogue of its codes.
 *
 * Callers branch on `error.code`, never on the wording: messages name the bad value and say what
 * to do, and may be improved at any time.
 *
 * @module
 */

export const ERROR_CODES = [
  // input
  "INVALID_ARGUMENT",
  "EMPTY_TEXT",
  "TEXT_TOO_LONG",
  "SCOPE_REQUIRED",
  "INVALID_FILTER",
  "UNKNOWN_FILTER_OPERATOR",
  "UNKNOWN_CATEGORY",
  "MEMORY_NOT_FOUND",
  "LLM_NOT_CONFIGURED",
  "SECRET_REJECTED",
  // configuration (lucid.config.json, environment)
  "INVALID_CONFIG",
  // store
  "STORE_BUSY",
  "STORE_READ_ONLY",
  "STORE_CORRUPT",
  "STORE_CLOSED",
  "SCHEMA_TOO_NEW",
  "STORE_FAILED",
  // embedders
  "EMBEDDER_MISMATCH",
  "EMBEDDING_DIMENSION_MISMATCH",
  "EMBEDDER_FAILED",
  "EMBEDDER_UNAVAILABLE",
  // dream runs
  "INVALID_PLAN",
  "RUN_NOT_FOUND",
  "UNDO_CONFLICT",
  "DREAM_LEASE_HELD",
] as const;

export type LucidErrorCode = (typeof ERROR_CODES)[number];

export interface LucidErrorOptions {
  /** The lower-level error this one explains (a SQLite error, a failed fetch…). */
  cause?: unknown;
  /** Structured facts about the failure, safe to print (never a secret value). */
  details?: Record<string, unknown>;
}

/**
 * Every user-facing failure in Lucid.
 *
 * @example
 * try {
 *   await memory.get("no-such-id");
 * } catch (error) {
 *   if (error instanceof LucidError && error.code === "MEMORY_NOT_FOUND") console.log(error.message);
 * }
 */
export class LucidError extends Error {
  readonly code: LucidErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: LucidErrorCode, message: string, options: LucidErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "LucidError";
    this.code = code;
    this.details = options.details;
  }
}

/** True when `error` is a LucidError, optionally with the given code. */
export function isLucidError(error: unknown, code?: LucidErrorCode): error is LucidError {
  return error instanceof LucidError && (code === undefined || error.code === code);
}
