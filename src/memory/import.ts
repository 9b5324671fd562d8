/**
 * `importMemories`: load memories with their ids and timestamps (Lucid or Mem0 exports), a batch at
 * a time: each batch is embedded in one call and written in one transaction, so an interrupted
 * import leaves whole batches and never half a memory. Bad records are reported by position and
 * the others still import.
 *
 * @module
 */

import { randomUUID } from "node:crypto";
import type { MemoryContext } from "../core/context.js";
import { embedTexts } from "../core/embed-texts.js";
import { checkId, toIsoTimestamp } from "../core/inputs.js";
import {
  checkWritableScope,
  requireScope,
  SCOPE_KEYS,
  type Scope,
  sameOwner,
  scopeFromOptions,
} from "../core/scope.js";
import { type Redaction, secretsGuardOf } from "../core/secrets-guard.js";
import { createMemoryWriter, type MemoryWriter, type NewMemoryInput } from "../core/write/memory-writer.js";
import { prepareMetadata } from "../core/write/prepare-metadata.js";
import { prepareText } from "../core/write/prepare-text.js";
import { isLucidError, LucidError } from "../errors.js";
import { resolveCategory } from "../policy/categories.js";
import type { MemoryStoreOps } from "../store/store.js";
import { expiryInstant } from "../text/expiry-date.js";
import { IMPORT_ACTOR } from "./actor.js";
import { importRecordOf, recordScope } from "./import-input/import-fields.js";
import { mixedThreads } from "./import-input/import-threads.js";
import { parseImportText, recordsOfDocument } from "./import-input/parse-import-text.js";
import type { ImportInput, ImportItemResult, ImportOptions, ImportRecord, ImportResult } from "./types.js";

const DEFAULT_BATCH = 64;

type Prepared = Omit<NewMemoryInput, "embedding"> & {
  readonly index: number;
  readonly explicitId: boolean;
  /** Credentials taken out of the text and the metadata. */
  readonly redactions: readonly Redaction[];
};

export async function importMemories(
  context: MemoryContext,
  input: ImportInput,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const slots = importSlots(input);
  const defaultScope = scopeFromOptions(options);
  const onConflict = options.onConflict ?? "skip";
  if (onConflict !== "skip" && onConflict !== "replace") {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `onConflict must be "skip" or "replace", got ${JSON.stringify(onConflict)}.`,
    );
  }
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new LucidError("INVALID_ARGUMENT", `batchSize must be a positive integer, got ${batchSize}.`);
  }
  const refusedThreads = mixedThreads(
    slots.map((slot) => ("record" in slot ? withDefaultScope(slot.record, defaultScope) : undefined)),
  );
  const prepareAt = (index: number): Prepared | SlotFailure => {
    const refused = refusedThreads.get(index);
    return refused === undefined
      ? prepareSlot(context, slots[index] as ImportSlot, index, defaultScope)
      : { error: refused };
  };
  // Strict: every record is prepared (and checked against the store's owners) before any batch is
  // written, and those are the ones written.
  const preparedFirst =
    options.strict === true
      ? await checkedAll(
          context,
          slots,
          slots.map((_, index) => prepareAt(index)),
          onConflict,
        )
      : [];
  const items: ImportItemResult[] = [];
  for (let start = 0; start < slots.length; start += batchSize) {
    const prepared: Prepared[] = [];
    for (let index = start; index < Math.min(start + batchSize, slots.length); index++) {
      const outcome = preparedFirst[index] ?? prepareAt(index);
      if ("error" in outcome) items.push({ index, status: "failed", error: outcome.error });
      else prepared.push(outcome);
    }
    const foreign =
      options.strict === true ? new Map() : await claimedByOthers(context, prepared, onConflict);
    for (const [index, error] of foreign) items.push({ index, status: "failed", error });
    items.push(
      ...(await writeBatch(
        context,
        prepared.filter((memory) => !foreign.has(memory.index)),
        onConflict,
      )),
    );
    options.onProgress?.({ done: Math.min(start + batchSize, slots.length), total: slots.length });
  }
  items.sort((a, b) => a.index - b.index);
  for (const item of items) {
    const line = slots[item.index]?.line;
    if (line !== undefined) item.line = line;
  }
  const count = (status: ImportItemResult["status"]) => items.filter((item) => item.status === status).length;
  return {
    imported: count("imported"),
    replaced: count("replaced"),
    skipped: count("skipped"),
    failed: count("failed"),
    items,
  };
}

/** One entry of the input: the record it holds, or why it holds none; `line` for text input. */
type ImportSlot =
  | { readonly record: ImportRecord; readonly line?: number }
  | { readonly error: { code: string; message: string }; readonly line?: number };

