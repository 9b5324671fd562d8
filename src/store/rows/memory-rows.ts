/**
 * The `memories` table's rows, which both backends' tables share column for column: one mapping
 * each way, so a memory is written alike and reads back identically from SQLite and PostgreSQL.
 * Only the drivers' types differ, and the shapes take both (PostgreSQL's int8 `seq` comes back as a
 * string, SQLite's as a number).
 *
 * @module
 */

import type { MemoryPatch, MemoryRow } from "../ports/memories.js";
import type { CandidateRow } from "../ports/search.js";

/** A `memories` row as a backend selects it (its MEMORY_COLUMNS). */
export interface MemoryRecordRow {
  /** A number from SQLite; PostgreSQL's int8, a string. */
  seq: number | string;
  id: string;
  text: string;
  hash: string;
  user_id: string | null;
  agent_id: string | null;
  app_id: string | null;
  run_id: string | null;
  category: string | null;
  metadata: string;
  created_at: string;
  updated_at: string;
  expires_at: string | null;
  thread: string | null;
  thread_position: number | null;
  actor_id: string | null;
}

export function toMemoryRow(row: MemoryRecordRow): MemoryRow {
  return {
    id: row.id,
    text: row.text,
    hash: row.hash,
    user_id: row.user_id,
    agent_id: row.agent_id,
    app_id: row.app_id,
    run_id: row.run_id,
    category: row.category,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
    // Only when set, so a row without a conversation reads back exactly as it was written.
    ...(row.thread === null ? {} : { thread: row.thread, threadPosition: row.thread_position }),
    ...(row.actor_id === null ? {} : { actorId: row.actor_id }),
  };
}

/**
 * A memory's column values in the order every backend's `insert into memories(…)` lists them after
 * `seq`: id, text, hash, user_id, agent_id, app_id, run_id, category, metadata, created_at,
 * updated_at, expires_at, thread, thread_position, actor_id. A position is kept only with a thread.
 */
export function memoryValues(memory: MemoryRow): unknown[] {
  return [
    memory.id,
    memory.text,
    memory.hash,
    memory.user_id,
    memory.agent_id,
    memory.app_id,
    memory.run_id,
    memory.category,
    JSON.stringify(memory.metadata),
    memory.createdAt,
    memory.updatedAt,
    memory.expiresAt,
    memory.thread ?? null,
    memory.thread === undefined || memory.thread === null ? null : (memory.threadPosition ?? 0),
    memory.actorId ?? null,
  ];
}

/**
 * An update's column values in the order every backend's `update memories set …` lists them: text,
 * hash, category, metadata, updated_at, expires_at.
 */
export function patchValues(patch: MemoryPatch): unknown[] {
  return [
    patch.text,
    patch.hash,
    patch.category,
    JSON.stringify(patch.metadata),
    patch.updatedAt,
    patch.expiresAt,
  ];
}

/** The narrow read of a memory that search ranks candidates with (`text` only when asked for). */
export interface CandidateRecordRow {
  id: string;
  thread: string | null;
  thread_position: number | null;
  actor_id: string | null;
  created_at: string;
  text?: string;
}

export function toCandidateRow(row: CandidateRecordRow): CandidateRow {
  return {
    id: row.id,
    thread: row.thread,
    threadPosition: row.thread_position,
    actorId: row.actor_id,
    createdAt: row.created_at,
    ...(row.text === undefined ? {} : { text: row.text }),
  };
}
