/**
 * The one place a failure becomes a response: `{detail, code}` (the platform's `{detail}`, which
 * MemoryClient shows as the error message) with the status MemoryClient maps to its error classes.
 *
 * @module
 */

import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { httpStatusOf, reportError } from "../edge/error-report.js";
import { HttpRefusal } from "./refusal.js";

/**
 * The status of a failure. A call naming a scope its key is not bound to is 403 (MemoryClient's
 * AuthenticationError), not the 400 of the other input errors: the request was well formed, the
 * key may not do it. `infer: true` on a server without an LLM is the request's to drop (400), not
 * the server's failure. A 5xx says only its code: the details are logged.
 */
export function replyError(c: Context, error: unknown): Response {
  if (error instanceof HttpRefusal) {
    for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
    return c.json({ detail: error.message, code: error.code }, error.status);
  }
  const report = reportError(error);
  const status =
    report.code === "SCOPE_NOT_ALLOWED"
      ? 403
      : report.code === "LLM_NOT_CONFIGURED"
        ? 400
        : httpStatusOf(report.kind);
  if (status >= 500) {
    // The server's own trouble (the store's path, a stack) is the operator's to read, not the caller's.
    console.error(`lucid serve: ${report.code}: ${report.message}`);
    return c.json(
      {
        detail: `The server could not complete the request (${report.code}); its log says why.`,
        code: report.code,
      },
      status as ContentfulStatusCode,
    );
  }
  return c.json(
    {
      detail: report.message,
      code: report.code,
      ...(report.details === undefined ? {} : { details: report.details }),
    },
    status as ContentfulStatusCode,
  );
}
