import type { MemoryRow } from "../store/ports/memories.js";
import { expiryDay } from "../text/expiry-date.js";
import type { MemoryItem } from "./types.js";

/**
 * A stored row in the shape Mem0 returns: scope keys at the top level, only when set; an expiry as
 * the instant (`expiresAt`) and, as Mem0 has it, the last day visible in `timeZone` (`expiration_date`).
 */
export function toMemoryItem(row: MemoryRow, timeZone = "UTC"): MemoryItem {
  const item: MemoryItem = {
    id: row.id,
    memory: row.text,
    hash: row.hash,
    metadata: row.category === null ? { ...row.metadata } : { ...row.metadata, category: row.category },
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
  if (row.expiresAt !== null) {
    item.expiresAt = row.expiresAt;
    item.expiration_date = expiryDay(row.expiresAt, timeZone);
  }
  if (row.user_id !== null) item.user_id = row.user_id;
  if (row.agent_id !== null) item.agent_id = row.agent_id;
  if (row.app_id !== null) item.app_id = row.app_id;
  if (row.run_id !== null) item.run_id = row.run_id;
  if (row.actorId !== undefined && row.actorId !== null) item.actor_id = row.actorId;
  return item;
}
