/**
 * Turns a PostgreSQL or connection failure into the LucidError a user can act on.
 *
 * @module
 */

import { LucidError } from "../../errors.js";

/** SQLSTATE classes and codes that mean the connection, not the statement, failed. */
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "57P01", // admin_shutdown: the backend was terminated
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: the server is starting or stopping
  "53300", // too_many_connections
]);

const CONNECTION_MESSAGES = [
  /Connection terminated/i,
  /connection timeout/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /Client was closed and is not queryable/i,
];

function codeOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/** The connection was refused, lost or timed out: nothing the statement did was committed. */
export function isConnectionError(error: unknown): boolean {
  if (error instanceof LucidError) return error.code === "STORE_UNAVAILABLE";
  const code = codeOf(error);
  // Class 08 is connection exceptions, except 08P01, a protocol violation: a bug, not the network.
  if (code !== undefined && (CONNECTION_CODES.has(code) || (code.startsWith("08") && code !== "08P01")))
    return true;
  const message = error instanceof Error ? error.message : "";
  return CONNECTION_MESSAGES.some((pattern) => pattern.test(message));
}

export function translatePostgresError(error: unknown, location: string): unknown {
  if (error instanceof LucidError) return error;
  if (!(error instanceof Error)) return error;
  const code = codeOf(error);
  const options = { cause: error, details: { ...(code === undefined ? {} : { sqlState: code }), location } };
  if (isConnectionError(error)) {
    return new LucidError(
      "STORE_UNAVAILABLE",
      `The PostgreSQL server at ${location} could not be reached or dropped the connection (${error.message}); nothing of this call was committed. Check that the server is running and reachable, then retry.`,
      options,
    );
  }
  if (code === "40P01" || code === "40001" || code === "55P03") {
    return new LucidError(
      "STORE_BUSY",
      `Another writer held what this call needed in ${location} (${error.message}); nothing was written. Retry.`,
      options,
    );
  }
  if (code === "22021" || code === "22P05" || (code === "22P02" && /unicode|\\u0000/i.test(error.message))) {
    return new LucidError(
      "INVALID_ARGUMENT",
      `PostgreSQL cannot store this text in ${location} (${error.message}): it holds a NUL character (U+0000), which PostgreSQL text and JSON cannot hold. Remove it and write again; nothing was written.`,
      options,
    );
  }
  if (code === "25006") {
    return new LucidError(
      "STORE_READ_ONLY",
      `The PostgreSQL server at ${location} accepts reads only (a standby, or a read-only transaction). Point Lucid at the primary.`,
      options,
    );
  }
  if (code === "42501") {
    return new LucidError(
      "STORE_FAILED",
      `The PostgreSQL role has no permission for this in ${location} (${error.message}). Grant it the store's schema, or connect as its owner.`,
      options,
    );
  }
  return new LucidError("STORE_FAILED", `PostgreSQL failed on ${location}: ${error.message}`, options);
}
