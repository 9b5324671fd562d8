/**
 * An undo or rollback refused because something changed since the run (`UNDO_CONFLICT`) says, over
 * REST, how to force it: the library's message names no edge's syntax.
 *
 * @module
 */

import { isLucidError, LucidError } from "../errors.js";

export async function withForceHint<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!isLucidError(error, "UNDO_CONFLICT")) throw error;
    throw new LucidError("UNDO_CONFLICT", `${error.message} Send {"force": true} to do so.`, {
      ...(error.details === undefined ? {} : { details: error.details }),
      cause: error,
    });
  }
}
