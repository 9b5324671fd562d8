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
 * key may not do it.
 */
export function replyError(c: Context, error: unknown): Response {
  if (error instanceof HttpRefusal) {
    for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
    return c.json({ detail: error.message, code: error.code }, error.status);
  }
  const report = reportError(error);
  const status = report.code === "SCOPE_NOT_ALLOWED" ? 403 : httpStatusOf(report.kind);
  return c.json(
    {
      detail: report.message,
      code: report.code,
      ...(report.details === undefined ? {} : { details: report.details }),
    },
    status as ContentfulStatusCode,
  );
}
