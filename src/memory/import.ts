/**
 * `importMemories`: load memories with their ids and timestamps (Lucid or Mem0 exports), a batch at
 * a time: each batch is embedded in one call and written in one transaction, so an interrupted
 * import leaves whole batches and never half a memory. Bad records are reported by position and
 * the others still import.
 *
 * @module
 */

import { randomUUID } from "node:crypto";
import { isLucidError, LucidError } from "../errors.js";
import { SCOPE_KEYS } from "../filters/filter.js";
import { resolveCategory } from "../policy/categories.js";
import type { MemoryStoreOps, NewMemory, Scope } from "../store/store.js";
import { extractEntities } from "../text/entities.js";
import { contentHash } from "../text/normalise.js";
import type { MemoryContext } from "./context.js";
import { embedTexts } from "./embed-texts.js";
import { checkId, checkText, copyMetadata, toIsoTimestamp } from "./inputs.js";
import { requireScopeForAdd, scopeColumns, scopeOfRow } from "./scope.js";
import type { Redaction } from "./secrets-guard.js";
import type { ImportItemResult, ImportOptions, ImportRecord, ImportResult } from "./types.js";

export const IMPORT_ACTOR = "import";
const DEFAULT_BATCH = 64;

type Prepared = Omit<NewMemory, "embedding"> & {
  readonly index: number;
  readonly explicitId: boolean;
  readonly redactions: readonly Redaction[];
};

export async function importMemories(
  context: MemoryContext,
  records: readonly ImportRecord[],
  options: ImportOptions = {},
): Promise<ImportResult> {
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
  const items: ImportItemResult[] = [];
  for (let start = 0; start < records.length; start += batchSize) {
    const batch = records.slice(start, start + batchSize);
    const prepared: Prepared[] = [];
    batch.forEach((record, offset) => {
      const index = start + offset;
      try {
        prepared.push(prepare(context, record, index));
      } catch (error) {
        if (!isLucidError(error)) throw error;
        items.push({ index, status: "failed", error: { code: error.code, message: error.message } });
      }
    });
    items.push(...(await writeBatch(context, prepared, onConflict)));
    options.onProgress?.({ done: Math.min(start + batchSize, records.length), total: records.length });
  }
  items.sort((a, b) => a.index - b.index);
  const count = (status: ImportItemResult["status"]) => items.filter((item) => item.status === status).length;
  return {
    imported: count("imported"),
    replaced: count("replaced"),
    skipped: count("skipped"),
    failed: count("failed"),
    items,
  };
}

/** Validates one record into a memory to write; throws a LucidError naming the problem. */
function prepare(context: MemoryContext, record: ImportRecord, index: number): Prepared {
  if (typeof record !== "object" || record === null) {
    throw new LucidError("INVALID_ARGUMENT", `Record ${index} is not an object.`);
  }
  const { text, redactions } = context.secrets.screen(checkText(record.text, context.maxTextBytes));
  const scope: Scope = {};
  for (const key of SCOPE_KEYS) {
    const value = record[key];
    if (value !== undefined && value !== null) scope[key] = checkId(value, key);
  }
  requireScopeForAdd(scope);
  const metadata = copyMetadata(record.metadata);
  const category = resolveCategory(record.category, metadata, context.categories);
  delete metadata.category;
  const now = context.clock.now().toISOString();
  const createdAt = record.createdAt === undefined ? now : toIsoTimestamp(record.createdAt, "createdAt");
  return {
    index,
    redactions,
    explicitId: record.id !== undefined,
    id: record.id === undefined ? randomUUID() : checkId(record.id),
    text,
    hash: contentHash(text),
    ...scopeColumns(scope),
    category,
    metadata,
    createdAt,
    updatedAt: record.updatedAt === undefined ? createdAt : toIsoTimestamp(record.updatedAt, "updatedAt"),
    expiresAt: record.expiresAt === undefined ? null : toIsoTimestamp(record.expiresAt, "expiresAt"),
    entities: extractEntities(text),
  };
}

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
    toWrite.map((memory) => memory.text),
    "add",
  );
  const now = context.clock.now().toISOString();
  return context.store.transaction(async (tx) => {
    const results: ImportItemResult[] = [...skipped];
    for (const [position, memory] of toWrite.entries()) {
      const { index, explicitId, redactions, ...row } = memory;
      const status = await writeOne(
        tx,
        { ...row, embedding: vectors[position] as Float32Array },
        explicitId,
        onConflict,
        now,
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
  memory: NewMemory,
  explicitId: boolean,
  onConflict: "skip" | "replace",
  now: string,
): Promise<{ kind: "imported" | "replaced" | "skipped"; id: string }> {
  const existing = await tx.getMemory(memory.id);
  if (existing !== null && onConflict === "skip") return { kind: "skipped", id: existing.id };
  if (existing === null && !explicitId) {
    // Without an id to keep, the same text in the same scope is the same memory: don't store it twice.
    const duplicate = await tx.findByHash(scopeOfRow(memory), memory.hash);
    if (duplicate !== null) return { kind: "skipped", id: duplicate.id };
  }
  if (existing !== null) await tx.deleteMemory(existing.id);
  await tx.insertMemory(memory);
  await tx.addHistory({
    memoryId: memory.id,
    action: existing === null ? "ADD" : "UPDATE",
    previousValue: existing?.text ?? null,
    newValue: memory.text,
    actor: IMPORT_ACTOR,
    createdAt: now,
  });
  return { kind: existing === null ? "imported" : "replaced", id: memory.id };
}
