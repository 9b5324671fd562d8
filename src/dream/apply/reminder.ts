/**
 * The reminder `--auto` leaves when it skipped conflicts: one memory per scope, found again by its
 * `metadata.source` and updated, so repeated runs never pile up reminders (Mem0's dream skill
 * files the same note as `type: task_learning`, `source: mem0-dream-auto`).
 *
 * @module
 */

import { randomUUID } from "node:crypto";
import { filterNode } from "../../filters/filter.js";
import { scopeFilter } from "../../filters/scope-of-filters.js";
import { scopeColumns } from "../../memory/scope.js";
import type { MemoryStoreOps, Scope } from "../../store/store.js";
import { extractEntities } from "../../text/entities.js";
import { contentHash } from "../../text/normalise.js";
import type { RunLog } from "./run-log.js";

export const REMINDER_SOURCE = "lucid-dream-auto";
export const REMINDER_CATEGORY = "task_learning";

export function reminderText(conflicts: number): string {
  return `lucid dream detected ${conflicts} contradiction(s) requiring manual review. Run \`lucid dream\` to resolve them interactively.`;
}

export interface ReminderWrite {
  readonly tx: MemoryStoreOps;
  readonly log: RunLog;
  readonly scope: Scope;
  readonly unresolved: number;
  readonly now: string;
  readonly actor: string;
  readonly embedding: Float32Array;
}

export async function upsertReminder(write: ReminderWrite): Promise<void> {
  const { tx, log, scope, now, actor, embedding } = write;
  const text = reminderText(write.unresolved);
  const filter = filterNode.and([scopeFilter(scope), filterNode.condition("source", "eq", REMINDER_SOURCE)]);
  const { rows } = await tx.listMemories({ filter, limit: 1, offset: 0 });
  const existing = rows[0];
  const metadata = { source: REMINDER_SOURCE, conflicts: write.unresolved };
  if (existing !== undefined) {
    await log.touch(existing.id);
    await tx.updateMemory(existing.id, {
      text,
      hash: contentHash(text),
      category: REMINDER_CATEGORY,
      metadata: { ...existing.metadata, ...metadata },
      updatedAt: now,
      expiresAt: existing.expiresAt,
      embedding,
      entities: extractEntities(text),
    });
    await tx.addHistory({
      memoryId: existing.id,
      action: "UPDATE",
      previousValue: existing.text,
      newValue: text,
      actor,
      createdAt: now,
    });
    return;
  }
  const id = randomUUID();
  await log.touch(id);
  await tx.insertMemory({
    id,
    text,
    hash: contentHash(text),
    ...scopeColumns(scope),
    category: REMINDER_CATEGORY,
    metadata,
    createdAt: now,
    updatedAt: now,
    expiresAt: null,
    embedding,
    entities: extractEntities(text),
  });
  await tx.addHistory({
    memoryId: id,
    action: "ADD",
    previousValue: null,
    newValue: text,
    actor,
    createdAt: now,
  });
}
