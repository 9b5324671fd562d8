/**
 * Versioned schema migrations for the SQLite store.
 *
 * `PRAGMA user_version` holds the schema version. Each migration runs in its own transaction, so a
 * crash leaves the file at the previous version. A file whose version is newer than the last
 * migration here was written by a newer Lucid and is refused, untouched.
 *
 * @module
 */

import type Database from "better-sqlite3";

interface Migration {
  readonly version: number;
  readonly sql: string;
}

/**
 * Trigger statements queueing (into `queue`) the refresh of the memories just before and after
 * `row` (`new` or `old`) in its thread: their keyword entries hold its text.
 */
function refreshNeighboursOf(row: "new" | "old", queue = "context_refresh"): string {
  const neighbour = (compare: "<" | ">", order: "desc" | "asc") => `
        insert or ignore into ${queue}(seq)
          select seq from (select seq from memories where thread = ${row}.thread
            and thread_position ${compare} ${row}.thread_position order by thread_position ${order} limit 1);`;
  return neighbour("<", "desc") + neighbour(">", "asc");
}

/** `a` and `b` (table aliases or `new`/`old`) are of one scope: all four keys equal, null to null. */
function sameScope(a: string, b: string): string {
  return ["user_id", "agent_id", "app_id", "run_id"].map((key) => `${a}.${key} is ${b}.${key}`).join(" and ");
}

/**
 * Schema 11's `refreshNeighboursOf`: the neighbours of `row` in its thread among the memories of its
 * scope only, into `window_refresh`. (The earlier one stays as those migrations ran it.)
 */
