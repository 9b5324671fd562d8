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

/** One change, checked whole before anything is read, embedded or written. */
interface PlannedUpdate {
  readonly id: string;
  readonly fields: UpdateFields;
  readonly prepared: PreparedText | undefined;
  readonly metadataChange: ReturnType<typeof prepareMetadata> | undefined;
  readonly category: string | null | undefined;
  readonly expiresAt: string | null | undefined;
}

function planUpdate(context: MemoryContext, id: string, change: string | UpdateFields): PlannedUpdate {
  checkId(id);
  const fields = readUpdateFields(change);
  if (fields.text === undefined && fields.metadata === undefined && fields.expirationDate === undefined) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      "update needs at least one of text, metadata or expirationDate.",
    );
  }
  return {
    id,
    fields,
    prepared: fields.text === undefined ? undefined : prepareText(context, fields.text),
    metadataChange: fields.metadata === undefined ? undefined : prepareMetadata(context, fields.metadata),
    category: nextCategory(fields.metadata, context),
    expiresAt:
      fields.expirationDate === undefined
        ? undefined
        : fields.expirationDate === null
          ? null
          : expiryInstant(fields.expirationDate, "expirationDate", context.timeZone),
  };
}

export async function updateMemory(
  context: MemoryContext,
  id: string,
  change: string | UpdateFields,
): Promise<UpdateResult> {
  const [updated] = await writeUpdates(context, [planUpdate(context, id, change)]);
  return updated as UpdateResult;
}

/** One memory's change in a batch: its id, and what `update` takes. */
export type BatchUpdate = { readonly memoryId: string } & UpdateFields;

/**
 * Several updates as one (MemoryClient's `batchUpdate`): every change is checked, every memory
 * found and every new text embedded before the one transaction that writes them all — so a bad
 * change or a missing memory writes none.
 */
export async function updateMemories(
  context: MemoryContext,
  updates: readonly BatchUpdate[],
): Promise<UpdateResult[]> {
  if (!Array.isArray(updates)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      "batchUpdate takes a list of { memoryId, text?, metadata?, expirationDate? }.",
    );
  }
  const planned = updates.map((update, index) => {
    if (typeof update !== "object" || update === null) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        `Update ${index} is not { memoryId, text?, metadata?, expirationDate? }.`,
      );
    }
    const { memoryId, ...change } = update;
    return planUpdate(context, memoryId, change);
  });
  return writeUpdates(context, planned);
}

/** Checked changes, written in one transaction; `update` is this with one change. */
async function writeUpdates(
  context: MemoryContext,
  planned: readonly PlannedUpdate[],
): Promise<UpdateResult[]> {
  const ids = planned.map((update) => update.id);
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated !== undefined) {
    throw new LucidError("INVALID_ARGUMENT", `The batch changes ${repeated} twice: give each memory once.`, {
      details: { id: repeated },
    });
  }
  const vectors = new Map<string, Float32Array>();
  /** New texts, each embedded once; what is already embedded is not embedded again. */
  const embedNew = async (texts: readonly string[]) => {
    const missing = [...new Set(texts)].filter((text) => !vectors.has(text));
    if (missing.length === 0) return;
    const embedded = await embedTexts(context, missing, "update");
    for (const [index, text] of missing.entries()) vectors.set(text, embedded[index] as Float32Array);
  };
  /** The texts the rows do not hold yet and no vector is made for; a missing memory refuses all. */
  const textsToEmbed = (rows: ReadonlyMap<string, MemoryRow>) =>
    planned.flatMap(({ id, prepared }) => {
      const row = rows.get(id);
      if (row === undefined) throw memoryNotFound(id);
      return prepared !== undefined && prepared.text !== row.text && !vectors.has(prepared.text)
        ? [prepared.text]
        : [];
    });
  const byId = (rows: readonly MemoryRow[]) => new Map(rows.map((row) => [row.id, row]));

  await embedNew(textsToEmbed(byId(await context.store.getMemories(ids))));
  const now = context.clock.now().toISOString();
  for (;;) {
    const outcome = await context.store.transaction(async (tx) => {
      const latest = byId(await tx.getMemories(ids));
      // Another writer changed a text between the first read and this transaction: embed, then again.
      const needed = textsToEmbed(latest);
      if (needed.length > 0) return { needed };
      const writer = createMemoryWriter(tx, { actor: SDK_ACTOR, at: now, embedder: context.embedderStamp });
      const rows: MemoryRow[] = [];
      for (const update of planned) {
        const current = latest.get(update.id) as MemoryRow;
        const written = await writer.update(update.id, patchOf(update, current, vectors));
        if (written === null) throw memoryNotFound(update.id);
        rows.push(written);
      }
      return { rows };
    });
    if (outcome.needed !== undefined) {
      await embedNew(outcome.needed);
      continue;
    }
    return outcome.rows.map((row, index) => {
      const update = planned[index] as PlannedUpdate;
      return result(
        row,
        [...(update.prepared?.redactions ?? []), ...(update.metadataChange?.redactions ?? [])],
        context.timeZone,
      );
    });
  }
}

/**
 * The change on the row as it is inside the transaction, so a change another writer made meanwhile
 * (a pin while this text was being embedded) is kept, not overwritten.
 */
function patchOf(
  update: PlannedUpdate,
  current: MemoryRow,
  vectors: ReadonlyMap<string, Float32Array>,
): MemoryChange {
  const { prepared, metadataChange, category, expiresAt } = update;
  return {
    ...(prepared === undefined
      ? {}
      : { text: { prepared, embedding: vectors.get(prepared.text) as Float32Array } }),
    ...(metadataChange === undefined
      ? {}
      : { metadata: mergeMetadata(current.metadata, metadataChange.metadata, update.fields.metadata ?? {}) }),
    ...(category === undefined ? {} : { category }),
    ...(expiresAt === undefined ? {} : { expiresAt }),
  };
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
