import type { MemoryContext } from "../core/context.js";
import { checkId } from "../core/inputs.js";
import { LucidError } from "../errors.js";

/** Shortest prefix taken for an id: 8 characters of a UUID are 4 billion values, none typed twice. */
export const MIN_ID_PREFIX = 8;
/** Candidates named when a prefix is ambiguous. */
const SHOWN = 5;

/**
 * The id a person meant: the id itself when a memory has it, else the one memory whose id starts
 * with it (at least {@link MIN_ID_PREFIX} characters), else the input unchanged — a deleted
 * memory's id still names its history.
 *
 * @throws LucidError `INVALID_ARGUMENT` when the prefix starts several ids (they are listed).
 * @example
 * await resolveId(context, "0b6e2f1a"); // => "0b6e2f1a-3c2d-4e5f-9a8b-7c6d5e4f3a2b"
 */
export async function resolveId(context: MemoryContext, idOrPrefix: string): Promise<string> {
  const given = checkId(idOrPrefix);
  if (given.length < MIN_ID_PREFIX || (await context.store.getMemory(given)) !== null) return given;
  const ids = await context.store.idsWithPrefix(given, SHOWN + 1);
  if (ids.length === 1) return ids[0] as string;
  if (ids.length > 1) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `The id prefix ${JSON.stringify(given)} starts ${ids.length > SHOWN ? `more than ${SHOWN}` : ids.length} ids (${ids.slice(0, SHOWN).join(", ")}): give more of the id.`,
      { details: { prefix: given, matches: ids.slice(0, SHOWN) } },
    );
  }
  return given;
}