function refreshScopedNeighboursOf(row: "new" | "old"): string {
  const neighbour = (compare: "<" | ">", order: "desc" | "asc") => `
        insert or ignore into window_refresh(seq)
          select seq from (select seq from memories m where m.thread = ${row}.thread and ${sameScope("m", row)}
            and m.thread_position ${compare} ${row}.thread_position order by m.thread_position ${order} limit 1);`;
  return neighbour("<", "desc") + neighbour(">", "asc");
}

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      create table meta(
        key text primary key,
        value text not null
      );

      create table memories(
        seq integer primary key,            -- rowid: the key of the FTS and vector indexes
        id text not null unique,
        text text not null,
        hash text not null,
        user_id text,
        agent_id text,
        app_id text,
        run_id text,
        category text,
        metadata text not null default '{}',
        created_at text not null,
        updated_at text not null,
        expires_at text
      );
      create index memories_user on memories(user_id, created_at);
      -- Partial: most memories have no agent, app or run, and a NULL entry costs a write per add.
      create index memories_agent on memories(agent_id, created_at) where agent_id is not null;
      create index memories_run on memories(run_id, created_at) where run_id is not null;
      create index memories_app on memories(app_id, created_at) where app_id is not null;
      create index memories_hash on memories(hash);

      -- FTS5 index over memories.text, kept in step by triggers. Contentless (the text lives in
      -- memories) with delete support. The scope column holds one token per user ('u' + hex of the
      -- user id) so a per-user keyword search matches inside that user's rows instead of scoring the
      -- whole store (10 ms → 1.4 ms on a 100k-memory store, measured while profiling).
      create virtual table memories_fts using fts5(
        text, scope, content='', contentless_delete=1, tokenize='porter unicode61'
      );
      create trigger memories_fts_insert after insert on memories begin
        insert into memories_fts(rowid, text, scope)
        values (new.seq, new.text, 'u' || lower(hex(coalesce(new.user_id, ''))));
      end;
      create trigger memories_fts_delete after delete on memories begin
        delete from memories_fts where rowid = old.seq;
      end;
      create trigger memories_fts_update after update of text on memories begin
        delete from memories_fts where rowid = old.seq;
        insert into memories_fts(rowid, text, scope)
        values (new.seq, new.text, 'u' || lower(hex(coalesce(new.user_id, ''))));
      end;

      create table entities(
        seq integer primary key,
        key text not null unique,
        name text not null,
        type text not null
      );
      create table memory_entities(
        memory_seq integer not null references memories(seq) on delete cascade,
        entity_seq integer not null references entities(seq) on delete cascade,
        primary key (memory_seq, entity_seq)
      ) without rowid;
      create index memory_entities_entity on memory_entities(entity_seq);

      create table history(
        seq integer primary key,
        memory_id text not null,
        action text not null check (action in ('ADD', 'UPDATE', 'DELETE')),
        previous_value text,
        new_value text,
        actor text not null,
        created_at text not null
      );
      create index history_memory on history(memory_id, seq);

      create table messages(
        seq integer primary key,
        session_scope text not null,
        role text not null,
        content text not null,
        name text,
        created_at text not null
      );
      create index messages_scope on messages(session_scope, seq);
    `,
  },
  {
    // Dream runs (with the preimages undo restores), per-scope gate state and sessions, and leases.
    version: 2,
    sql: `
      create table dream_runs(
        seq integer primary key,
        id text not null unique,
        scope_key text not null,
        scope text not null,
        mode text not null,
        plan text not null,
        decisions text not null,
        outcome text not null,
        started_at text not null,
        committed_at text not null,
        undone_at text
      );
      create index dream_runs_scope on dream_runs(scope_key, seq);

      create table dream_run_memories(
        run_seq integer not null references dream_runs(seq) on delete cascade,
        memory_id text not null,
        before_row text,
        before_embedding blob,
        before_entities text,
        after_hash text,
        after_updated_at text,
        primary key (run_seq, memory_id)
      ) without rowid;

      create table dream_state(
        scope_key text primary key,
        last_consolidated_at text,
        last_session_id text
      );
      -- Interactive sessions since the scope's last consolidation; a repeated id counts once.
      create table dream_sessions(
        scope_key text not null,
        session_id text not null,
        trigger text not null,
        recorded_at text not null,
        primary key (scope_key, session_id)
      ) without rowid;

      create table dream_leases(
        scope_key text primary key,
        holder text not null,
        host text not null,
        pid integer not null,
        acquired_at text not null,
        expires_at text not null
      );
    `,
  },
  {
    // The run ledger generalised: runs of any kind (dream, sleep), and files among their changes,
    // with the bytes each had before the run, so a rollback restores a file exactly.
    version: 3,
    sql: `
      alter table dream_runs rename to runs;
      alter table runs add column kind text not null default 'dream';
      alter table dream_run_memories rename to run_memories;
      drop index dream_runs_scope;
      create index runs_scope on runs(scope_key, seq);
      create index runs_kind on runs(kind, seq);

      create table run_files(
        run_seq integer not null references runs(seq) on delete cascade,
        path text not null,
        before_content blob,
        after_sha256 text,
        primary key (run_seq, path)
      ) without rowid;
    `,
  },
  {
    // Conversations: a memory knows its thread, its place in it and who said it; each threaded
    // memory's neighbours are indexed for keyword search (the question is often in the turn
    // before the answer). Triggers keep a memory's neighbours' entries in step with its writes.
    version: 4,
    sql: `
      alter table memories add column thread text;
      alter table memories add column thread_position integer;
      alter table memories add column actor_id text;
      create index memories_thread on memories(thread, thread_position) where thread is not null;
      create index memories_actor on memories(actor_id collate nocase, user_id) where actor_id is not null;

      create virtual table memories_context using fts5(
        context, scope, content='', contentless_delete=1, tokenize='porter unicode61'
      );
      -- What a threaded memory's context entry holds: the texts just before and after it.
      create view memory_context(seq, context, scope) as
        select m.seq,
          trim(
            coalesce((select p.text from memories p where p.thread = m.thread
                        and p.thread_position < m.thread_position
                        order by p.thread_position desc limit 1), '')
            || ' ' ||
            coalesce((select n.text from memories n where n.thread = m.thread
                        and n.thread_position > m.thread_position
                        order by n.thread_position limit 1), '')),
          'u' || lower(hex(coalesce(m.user_id, '')))
        from memories m where m.thread is not null;
      -- The memories whose context entry changes when the memory at (thread, position) changes.
      create table context_refresh(seq integer primary key);
      create trigger context_refresh_apply after insert on context_refresh begin
        delete from memories_context where rowid = new.seq;
        insert into memories_context(rowid, context, scope)
          select seq, context, scope from memory_context where seq = new.seq and context <> '';
        delete from context_refresh where seq = new.seq;
      end;
      create trigger memories_context_insert after insert on memories when new.thread is not null begin
        insert or ignore into context_refresh(seq) values (new.seq);
        ${refreshNeighboursOf("new")}
      end;
      create trigger memories_context_delete after delete on memories when old.thread is not null begin
        delete from memories_context where rowid = old.seq;
        ${refreshNeighboursOf("old")}
      end;
      create trigger memories_context_update after update of text, user_id on memories
        when new.thread is not null begin
        insert or ignore into context_refresh(seq) values (new.seq);
        ${refreshNeighboursOf("new")}
      end;
    `,
  },
  {
    // Keyword search reads each memory's window: its own text and, in a thread, the texts just
    // before and after it, as one document. On LoCoMo one BM25 over the window beat BM25 over the
    // text plus a second over the neighbours (hybrid recall@10 0.804 → 0.819, cross-validated), and
    // it is one FTS query instead of two. A memory outside any thread is indexed as before: its text.
    version: 5,
    sql: `
      drop trigger memories_fts_insert;
      drop trigger memories_fts_delete;
      drop trigger memories_fts_update;
      drop trigger memories_context_insert;
      drop trigger memories_context_delete;
      drop trigger memories_context_update;
      drop trigger context_refresh_apply;
      drop table context_refresh;
      drop view memory_context;
      drop table memories_context;
      drop table memories_fts;

      create virtual table memories_fts using fts5(
        text, scope, content='', contentless_delete=1, tokenize='porter unicode61'
      );
      create view memory_window(seq, text, scope) as
        select m.seq,
          case when m.thread is null then m.text else trim(
            coalesce((select p.text from memories p where p.thread = m.thread
                        and p.thread_position < m.thread_position
                        order by p.thread_position desc limit 1), '')
            || ' ' || m.text || ' ' ||
            coalesce((select n.text from memories n where n.thread = m.thread
                        and n.thread_position > m.thread_position
                        order by n.thread_position limit 1), '')) end,
          'u' || lower(hex(coalesce(m.user_id, '')))
        from memories m;
      -- The memories whose window changes when a memory is written: itself and its neighbours.
      create table window_refresh(seq integer primary key);
      create trigger window_refresh_apply after insert on window_refresh begin
        delete from memories_fts where rowid = new.seq;
        insert into memories_fts(rowid, text, scope)
          select seq, text, scope from memory_window where seq = new.seq;
        delete from window_refresh where seq = new.seq;
      end;
      create trigger memories_window_insert after insert on memories begin
        insert or ignore into window_refresh(seq) values (new.seq);
      end;
      create trigger memories_window_insert_neighbours after insert on memories
        when new.thread is not null begin
        ${refreshNeighboursOf("new", "window_refresh")}
      end;
      create trigger memories_window_delete after delete on memories begin
        delete from memories_fts where rowid = old.seq;
      end;
      create trigger memories_window_delete_neighbours after delete on memories
        when old.thread is not null begin
        ${refreshNeighboursOf("old", "window_refresh")}
      end;
      create trigger memories_window_update after update of text, user_id on memories begin
        insert or ignore into window_refresh(seq) values (new.seq);
      end;
      create trigger memories_window_update_neighbours after update of text, user_id on memories
        when new.thread is not null begin
        ${refreshNeighboursOf("new", "window_refresh")}
      end;

      insert into memories_fts(rowid, text, scope) select seq, text, scope from memory_window;
    `,
  },
  {
    // An UPDATE row names what it changed (`["category", "metadata.mood"]`, JSON), so history can
    // say more than "text unchanged". Rows written before stay without it.
    version: 6,
    sql: `alter table history add column changes text;`,
  },
  {
    // Sleep's recall records: one per range of a workspace's notes, the record as JSON.
    version: 7,
    sql: `
      create table recalls(
        workspace text not null,
        key text not null,
        entry text not null,
        updated_at text not null,
        primary key (workspace, key)
      ) without rowid;
    `,
  },
  {
    // Sleep's index of a workspace's notes: each file as it was indexed, its chunks with their
    // vectors, and FTS5 over the chunk texts (rowid = the chunk's seq).
    version: 8,
    sql: `
      create table note_files(
        workspace text not null,
        path text not null,
        sha256 text not null,
        size integer not null,
        mtime_ms real not null,
        embedder text not null,
        short_term integer not null,
        indexed_at text not null,
        primary key (workspace, path)
      ) without rowid;
      create table note_chunks(
        seq integer primary key,
        workspace text not null,
        path text not null,
        start_line integer not null,
        end_line integer not null,
        text text not null,
        embedding blob not null
      );
      create index note_chunks_by_file on note_chunks(workspace, path);
      create virtual table note_chunks_fts using fts5(text, tokenize='porter unicode61');
    `,
  },
  {
    // Each recall record's eviction order as columns with an index — its priority (sleep: 1 with
    // evidence someone asked for, 0 with only daily sightings) and when its range was last recalled —
    // so the cap finds the records to evict without reading every record's JSON.
    version: 9,
    sql: `
      alter table recalls add column priority integer not null default 1;
      alter table recalls add column recalled_at text not null default '';
      update recalls set
        recalled_at = coalesce(json_extract(entry, '$.lastRecalledAt'), updated_at),
        priority = case when coalesce(json_extract(entry, '$.recallCount'), 0)
          + coalesce(json_extract(entry, '$.groundedCount'), 0) > 0 then 1 else 0 end;
      create index recalls_by_eviction on recalls(workspace, priority, recalled_at, key);
    `,
  },
  {
    // What sleep keeps about a workspace besides its recalls: JSON values by namespace and key, and
    // the log of what each phase did. Autoincrement so a sequence number is never reused once trimmed.
    version: 10,
    sql: `
      create table sleep_state(
        workspace text not null,
        namespace text not null,
        key text not null,
        value text not null,
        updated_at text not null,
        primary key (workspace, namespace, key)
      ) without rowid;
      create table sleep_events(
        seq integer primary key autoincrement,
        workspace text not null,
        type text not null,
        at text not null,
        data text not null
      );
      create index sleep_events_by_workspace on sleep_events(workspace, seq);
      create index sleep_events_by_type on sleep_events(workspace, type, seq);
    `,
  },
  {
    // A thread is one scope's: a window's neighbours are the memories of its thread and its scope
    // (all four keys, null equal to null). Before, a memory of another scope that named the thread
    // (an import can) joined the window, so a key bound to one user could learn by keyword search
    // which words another user's memories held, and plant words into theirs. The triggers now also
    // follow a change of scope or thread (nothing makes one today): a row that moves leaves its old
    // neighbours' windows. Every threaded window is built again.
    version: 11,
    sql: `
      drop trigger memories_window_insert_neighbours;
      drop trigger memories_window_delete_neighbours;
      drop trigger memories_window_update;
      drop trigger memories_window_update_neighbours;
      drop view memory_window;

      create view memory_window(seq, text, scope) as
        select m.seq,
          case when m.thread is null then m.text else trim(
            coalesce((select p.text from memories p where p.thread = m.thread and ${sameScope("p", "m")}
                        and p.thread_position < m.thread_position
                        order by p.thread_position desc limit 1), '')
            || ' ' || m.text || ' ' ||
            coalesce((select n.text from memories n where n.thread = m.thread and ${sameScope("n", "m")}
                        and n.thread_position > m.thread_position
                        order by n.thread_position limit 1), '')) end,
          'u' || lower(hex(coalesce(m.user_id, '')))
        from memories m;
      create trigger memories_window_insert_neighbours after insert on memories
        when new.thread is not null begin
        ${refreshScopedNeighboursOf("new")}
      end;
      create trigger memories_window_delete_neighbours after delete on memories
        when old.thread is not null begin
        ${refreshScopedNeighboursOf("old")}
      end;
      create trigger memories_window_update
        after update of text, user_id, agent_id, app_id, run_id, thread, thread_position on memories begin
        insert or ignore into window_refresh(seq) values (new.seq);
      end;
      create trigger memories_window_update_neighbours
        after update of text, user_id, agent_id, app_id, run_id, thread, thread_position on memories
        when new.thread is not null begin
        ${refreshScopedNeighboursOf("new")}
      end;
      create trigger memories_window_moved_neighbours
        after update of user_id, agent_id, app_id, run_id, thread, thread_position on memories
        when old.thread is not null and not (old.thread is new.thread
          and old.thread_position is new.thread_position and ${sameScope("old", "new")}) begin
        ${refreshScopedNeighboursOf("old")}
      end;

      delete from memories_fts where rowid in (select seq from memories where thread is not null);
      insert into memories_fts(rowid, text, scope)
        select seq, text, scope from memory_window
        where seq in (select seq from memories where thread is not null);
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

