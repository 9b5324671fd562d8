/**
 * The store as a whole, in SQLite: its embedder, re-embedding to another one, counts for
 * `status`, `reset` and `compact` (the maintenance sub-port).
 *
 * @module
 */

import type Database from "better-sqlite3";
import type { MaintenancePort } from "../ports/maintenance.js";
import { embedderMismatch } from "../store-errors.js";
import type { SqliteMemories } from "./sqlite-memories.js";
import type { SqliteMeta } from "./sqlite-meta.js";
import {
  beginReembed,
  countUnembedded,
  EMBEDDER_DIMENSION_KEY,
  EMBEDDER_ID_KEY,
  finishReembed,
  readPending,
  readStamp,
} from "./sqlite-reembed.js";
import { createVectorTable, PENDING_VECTOR_TABLE } from "./sqlite-schema.js";
import { readStats } from "./sqlite-stats.js";
import type { StatementCache } from "./statement-cache.js";
import type { SyncPort } from "./sync-port.js";

export interface MaintenanceInput {
  readonly db: Database.Database;
  readonly statements: StatementCache;
  readonly meta: SqliteMeta;
  readonly memories: SqliteMemories;
  readonly location: string;
  /** One write transaction around `fn`. */
  readonly atomically: <T>(fn: () => T) => T;
}

export function createSqliteMaintenance(input: MaintenanceInput): SyncPort<MaintenancePort> {
  const { db, statements, meta, memories, location, atomically } = input;
  return {
    stats: (visibility) => readStats(statements, location, visibility),

    bindEmbedder(stamp) {
      const recorded = readStamp(meta);
      if (recorded === null) {
        if (db.readonly) return;
        atomically(() => {
          meta.set(EMBEDDER_ID_KEY, stamp.id);
          meta.set(EMBEDDER_DIMENSION_KEY, String(stamp.dimension));
          createVectorTable(db, stamp.dimension);
        });
        return;
      }
      if (recorded.id !== stamp.id || recorded.dimension !== stamp.dimension) {
        throw embedderMismatch(location, recorded, stamp);
      }
    },

    beginReembed: (target) => atomically(() => beginReembed(db, meta, target)),

    pendingReembed() {
      const target = readPending(meta);
      return target === null ? null : { target, remaining: countUnembedded(db) };
    },

    listUnembedded: (limit) => (readPending(meta) === null ? [] : memories.listUnembedded(limit)),

    writeReembedded: (vectors) => atomically(() => memories.writePending(vectors)),

    finishReembed() {
      atomically(() => finishReembed(db, meta, location));
      // The vector table was replaced: statements prepared against the old one are stale.
      statements.clear();
    },

    reset() {
      atomically(() =>
        db.exec(`
          delete from memory_entities; delete from entities; delete from memories;
          delete from history; delete from messages;
          delete from run_files; delete from run_memories; delete from runs; delete from dream_state;
          delete from dream_sessions; delete from dream_leases; delete from recalls;
          delete from sleep_state; delete from sleep_events;
          delete from note_files; delete from note_chunks; delete from note_chunks_fts;
          drop table if exists memories_vec; drop table if exists ${PENDING_VECTOR_TABLE};
          delete from meta where key like 'embedder.%' or key like 'reembed.%';
        `),
      );
      statements.clear();
    },

    compact() {
      // FTS5 keeps a deleted row's terms in its segments until they are merged; `optimize` merges
      // them all. VACUUM then rewrites the file without its free pages, and the checkpoint empties
      // the write-ahead log, which still holds the old pages.
      // (A neighbour's window held a deleted memory's words too: the same index.)
      db.exec("insert into memories_fts(memories_fts) values ('optimize')");
      db.exec("vacuum");
      statements.clear();
      const [checkpoint] = db.pragma("wal_checkpoint(TRUNCATE)") as { busy: number }[];
      return { complete: checkpoint === undefined || checkpoint.busy === 0 };
    },
  };
}
