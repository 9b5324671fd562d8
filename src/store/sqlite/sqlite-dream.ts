/**
 * Dream bookkeeping in SQLite: run records with the preimages undo restores, the auto-dream gate's
 * per-scope state and sessions, and the per-scope lease that keeps two dreamers apart.
 *
 * @module
 */

import type {
  DreamGateState,
  DreamRunRecord,
  EntityLink,
  Lease,
  LeaseHolder,
  LeaseResult,
  MemoryPreimage,
  RunMemory,
} from "../store.js";
import type { StatementCache } from "./statement-cache.js";

interface RunRow {
  seq: number;
  id: string;
  scope_key: string;
  scope: string;
  mode: string;
  plan: string;
  decisions: string;
  outcome: string;
  started_at: string;
  committed_at: string;
  undone_at: string | null;
}

interface RunMemoryRow {
  memory_id: string;
  before_row: string | null;
  before_embedding: Buffer | null;
  before_entities: string | null;
  after_hash: string | null;
  after_updated_at: string | null;
}

interface LeaseRow {
  holder: string;
  host: string;
  pid: number;
  acquired_at: string;
  expires_at: string;
}

export class SqliteDream {
  constructor(private readonly statements: StatementCache) {}

  entityLinks(memoryId: string): EntityLink[] {
    return this.statements
      .get(
        `select e.key as key, e.name as name, e.type as type from memories m
         join memory_entities me on me.memory_seq = m.seq join entities e on e.seq = me.entity_seq
         where m.id = ? order by e.key`,
      )
      .all(memoryId) as EntityLink[];
  }

