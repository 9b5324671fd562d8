/**
 * Hand-made snapshots for analyser and planner tests: rows with sensible defaults, no store.
 */

import { buildSnapshot } from "../../src/dream/build-snapshot.js";
import type { DreamSnapshot } from "../../src/dream/snapshot.js";
import type { MemoryRow } from "../../src/store/ports/memories.js";
import { contentHash } from "../../src/text/normalise.js";

export const NOW = "2026-11-30T12:00:00.000Z";

let counter = 0;

export interface RowInput {
  id?: string;
  text: string;
  category?: string | null;
  metadata?: Record<string, unknown>;
  createdAt?: string;
  expiresAt?: string | null;
}

export function row(input: RowInput | string): MemoryRow {
  const given = typeof input === "string" ? { text: input } : input;
  const createdAt = given.createdAt ?? "2026-11-29T12:00:00.000Z";
  return {
    id: given.id ?? `m${String(++counter).padStart(4, "0")}`,
    text: given.text,
    hash: contentHash(given.text),
    user_id: "alice",
    agent_id: null,
    app_id: null,
    run_id: null,
    category: given.category ?? null,
    metadata: given.metadata ?? {},
    createdAt,
    updatedAt: createdAt,
    expiresAt: given.expiresAt ?? null,
  };
}

export function snapshotOf(
  rows: readonly (MemoryRow | RowInput | string)[],
  options: { now?: string; vectors?: Map<string, Float32Array> } = {},
): DreamSnapshot {
  return buildSnapshot({
    scope: { user_id: "alice" },
    now: options.now ?? NOW,
    rows: rows.map((r) => (typeof r === "object" && "hash" in r ? r : row(r))),
    vectors: options.vectors ?? new Map(),
  });
}
