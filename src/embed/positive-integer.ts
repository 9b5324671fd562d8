/**
 * The one numeric check embedder options share (batch sizes, dimensions, timeouts).
 *
 * @module
 */

import { LucidError } from "../errors.js";

/** Returns `value` if it is a positive integer, else throws `INVALID_ARGUMENT` naming `name`. */
export function requirePositiveInteger(name: string, value: unknown): number {
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  throw new LucidError("INVALID_ARGUMENT", `${name} must be a positive integer, got ${String(value)}.`, {
    details: { [name]: value },
  });
}