  insertRun(run: DreamRunRecord, memories: readonly RunMemory[]): void {
    const { seq } = this.statements
      .get(
        `insert into dream_runs(id, scope_key, scope, mode, plan, decisions, outcome, started_at, committed_at, undone_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning seq`,
      )
      .get(
        run.id,
        run.scopeKey,
        JSON.stringify(run.scope),
        run.mode,
        JSON.stringify(run.plan),
        JSON.stringify(run.decisions),
        JSON.stringify(run.outcome),
        run.startedAt,
        run.committedAt,
        run.undoneAt,
      ) as { seq: number };
    const insert = this.statements.get(
      `insert into dream_run_memories(run_seq, memory_id, before_row, before_embedding, before_entities, after_hash, after_updated_at)
       values (?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const memory of memories) {
      const before = memory.before;
      insert.run(
        seq,
        memory.memoryId,
        before === null ? null : JSON.stringify(before.row),
        before?.embedding == null
          ? null
          : Buffer.from(before.embedding.buffer, before.embedding.byteOffset, before.embedding.byteLength),
        before === null ? null : JSON.stringify(before.entities),
        memory.after?.hash ?? null,
        memory.after?.updatedAt ?? null,
      );
    }
  }

  getRun(id: string): { run: DreamRunRecord; memories: RunMemory[] } | null {
    const row = this.statements.get("select * from dream_runs where id = ?").get(id) as RunRow | undefined;
    if (row === undefined) return null;
    const memories = this.statements
      .get("select * from dream_run_memories where run_seq = ? order by memory_id")
      .all(row.seq) as RunMemoryRow[];
    return { run: toRun(row), memories: memories.map(toRunMemory) };
  }

  listRuns(scopeKey: string | null, limit: number): DreamRunRecord[] {
    const rows = (
      scopeKey === null
        ? this.statements.get("select * from dream_runs order by seq desc limit ?").all(limit)
        : this.statements
            .get("select * from dream_runs where scope_key = ? order by seq desc limit ?")
            .all(scopeKey, limit)
    ) as RunRow[];
    return rows.map(toRun);
  }

  markUndone(id: string, at: string): void {
    this.statements.get("update dream_runs set undone_at = ? where id = ?").run(at, id);
  }

  gateState(scopeKey: string): DreamGateState {
    const state = this.statements
      .get("select last_consolidated_at, last_session_id from dream_state where scope_key = ?")
      .get(scopeKey) as { last_consolidated_at: string | null; last_session_id: string | null } | undefined;
    const { n } = this.statements
      .get("select count(*) as n from dream_sessions where scope_key = ?")
      .get(scopeKey) as {
      n: number;
    };
    return {
      lastConsolidatedAt: state?.last_consolidated_at ?? null,
      sessionsSince: n,
      lastSessionId: state?.last_session_id ?? null,
    };
  }

  recordSession(scopeKey: string, sessionId: string, trigger: string, at: string): boolean {
    const inserted = this.statements
      .get(
        "insert or ignore into dream_sessions(scope_key, session_id, trigger, recorded_at) values (?, ?, ?, ?)",
      )
      .run(scopeKey, sessionId, trigger, at);
    if (inserted.changes === 0) return false;
    this.statements
      .get(
        `insert into dream_state(scope_key, last_session_id) values (?, ?)
         on conflict(scope_key) do update set last_session_id = excluded.last_session_id`,
      )
      .run(scopeKey, sessionId);
    return true;
  }

  recordCompletion(scopeKey: string, at: string): void {
    this.statements.get("delete from dream_sessions where scope_key = ?").run(scopeKey);
    this.statements
      .get(
        `insert into dream_state(scope_key, last_consolidated_at, last_session_id) values (?, ?, null)
         on conflict(scope_key) do update set last_consolidated_at = excluded.last_consolidated_at, last_session_id = null`,
      )
      .run(scopeKey, at);
  }

  /** Call inside a write transaction, so the read and the claim are one atomic step. */
  acquireLease(scopeKey: string, holder: LeaseHolder, now: string, ttlMs: number): LeaseResult {
    const current = this.statements.get("select * from dream_leases where scope_key = ?").get(scopeKey) as
      | LeaseRow
      | undefined;
    if (current !== undefined && current.expires_at > now && current.holder !== holder.holder) {
      return { acquired: false, heldBy: toLease(current) };
    }
    const lease: Lease = {
      ...holder,
      acquiredAt: now,
      expiresAt: new Date(Date.parse(now) + ttlMs).toISOString(),
    };
    this.statements
      .get(
        `insert into dream_leases(scope_key, holder, host, pid, acquired_at, expires_at) values (?, ?, ?, ?, ?, ?)
         on conflict(scope_key) do update set holder = excluded.holder, host = excluded.host, pid = excluded.pid,
           acquired_at = excluded.acquired_at, expires_at = excluded.expires_at`,
      )
      .run(scopeKey, lease.holder, lease.host, lease.pid, lease.acquiredAt, lease.expiresAt);
    return { acquired: true, lease };
  }

  releaseLease(scopeKey: string, holder: string): void {
    this.statements.get("delete from dream_leases where scope_key = ? and holder = ?").run(scopeKey, holder);
  }
}

function toRun(row: RunRow): DreamRunRecord {
  return {
    id: row.id,
    scopeKey: row.scope_key,
    scope: JSON.parse(row.scope) as DreamRunRecord["scope"],
    mode: row.mode,
    plan: JSON.parse(row.plan) as unknown,
    decisions: JSON.parse(row.decisions) as unknown,
    outcome: JSON.parse(row.outcome) as unknown,
    startedAt: row.started_at,
    committedAt: row.committed_at,
    undoneAt: row.undone_at,
  };
}

function toRunMemory(row: RunMemoryRow): RunMemory {
  const before: MemoryPreimage | null =
    row.before_row === null
      ? null
      : {
          row: JSON.parse(row.before_row) as MemoryPreimage["row"],
          embedding:
            row.before_embedding === null
              ? null
              : new Float32Array(
                  row.before_embedding.buffer.slice(
                    row.before_embedding.byteOffset,
                    row.before_embedding.byteOffset + row.before_embedding.byteLength,
                  ),
                ),
          entities: JSON.parse(row.before_entities ?? "[]") as EntityLink[],
        };
  const after =
    row.after_hash === null || row.after_updated_at === null
      ? null
      : { hash: row.after_hash, updatedAt: row.after_updated_at };
  return { memoryId: row.memory_id, before, after };
}

function toLease(row: LeaseRow): Lease {
  return {
    holder: row.holder,
    host: row.host,
    pid: row.pid,
    acquiredAt: row.acquired_at,
    expiresAt: row.expires_at,
  };
}
