/**
 * `update`: new text (re-embedded, entities relinked), merged metadata, or a new expiry. Keeps the
 * memory's id, scope and `createdAt`; records the old and new text in history.
 *
 * The merge is made inside the write transaction, on the row as it is then, so a change another
 * writer made meanwhile (a pin while this text was being embedded) is kept, not overwritten.
 *
 * @module
 */

import type { MemoryContext } from "../core/context.js";
import { embedTexts } from "../core/embed-texts.js";
import { checkId } from "../core/inputs.js";
import type { Redaction } from "../core/secrets-guard.js";
import { warnOnce } from "../core/warn-once.js";
import { createMemoryWriter, type MemoryChange } from "../core/write/memory-writer.js";
import { prepareMetadata } from "../core/write/prepare-metadata.js";
import { type PreparedText, prepareText } from "../core/write/prepare-text.js";
import { LucidError } from "../errors.js";
import { resolveCategory } from "../policy/categories.js";
import type { MemoryRow } from "../store/ports/memories.js";
import { expiryInstant } from "../text/expiry-date.js";
import { SDK_ACTOR } from "./actor.js";
import { memoryNotFound } from "./not-found.js";
import { toMemoryItem } from "./to-item.js";
import type { MemoryItem, UpdateFields } from "./types.js";

export interface UpdateResult {
  message: string;
  result: MemoryItem;
  /** Credentials redacted from the new text (kind and position). */
  redactions?: Redaction[];
}

const UPDATE_KEYS = new Set(["text", "data", "metadata", "expirationDate"]);

/**
 * The change, checked: new text (or Mem0's deprecated `data`, with a one-time warning), metadata to
 * merge (an object; `null` is not "remove all" and is refused), an expiry. An unknown key is an error
 * naming it, so a typo (`expirationdate`) never passes as "nothing to change".
 */
function readUpdateFields(change: unknown): UpdateFields {
  if (typeof change === "string") return { text: change };
  if (typeof change !== "object" || change === null || Array.isArray(change)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `update takes new text or an object { text, metadata, expirationDate }, got ${change === null ? "null" : typeof change}.`,
    );
  }
  const given = change as Record<string, unknown>;
  const unknown = Object.keys(given).filter((key) => !UPDATE_KEYS.has(key));
  if (unknown.length > 0) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `update does not know ${unknown.map((key) => JSON.stringify(key)).join(", ")}; it takes text, metadata and expirationDate.`,
      { details: { keys: unknown } },
    );
  }
  if (
    given.metadata === null ||
    (given.metadata !== undefined && (typeof given.metadata !== "object" || Array.isArray(given.metadata)))
  ) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `update's metadata is an object of keys to merge (a key set to null is removed), got ${given.metadata === null ? "null" : JSON.stringify(given.metadata)}.`,
    );
  }
  const fields = { ...given } as UpdateFields & { data?: unknown };
  if (given.data !== undefined) {
    if (given.text !== undefined && given.text !== given.data) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        "update got both text and data (its deprecated name) with different values; give text.",
      );
    }
    warnOnce("LUCID_UPDATE_DATA", "update(id, { data }) is deprecated, as in Mem0: use { text }.", {
      type: "DeprecationWarning",
      code: "LUCID_UPDATE_DATA",
    });
    fields.text = given.data as string;
    delete fields.data;
  }
  return fields;
}

/** Returned from inside the transaction when the text it would write has no vector yet. */
const NEEDS_VECTOR = Symbol("needs a vector");

export async function updateMemory(
  context: MemoryContext,
  id: string,
  change: string | UpdateFields,
): Promise<UpdateResult> {
  checkId(id);
  const fields = readUpdateFields(change);
  if (fields.text === undefined && fields.metadata === undefined && fields.expirationDate === undefined) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      "update needs at least one of text, metadata or expirationDate.",
    );
  }
  // Everything that can refuse the call is checked before anything is embedded or written.
  const prepared = fields.text === undefined ? undefined : prepareText(context, fields.text);
  const metadataChange =
    fields.metadata === undefined ? undefined : prepareMetadata(context, fields.metadata);
  const category = nextCategory(fields.metadata, context);
  const expiresAt =
    fields.expirationDate === undefined
      ? undefined
      : fields.expirationDate === null
        ? null
        : expiryInstant(fields.expirationDate, "expirationDate", context.timeZone);
  const before = await context.store.getMemory(id);
  if (before === null) throw memoryNotFound(id);

  let embedding: Float32Array | undefined;
  const embedNewText = async (text: string) => {
    embedding ??= (await embedTexts(context, [text], "update"))[0];
  };
  if (prepared !== undefined && prepared.text !== before.text) await embedNewText(prepared.text);
  const now = context.clock.now().toISOString();
  for (;;) {
    const outcome = await context.store.transaction(async (tx) => {
      const latest = await tx.getMemory(id);
      if (latest === null) throw memoryNotFound(id);
      if (prepared !== undefined && prepared.text !== latest.text && embedding === undefined)
        return NEEDS_VECTOR;
      const patch: MemoryChange = {
        ...(prepared === undefined ? {} : { text: { prepared, embedding: embedding as Float32Array } }),
        ...(metadataChange === undefined
          ? {}
          : { metadata: mergeMetadata(latest.metadata, metadataChange.metadata, fields.metadata ?? {}) }),
        ...(category === undefined ? {} : { category }),
        ...(expiresAt === undefined ? {} : { expiresAt }),
      };
      return createMemoryWriter(tx, { actor: SDK_ACTOR, at: now, embedder: context.embedderStamp }).update(
        id,
        patch,
      );
    });
    // Another writer changed the text between the first read and the transaction.
    if (outcome === NEEDS_VECTOR) {
      await embedNewText((prepared as PreparedText).text);
      continue;
    }
    if (outcome === null) throw memoryNotFound(id);
    return result(
      outcome,
      [...(prepared?.redactions ?? []), ...(metadataChange?.redactions ?? [])],
      context.timeZone,
    );
  }
}

function result(row: MemoryRow, redactions: readonly Redaction[], timeZone: string): UpdateResult {
  const updated: UpdateResult = {
    message: "Memory updated successfully!",
    result: toMemoryItem(row, timeZone),
  };
  if (redactions.length > 0) updated.redactions = [...redactions];
  return updated;
}

/** Shallow merge; `null` removes a key. `category` lives in its own column, never in stored metadata. */
function mergeMetadata(
  current: Readonly<Record<string, unknown>>,
  copy: Record<string, unknown>,
  given: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current, ...copy };
  for (const [key, value] of Object.entries(given)) if (value === null) delete merged[key];
  delete merged.category;
  return merged;
}

/**
 * A metadata change moves a memory to another category only when it names one (`category`, or a
 * `type` that is a category); `category: null` clears it. Undefined: the category stays.
 */
function nextCategory(
  change: Record<string, unknown> | undefined,
  context: MemoryContext,
): string | null | undefined {
  if (change === undefined) return undefined;
  const { categories, strictCategories } = context.policy;
  if (Object.hasOwn(change, "category")) {
    return change.category === null
      ? null
      : resolveCategory(undefined, { category: change.category }, categories, strictCategories);
  }
  return resolveCategory(undefined, { type: change.type }, categories, strictCategories) ?? undefined;
}
