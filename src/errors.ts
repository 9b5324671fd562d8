/**
 * The one error class Lucid throws, and the catalogue of its codes.
 *
 * Callers branch on `error.code`, never on the wording: messages name the bad value and say what
 * to do, and may be improved at any time. Each code has a kind (`ERROR_KINDS`), from which every
 * edge derives its own answer: the CLI's exit code, the MCP tool error, an HTTP status.
 *
 * @module
 */

/**
 * What kind of failure a code is, for the edges: `input` (the caller can fix the call), `not_found`,
 * `conflict` (the state does not allow it now), `unavailable` (retry later or fix the environment),
 * `config` (a configuration file or option), `io` (a file the user named), `interrupted` (a signal
 * stopped the work, which was rolled back), `internal` (a bug).
 */
export const ERROR_KIND_NAMES = [
  "usage",
  "input",
  "not_found",
  "conflict",
  "unavailable",
  "config",
  "io",
  "interrupted",
  "internal",
] as const;
export type ErrorKind = (typeof ERROR_KIND_NAMES)[number];

/** Every code with its kind: the catalogue. */
export const ERROR_KINDS = {
  // the command line itself (unknown flag, missing argument)
  USAGE: "usage",
  // input
  INVALID_ARGUMENT: "input",
  EMPTY_TEXT: "input",
  TEXT_TOO_LONG: "input",
  SCOPE_REQUIRED: "input",
  SCOPE_NOT_ALLOWED: "input",
  INVALID_FILTER: "input",
  UNKNOWN_FILTER_OPERATOR: "input",
  UNKNOWN_CATEGORY: "input",
  SECRET_REJECTED: "input",
  INVALID_PLAN: "input",
  MEMORY_NOT_FOUND: "not_found",
  RUN_NOT_FOUND: "not_found",
  // a dream plan `lucid serve` no longer keeps (applied, expired, or the server restarted)
  PLAN_NOT_FOUND: "not_found",
  NOTE_NOT_FOUND: "not_found",
  WORKSPACE_NOT_FOUND: "not_found",
  LLM_NOT_CONFIGURED: "config",
  // language models (optional): a timeout, a server that cannot be reached or keeps failing, a
  // request it refuses (key, model), an answer that is not what was asked for, a run's call cap
  LLM_TIMEOUT: "unavailable",
  LLM_UNAVAILABLE: "unavailable",
  LLM_REJECTED: "config",
  LLM_BAD_OUTPUT: "unavailable",
  LLM_BUDGET_EXCEEDED: "conflict",
  // configuration (lucid.config.json, environment)
  INVALID_CONFIG: "config",
  // store
  STORE_BUSY: "unavailable",
  STORE_READ_ONLY: "unavailable",
  STORE_CORRUPT: "unavailable",
  STORE_CLOSED: "unavailable",
  // a database server that cannot be reached, or a connection lost mid-call (nothing was committed)
  STORE_UNAVAILABLE: "unavailable",
  SCHEMA_TOO_NEW: "unavailable",
  STORE_FAILED: "internal",
  // embedders
  EMBEDDER_MISMATCH: "conflict",
  EMBEDDING_DIMENSION_MISMATCH: "unavailable",
  EMBEDDER_FAILED: "unavailable",
  EMBEDDER_UNAVAILABLE: "unavailable",
  // dream runs
  UNDO_CONFLICT: "conflict",
  // a run undone (or rolled back) once already: there is nothing left to put back
  ALREADY_UNDONE: "conflict",
  DREAM_LEASE_HELD: "conflict",
  SLEEP_CONFLICT: "conflict",
  // a batch that ran but did not fully succeed: the CLI exits 1 after reporting what it did
  IMPORT_INCOMPLETE: "input",
  SLEEP_PHASE_FAILED: "io",
  SECRETS_FOUND: "conflict",
  // `lucid scan`: memories that read as instructions to the agent (and no credential)
  INJECTIONS_FOUND: "conflict",
  // the environment and Lucid itself
  INTERRUPTED: "interrupted",
  IO_ERROR: "io",
  INTERNAL: "internal",
} as const satisfies Record<string, ErrorKind>;

export type LucidErrorCode = keyof typeof ERROR_KINDS;

export const ERROR_CODES = Object.freeze(Object.keys(ERROR_KINDS) as LucidErrorCode[]);

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

  /** The kind of this error's code (`input`, `not_found`…). */
  get kind(): ErrorKind {
    return ERROR_KINDS[this.code];
  }
}

/** True when `error` is a LucidError, optionally with the given code. */
export function isLucidError(error: unknown, code?: LucidErrorCode): error is LucidError {
  return error instanceof LucidError && (code === undefined || error.code === code);
}

/**
 * An `INVALID_CONFIG` error naming the file and the key (a dotted path such as `embedder.model`);
 * `message` continues the sentence: `"must be a positive integer, got \"x\"."`. Used by every reader
 * of a configuration file: `lucid.config.json`, Mem0 retention files, `--policy FILE`.
 *
 * @example
 * throw configError("lucid.config.json", "embedder.model", "is required, e.g. \"nomic-embed-text\".");
 */
export function configError(file: string, key: string, message: string, cause?: unknown): LucidError {
  const where = key === "" ? file : `${file}: ${key}`;
  return new LucidError("INVALID_CONFIG", `${where} ${message}`, {
    cause,
    details: { file, key },
  });
}