/**
 * The entries of an import: records under Lucid's or Mem0's field names, a Mem0 dump
 * (`{ results: [...] }`), or a file's text in any format `parseImportText` reads.
 */
function importSlots(input: ImportInput): ImportSlot[] {
  if (typeof input === "string") {
    const { records, errors } = parseImportText(input);
    return [
      ...records.map((entry) => ({ record: entry.record, line: entry.line })),
      ...errors.map((error) => ({ error: { code: error.code, message: error.message }, line: error.line })),
    ].sort((a, b) => a.line - b.line);
  }
  const list = recordsOfDocument(input);
  if (list === undefined) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      "importMemories takes a list of records, a Mem0 dump ({ results: [...] }) or an export file's text.",
    );
  }
  return list.map((value, index) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return { error: { code: "INVALID_ARGUMENT", message: `Record ${index} is not an object.` } };
    }
    try {
      return { record: importRecordOf(value as Record<string, unknown>) };
    } catch (error) {
      return { error: { code: "INVALID_ARGUMENT", message: `Record ${index} ${(error as Error).message}` } };
    }
  });
}

/** Why a record cannot be a memory. */
type SlotFailure = { readonly error: { code: string; message: string } };

/** A slot as a memory ready to write, or why it cannot be one. */
function prepareSlot(
  context: MemoryContext,
  slot: ImportSlot,
  index: number,
  scope: Scope,
): Prepared | SlotFailure {
  if ("error" in slot) return { error: slot.error };
  try {
    return prepare(context, withDefaultScope(slot.record, scope), index);
  } catch (error) {
    if (!isLucidError(error)) throw error;
    return { error: { code: error.code, message: error.message } };
  }
}

/** `strict`: any record that cannot be a memory refuses them all, before anything is written. */
function refuseInvalid(
  slots: readonly ImportSlot[],
  outcomes: readonly (Prepared | SlotFailure)[],
): Prepared[] {
  const failures = outcomes.flatMap((outcome, index) => {
    if (!("error" in outcome)) return [];
    const line = slots[index]?.line;
    return [{ index, ...(line === undefined ? {} : { line }), ...outcome.error }];
  });
  const [first] = failures;
  if (first === undefined) return outcomes as Prepared[];
  const where = first.line === undefined ? `record ${first.index + 1}` : `line ${first.line}`;
  throw new LucidError(
    "INVALID_ARGUMENT",
    `${failures.length} of ${slots.length} records cannot be imported, so none was (${where}: ${first.message}). Fix them, or leave them out, and import again.`,
    { details: { failures } },
  );
}

/** Strict: every record prepared and none replacing another owner's memory, or nothing is written. */
async function checkedAll(
  context: MemoryContext,
  slots: readonly ImportSlot[],
  outcomes: readonly (Prepared | SlotFailure)[],
  onConflict: "skip" | "replace",
): Promise<Prepared[]> {
  const prepared = refuseInvalid(slots, outcomes);
  const foreign = await claimedByOthers(context, prepared, onConflict);
  return refuseInvalid(
    slots,
    prepared.map((memory) => {
      const error = foreign.get(memory.index);
      return error === undefined ? memory : { error };
    }),
  );
}

/**
 * Records that would replace a memory of another owner (the id is taken by a memory whose full
 * scope differs from the record's): replacing it would move that memory into the importer's scope,
 * its old text still in the history the importer can read. Skipping writes nothing, so only
 * `replace` is checked.
 */
async function claimedByOthers(
  context: MemoryContext,
  prepared: readonly Prepared[],
  onConflict: "skip" | "replace",
): Promise<Map<number, SlotFailure["error"]>> {
  const refused = new Map<number, SlotFailure["error"]>();
  if (onConflict !== "replace" || prepared.length === 0) return refused;
  const stored = new Map(
    (await context.store.getMemories(prepared.map((memory) => memory.id))).map((row) => [row.id, row]),
  );
  for (const memory of prepared) {
    const existing = stored.get(memory.id);
    if (existing === undefined || sameOwner(existing, memory.scope)) continue;
    refused.set(memory.index, {
      code: "INVALID_ARGUMENT",
      message: `The id ${JSON.stringify(memory.id)} is a memory of another scope, and an import replaces only memories of the record's own scope. Leave "id" out to import it as a new memory.`,
    });
  }
  return refused;
}

/** A record that names no scope gets the import's (`options.userId`…). */
function withDefaultScope(record: ImportRecord, scope: Scope): ImportRecord {
  return SCOPE_KEYS.some((key) => record[key] !== undefined) ? record : { ...record, ...scope };
}