/** Brings the database from `fromVersion` up to `toVersion` (default: the latest), one transaction per migration. */
export function migrate(db: Database.Database, fromVersion: number, toVersion = SCHEMA_VERSION): void {
  for (const migration of MIGRATIONS) {
    if (migration.version <= fromVersion || migration.version > toVersion) continue;
    // Immediate, and the version re-read inside: two processes opening a new file at once must not
    // both run the same migration (the second would fail on "table already exists").
    db.transaction(() => {
      if ((db.pragma("user_version", { simple: true }) as number) >= migration.version) return;
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
}

export const VECTOR_TABLE = "memories_vec";
/** Vectors of the embedder a re-embedding run is switching to, filled beside the current ones. */
export const PENDING_VECTOR_TABLE = "memories_vec_next";
export type VectorTable = typeof VECTOR_TABLE | typeof PENDING_VECTOR_TABLE;

/**
 * chunk_size 256 rather than vec0's 1024: each user partition allocates whole chunks, so 100 users
 * of ~155 memories took 216 MB at 1024 and 55 MB at 128, with faster inserts (measured while profiling).
 *
 * The vector table is created once the embedder's dimension is known (its column type fixes it).
 * The user id is the partition key, since per-user search is the common case (0.7 ms at 100k in
 * research/storage.md); the other scope keys are vec0 metadata columns, filterable inside KNN.
 * vec0 metadata columns cannot hold NULL, so an absent scope key is stored as ''.
 */
export function createVectorTable(
  db: Database.Database,
  dimension: number,
  name: VectorTable = VECTOR_TABLE,
): void {
  if (!Number.isInteger(dimension) || dimension <= 0) throw new RangeError(`bad dimension ${dimension}`);
  db.exec(`
    create virtual table if not exists ${name} using vec0(
      seq integer primary key,
      user_key text partition key,
      agent_key text,
      app_key text,
      run_key text,
      embedding float[${dimension}] distance_metric=cosine,
      chunk_size=256
    );
  `);
}
