/**
 * `update`: new text (re-embedded, entities relinked), merged metadata, or a new expiry. Keeps the
 * memory's id, scope and `createdAt`; records the old and new text in history.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import { resolveCategory } from "../policy/categories.js";
import type { MemoryPatch } from "../store/store.js";
import { extractEntities } from "../text/entities.js";
import { contentHash } from "../text/normalise.js";
import { SDK_ACTOR } from "./add.js";
import type { MemoryContext } from "./context.js";
import { embedTexts } from "./embed-texts.js";
import { checkId, checkText, copyMetadata, toIsoTimestamp } from "./inputs.js";
import type { Redaction } from "./secrets-guard.js";
import { toMemoryItem } from "./to-item.js";
import type { MemoryItem, UpdateFields } from "./types.js";

export interface UpdateResult {
  message: string;
  result: MemoryItem;
  /** Credentials redacted from the new text (kind and position). */
  redactions?: Redaction[];
}

export async function updateMemory(
  context: MemoryContext,
  id: string,
  change: string | UpdateFields,
): Promise<UpdateResult> {
  checkId(id);
  const fields: UpdateFields = typeof change === "string" ? { text: change } : (change ?? {});
  if (fields.text === undefined && fields.metadata === undefined && fields.expirationDate === undefined) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      "update needs at least one of text, metadata or expirationDate.",
    );
  }
  const screened =
    fields.text === undefined
      ? undefined
      : context.secrets.screen(checkText(fields.text, context.maxTextBytes));
  const text = screened?.text;
  const current = await context.store.getMemory(id);
  if (current === null) throw notFound(id);

  const textChanged = text !== undefined && text !== current.text;
  const metadata = mergeMetadata(current.metadata, fields.metadata);
  const category = nextCategory(current.category, fields.metadata, context);
  const [embedding] = textChanged ? await embedTexts(context, [text], "update") : [];
  const now = context.clock.now().toISOString();
  const newText = text ?? current.text;
  const patch: MemoryPatch = {
    text: newText,
    hash: contentHash(newText),
    category,
    metadata,
    updatedAt: now,
    expiresAt: nextExpiry(current.expiresAt, fields.expirationDate),
    ...(textChanged ? { embedding, entities: extractEntities(newText) } : {}),
  };

  const updated = await context.store.transaction(async (tx) => {
    const latest = await tx.getMemory(id);
    if (latest === null) throw notFound(id);
    await tx.updateMemory(id, patch);
    await tx.addHistory({
      memoryId: id,
      action: "UPDATE",
      previousValue: latest.text,
      newValue: newText,
      actor: SDK_ACTOR,
      createdAt: now,
    });
    return tx.getMemory(id);
  });
  if (updated === null) throw notFound(id);
  const result: UpdateResult = { message: "Memory updated successfully!", result: toMemoryItem(updated) };
  if (screened !== undefined && screened.redactions.length > 0) result.redactions = screened.redactions;
  return result;
}

/** Shallow merge; `null` removes a key. `category` lives in its own column, never in stored metadata. */
function mergeMetadata(
  current: Readonly<Record<string, unknown>>,
  change: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (change === undefined) return { ...current };
  const merged: Record<string, unknown> = { ...current, ...copyMetadata(change) };
  for (const [key, value] of Object.entries(change)) if (value === null) delete merged[key];
  delete merged.category;
  return merged;
}

/**
 * A metadata change moves a memory to another category only when it names one (`category`, or a
 * `type` that is a category); `category: null` clears it. Otherwise the category stays.
 */
function nextCategory(
  current: string | null,
  change: Record<string, unknown> | undefined,
  context: MemoryContext,
): string | null {
  if (change === undefined) return current;
  if (Object.hasOwn(change, "category")) {
    return change.category === null
      ? null
      : resolveCategory(undefined, { category: change.category }, context.categories);
  }
  return resolveCategory(undefined, { type: change.type }, context.categories) ?? current;
}

function nextExpiry(current: string | null, change: UpdateFields["expirationDate"]): string | null {
  if (change === undefined) return current;
  return change === null ? null : toIsoTimestamp(change, "expirationDate");
}

export function notFound(id: string): LucidError {
  return new LucidError(
    "MEMORY_NOT_FOUND",
    `No memory with id ${id}. List ids with getAll, or search for the memory.`,
    {
      details: { id },
    },
  );
}