/** Validates one record into a memory to write; throws a LucidError naming the problem. */
function prepare(context: MemoryContext, record: ImportRecord, index: number): Prepared {
  if (typeof record !== "object" || record === null) {
    throw new LucidError("INVALID_ARGUMENT", `Record ${index} is not an object.`);
  }
  const text = prepareText(context, record.text);
  const scope = recordScope(record);
  requireScope(scope, "import");
  checkWritableScope(scope);
  const { metadata, redactions: metadataRedactions } = prepareMetadata(context, record.metadata);
  const category = resolveCategory(
    record.category,
    metadata,
    context.policy.categories,
    context.policy.strictCategories,
  );
  delete metadata.category;
  const now = context.clock.now().toISOString();
  const createdAt = record.createdAt === undefined ? now : toIsoTimestamp(record.createdAt, "createdAt");
  return {
    index,
    explicitId: record.id !== undefined,
    redactions: [...text.redactions, ...metadataRedactions],
    id: record.id === undefined ? randomUUID() : checkId(record.id),
    text,
    scope,
    category,
    metadata,
    createdAt,
    updatedAt: record.updatedAt === undefined ? createdAt : toIsoTimestamp(record.updatedAt, "updatedAt"),
    expiresAt:
      record.expiresAt === undefined ? null : expiryInstant(record.expiresAt, "expiresAt", context.timeZone),
    ...threadOf(record),
    ...(record.actorId === undefined ? {} : { actorId: secretsGuardOf(context).screen(record.actorId).text }),
  };
}

/** A record's thread, checked: a thread needs a non-negative integer position, and the other way round. */
function threadOf(record: ImportRecord): { thread?: { key: string; position: number } } {
  if (record.thread === undefined && record.threadPosition === undefined) return {};
  const position = record.threadPosition ?? 0;
  const key = record.thread;
  // As long as a thread Lucid makes can be: "run:" and a scope key of four ids.
  if (
    typeof key !== "string" ||
    key.trim() === "" ||
    key.length > MAX_THREAD_LENGTH ||
    !Number.isInteger(position) ||
    position < 0
  ) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `thread must be a non-empty string of at most ${MAX_THREAD_LENGTH} characters and thread_position a non-negative integer, got ${JSON.stringify(key)?.slice(0, 80)} and ${JSON.stringify(record.threadPosition)}.`,
    );
  }
  return { thread: { key, position } };
}

const MAX_THREAD_LENGTH = 1024;

async function writeBatch(
  context: MemoryContext,
  prepared: readonly Prepared[],
  onConflict: "skip" | "replace",
): Promise<ImportItemResult[]> {
  // Re-running an interrupted import skips what is already there without embedding it again.
  const known =
    onConflict === "skip" ? await context.store.getMemories(prepared.map((memory) => memory.id)) : [];
  const knownIds = new Set(known.map((row) => row.id));
  const skipped: ImportItemResult[] = prepared
    .filter((memory) => knownIds.has(memory.id))
    .map((memory) => ({ index: memory.index, status: "skipped", id: memory.id }));
  const toWrite = prepared.filter((memory) => !knownIds.has(memory.id));
  if (toWrite.length === 0) return skipped;
  const vectors = await embedTexts(
    context,
    toWrite.map((memory) => memory.text.text),
    "add",
  );
  const at = context.clock.now().toISOString();
  return context.store.transaction(async (tx) => {
    const writer = createMemoryWriter(tx, { actor: IMPORT_ACTOR, at, embedder: context.embedderStamp });
    const results: ImportItemResult[] = [...skipped];
    for (const [position, memory] of toWrite.entries()) {
      const { index, explicitId, redactions, ...input } = memory;
      const status = await writeOne(
        tx,
        writer,
        { ...input, embedding: vectors[position] as Float32Array },
        explicitId,
        onConflict,
      );
      results.push({
        index,
        status: status.kind,
        id: status.id,
        ...(redactions.length > 0 ? { redactions: [...redactions] } : {}),
      });
    }
    return results;
  });
}

async function writeOne(
  tx: MemoryStoreOps,
  writer: MemoryWriter,
  memory: NewMemoryInput,
  explicitId: boolean,
  onConflict: "skip" | "replace",
): Promise<{ kind: "imported" | "replaced" | "skipped"; id: string }> {
  const existing = await tx.getMemory(memory.id);
  if (existing !== null && onConflict === "skip") return { kind: "skipped", id: existing.id };
  if (existing === null && !explicitId) {
    // Without an id to keep, the same text in the same scope is the same memory: don't store it twice.
    const duplicate = await tx.findByHash(memory.scope, memory.text.hash);
    if (duplicate !== null) return { kind: "skipped", id: duplicate.id };
  }
  await writer.replace(memory);
  return { kind: existing === null ? "imported" : "replaced", id: memory.id };
}
