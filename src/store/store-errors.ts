/**
 * The errors every store backend raises the same way, worded once so a caller reads the same
 * message whichever backend it opened: a closed store, a store method called inside one of its own
 * transactions, and a store opened with another embedder than the one that wrote it.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import type { EmbedderStamp } from "./ports/maintenance.js";

export function storeClosed(location: string): LucidError {
  return new LucidError("STORE_CLOSED", `The store at ${location} is closed. Open it again.`);
}

/** Inside `store.transaction(fn)`, a call through the store rather than `fn`'s handle. */
export function calledInsideOwnTransaction(): LucidError {
  return new LucidError(
    "INTERNAL",
    "A store method was called on the store inside one of its own transactions. Inside store.transaction(fn), use the handle fn receives.",
  );
}

export function embedderMismatch(
  location: string,
  recorded: EmbedderStamp,
  given: EmbedderStamp,
): LucidError {
  return new LucidError(
    "EMBEDDER_MISMATCH",
    `${location} was written with embedder ${recorded.id} (${recorded.dimension}-d), but was opened with ${given.id} (${given.dimension}-d). Open it with the same embedder, or re-embed the store after changing embedders.`,
    { details: { recorded, given } },
  );
}
