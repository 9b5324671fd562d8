/**
 * The second half of the one write path: inside a store transaction, insert, update, replace,
 * remove or restore a memory together with its vector, entity links, keyword entry and history
 * row. Every service writes memories through this, so none can forget the history row or store a
 * text that did not pass `prepareText`.
 *
 * @module
 */

import { LucidError } from "../../errors.js";
import type { EmbedderStamp } from "../../store/ports/maintenance.js";
import type { MemoryPatch, MemoryRow } from "../../store/ports/memories.js";
import type { MemoryPreimage } from "../../store/ports/runs.js";
import type { MemoryStoreOps } from "../../store/store.js";
import { embedderMismatch } from "../embed-texts.js";
import { checkWritableScope, type Scope, scopeColumns } from "../scope.js";
import type { PreparedText } from "./prepare-text.js";

/** Who writes, and when: every history row of the writer's changes carries both. */
export interface WriteStamp {
  /** `user` for SDK calls, `import`, `dream:<run-id>`… */
  readonly actor: string;
  /** ISO-8601: the history rows' time, and the default update time. */
  readonly at: string;
  /**
   * The embedder the vectors written come from. The first vector the writer writes checks it against
   * the store's, inside the transaction: a store another process re-embedded meanwhile is refused.
   */
  readonly embedder: EmbedderStamp;
}

export interface NewMemoryInput {
  readonly id: string;
  readonly text: PreparedText;
  readonly scope: Scope;
  readonly category: string | null;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly expiresAt: string | null;
  /** The vector of exactly `text.text`. */
  readonly embedding: Float32Array;
  /** The conversation it came from and its place there (see `MemoryRow.thread`). */
  readonly thread?: { readonly key: string; readonly position: number };
  /** Who said it (a message's `name`), already screened for secrets. */
  readonly actorId?: string;
}

/** What an update changes; what it leaves out stays as it is. */
export interface MemoryChange {
  /** A new text, with the vector of exactly that text. */
  readonly text?: { readonly prepared: PreparedText; readonly embedding: Float32Array };
  readonly category?: string | null;
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly expiresAt?: string | null;
  /** Default: the stamp's time. */
  readonly updatedAt?: string;
}

export interface MemoryWriter {
  readonly stamp: WriteStamp;
  /** Stores a new memory; an ADD history row. */
  insert(memory: NewMemoryInput): Promise<MemoryRow>;
  /**
   * Changes a memory as it is now, inside the transaction: `change` may be a function of the
   * current row (a metadata merge reads the row it merges into). Null when there is no such memory.
   */
  update(
    id: string,
    change: MemoryChange | ((current: MemoryRow) => MemoryChange),
  ): Promise<MemoryRow | null>;
  /** Puts `memory` in the place of the memory with its id (an import's `replace`); an UPDATE row. */
  replace(memory: NewMemoryInput): Promise<MemoryRow>;
  /** Deletes a memory; a DELETE history row. Null when there is no such memory. */
  remove(id: string): Promise<MemoryRow | null>;
  /**
   * Puts a memory back exactly as a preimage holds it (row, vector, entity links), over whatever is
   * there now; an ADD or UPDATE row. `embedding` stands in when the preimage has no vector.
   */
  restore(preimage: MemoryPreimage, embedding?: Float32Array): Promise<void>;
}

/**
 * @example
 * await context.store.transaction(async (tx) => {
 *   const writer = createMemoryWriter(tx, { actor: "user", at: now });
 *   await writer.insert({ id, text: prepareText(context, "User prefers tabs"), scope, … });
 * });
 */
