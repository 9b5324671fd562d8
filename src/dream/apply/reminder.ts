/**
 * The reminder `--auto` leaves when it skipped conflicts: one memory per scope, found again by its
 * `metadata.source` and updated, so repeated runs never pile up reminders (Mem0's dream skill
 * files the same note as `type: task_learning`, `source: mem0-dream-auto`).
 *
 * @module
 */

import { randomUUID } from "node:crypto";
import type { Scope } from "../../core/scope.js";
import type { MemoryWriter } from "../../core/write/memory-writer.js";
import type { PreparedText } from "../../core/write/prepare-text.js";
import { filterNode } from "../../filters/filter.js";
import { ownerFilter } from "../../filters/scope-of-filters.js";
import type { MemoryStoreOps } from "../../store/store.js";
import type { RunLog } from "./run-log.js";

export const REMINDER_SOURCE = "lucid-dream-auto";
export const REMINDER_CATEGORY = "task_learning";

export function reminderText(conflicts: number): string {
  return `lucid dream detected ${conflicts} contradiction(s) requiring manual review. Run \`lucid dream\` to resolve them interactively.`;
}

export interface ReminderWrite {
  readonly tx: MemoryStoreOps;
  readonly writer: MemoryWriter;
  readonly log: RunLog;
  readonly scope: Scope;
  readonly unresolved: number;
  /** `reminderText(unresolved)`, through the write path. */
  readonly text: PreparedText;
  readonly embedding: Float32Array;
}

export async function upsertReminder(write: ReminderWrite): Promise<void> {
  const { tx, writer, log, scope, text, embedding } = write;
  // The scope's own reminder, not one of a narrower owner inside it (a dream of `agent_id=main` must
  // not rewrite the reminder a dream of `user_id=alice agent_id=main` left in alice's memories).
  const filter = filterNode.and([ownerFilter(scope), filterNode.condition("source", "eq", REMINDER_SOURCE)]);
  const { rows } = await tx.listMemories({ filter, limit: 1, offset: 0 });
  const existing = rows[0];
  const metadata = { source: REMINDER_SOURCE, conflicts: write.unresolved };
  if (existing !== undefined) {
    await log.touch(existing.id);
    await writer.update(existing.id, {
      text: { prepared: text, embedding },
      category: REMINDER_CATEGORY,
      metadata: { ...existing.metadata, ...metadata },
    });
    return;
  }
  const id = randomUUID();
  await log.touch(id);
  await writer.insert({
    id,
    text,
    scope,
    category: REMINDER_CATEGORY,
    metadata,
    createdAt: writer.stamp.at,
    updatedAt: writer.stamp.at,
    expiresAt: null,
    embedding,
  });
}
