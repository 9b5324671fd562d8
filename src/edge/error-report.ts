/**
 * Failures as the edges report them: any thrown value becomes one `ErrorReport` (code, kind,
 * message), and each edge derives its own answer from the kind — the CLI's exit code, the MCP tool
 * error, an HTTP status — from the one table in `errors.ts`.
 *
 * @module
 */

import { ERROR_KINDS, type ErrorKind, isLucidError, type LucidErrorCode } from "../errors.js";

export interface ErrorReport {
  readonly code: LucidErrorCode;
  readonly kind: ErrorKind;
  readonly message: string;
  /** Structured facts, safe to show (a LucidError's `details`). */
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * A `LucidError` as it is; a failed file operation (an error with a `syscall`) as `IO_ERROR`, the
 * user's environment rather than a bug; anything else as `INTERNAL`.
 *
 * @example
 * const report = reportError(error);
 * process.exitCode = exitCodeOf(report.kind);
 */
export function reportError(error: unknown): ErrorReport {
  if (isLucidError(error)) {
    return {
      code: error.code,
      kind: error.kind,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
    };
  }
  if (error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === "string") {
    return { code: "IO_ERROR", kind: ERROR_KINDS.IO_ERROR, message: error.message };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: "INTERNAL", kind: ERROR_KINDS.INTERNAL, message: `Unexpected error: ${message}` };
}

/**
 * The CLI's exit code: 2 for a mistake in the command line, 130 for work a signal interrupted (the
 * shells' 128 + SIGINT), 1 for every other failure.
 */
export function exitCodeOf(kind: ErrorKind): 1 | 2 | 130 {
  if (kind === "usage") return 2;
  return kind === "interrupted" ? 130 : 1;
}

const HTTP_STATUS: Readonly<Record<ErrorKind, number>> = {
  usage: 400,
  input: 400,
  not_found: 404,
  conflict: 409,
  unavailable: 503,
  config: 500,
  io: 500,
  interrupted: 503,
  internal: 500,
};

/** The HTTP status of a failure of this kind. */
export function httpStatusOf(kind: ErrorKind): number {
  return HTTP_STATUS[kind];
}