export function createMemoryWriter(tx: MemoryStoreOps, stamp: WriteStamp): MemoryWriter {
  let checked: Promise<void> | undefined;
  const vectorsMatch = () => {
    checked ??= tx.embedderStamp().then((stored) => {
      const mismatch = embedderMismatch(stored, stamp.embedder, "The store");
      if (mismatch !== undefined) throw mismatch;
    });
    return checked;
  };
  const history = (
    memoryId: string,
    action: "ADD" | "UPDATE" | "DELETE",
    before: string | null,
    after: string | null,
    changed?: readonly string[],
  ) =>
    tx.addHistory({
      memoryId,
      action,
      previousValue: before,
      newValue: after,
      actor: stamp.actor,
      createdAt: stamp.at,
      ...(changed === undefined ? {} : { changed }),
    });

  const rowOf = (memory: NewMemoryInput): MemoryRow => ({
    id: memory.id,
    text: memory.text.text,
    hash: memory.text.hash,
    ...scopeColumns(memory.scope),
    category: memory.category,
    metadata: memory.metadata,
    createdAt: memory.createdAt,
    updatedAt: memory.updatedAt,
    expiresAt: memory.expiresAt,
    ...(memory.thread === undefined
      ? {}
      : { thread: memory.thread.key, threadPosition: memory.thread.position }),
    ...(memory.actorId === undefined ? {} : { actorId: memory.actorId }),
  });

  const write = async (memory: NewMemoryInput): Promise<MemoryRow> => {
    checkWritableScope(memory.scope);
    await vectorsMatch();
    const row = rowOf(memory);
    await tx.insertMemory({ ...row, embedding: memory.embedding, entities: memory.text.entities });
    return row;
  };

  return {
    stamp,

    async insert(memory) {
      const row = await write(memory);
      await history(row.id, "ADD", null, row.text);
      return row;
    },

    async update(id, change) {
      const current = await tx.getMemory(id);
      if (current === null) return null;
      const fields = typeof change === "function" ? change(current) : change;
      const text = fields.text;
      if (text !== undefined && text.prepared.text !== current.text) await vectorsMatch();
      const patch: MemoryPatch = {
        text: text?.prepared.text ?? current.text,
        hash: text?.prepared.hash ?? current.hash,
        category: fields.category === undefined ? current.category : fields.category,
        metadata: fields.metadata ?? current.metadata,
        updatedAt: fields.updatedAt ?? stamp.at,
        expiresAt: fields.expiresAt === undefined ? current.expiresAt : fields.expiresAt,
        ...(text === undefined || text.prepared.text === current.text
          ? {}
          : { embedding: text.embedding, entities: text.prepared.entities }),
      };
      await tx.updateMemory(id, patch);
      await history(id, "UPDATE", current.text, patch.text, changedFields(current, patch));
      const { embedding: _embedding, entities: _entities, ...fieldsNow } = patch;
      return { ...current, ...fieldsNow };
    },

    async replace(memory) {
      const current = await tx.getMemory(memory.id);
      if (current !== null) await tx.deleteMemory(memory.id);
      const row = await write(memory);
      await history(row.id, current === null ? "ADD" : "UPDATE", current?.text ?? null, row.text);
      return row;
    },

    async remove(id) {
      const current = await tx.getMemory(id);
      if (current === null) return null;
      await tx.deleteMemory(id);
      await history(id, "DELETE", current.text, null);
      return current;
    },

    async restore(preimage, embedding) {
      const { row } = preimage;
      const current = await tx.getMemory(row.id);
      if (current !== null) await tx.deleteMemory(row.id);
      await vectorsMatch();
      const vector = preimage.embedding ?? embedding;
      if (vector === undefined) {
        throw new LucidError(
          "INTERNAL",
          `Cannot restore memory ${row.id}: its preimage has no vector and none was given.`,
        );
      }
      await tx.insertMemory({ ...row, embedding: vector, entities: preimage.entities });
      await history(row.id, current === null ? "ADD" : "UPDATE", current?.text ?? null, row.text);
    },
  };
}

/** What an update changed, by name: `text`, `category`, `expiresAt`, and each `metadata.<key>`. */
function changedFields(before: MemoryRow, after: MemoryPatch): string[] {
  const changed: string[] = [];
  if (after.text !== before.text) changed.push("text");
  if (after.category !== before.category) changed.push("category");
  if (after.expiresAt !== before.expiresAt) changed.push("expiresAt");
  const keys = new Set([...Object.keys(before.metadata), ...Object.keys(after.metadata)]);
  for (const key of [...keys].sort()) {
    if (JSON.stringify(before.metadata[key]) !== JSON.stringify(after.metadata[key]))
      changed.push(`metadata.${key}`);
  }
  return changed;
}
