import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { parseFilters } from "../../src/filters/parse-filters.js";
import { LUCID_APPLICATION_ID, switchToWal } from "../../src/store/sqlite/sqlite-open.js";
import { migrate, SCHEMA_VERSION } from "../../src/store/sqlite/sqlite-schema.js";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { DIMENSION, newMemory } from "./contract/harness.js";

const dir = mkdtempSync(join(tmpdir(), "lucid-sqlite-"));
let files = 0;
const freshPath = () => join(dir, `store-${++files}.db`);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("SQLite store file handling", () => {
  it("persists memories, vectors and the embedder across reopen, in WAL mode", async () => {
    const path = freshPath();
    const first = createSqliteStore({ path });
    await first.bindEmbedder({ id: "e", dimension: DIMENSION });
    const memory = newMemory({ text: "persisted fact" });
    await first.insertMemory(memory);
    await first.close();

    const second = createSqliteStore({ path });
    expect(await second.embedderStamp()).toEqual({ id: "e", dimension: DIMENSION });
    expect((await second.getMemory(memory.id))?.text).toBe("persisted fact");
    const hits = await second.searchKeyword({
      filter: parseFilters({ user_id: "alice" }),
      terms: ["persisted"],
      k: 1,
    });
    expect(hits.map((hit) => hit.id)).toEqual([memory.id]);
    await second.close();

    const raw = new Database(path, { readonly: true });
    expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(raw.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    raw.close();
  });

  it("migrates a file written by an older schema, keeping its memories", async () => {
    const path = freshPath();
    const old = new Database(path);
    migrate(old, 0, 1);
    old
      .prepare(
        "insert into memories(id, text, hash, user_id, created_at, updated_at) values ('m1', 'from v1', 'h', 'alice', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')",
      )
      .run();
    expect(old.pragma("user_version", { simple: true })).toBe(1);
    old.close();
    const store = createSqliteStore({ path });
    expect((await store.getMemory("m1"))?.text).toBe("from v1");
    expect(await store.dreamGateState("user_id=alice")).toMatchObject({ sessionsSince: 0 });
    await store.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    raw.close();
  });

  it("refuses a corrupt file and leaves its bytes unchanged", () => {
    const path = freshPath();
    const garbage = Buffer.alloc(8192, 0x5a);
    writeFileSync(path, garbage);
    expect(() => createSqliteStore({ path })).toThrow(expect.objectContaining({ code: "STORE_CORRUPT" }));
    expect(readFileSync(path).equals(garbage)).toBe(true);
  });

  it("refuses a SQLite database that is not a Lucid store, unchanged", () => {
    const path = freshPath();
    const other = new Database(path);
    other.exec("create table notes(body text); insert into notes values ('mine')");
    other.close();
    const before = readFileSync(path);
    expect(() => createSqliteStore({ path })).toThrow(expect.objectContaining({ code: "STORE_CORRUPT" }));
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it.each([1, 2, 3])(
    "refuses another program's database whose user_version is %d, byte for byte unchanged and not switched to WAL",
    (userVersion) => {
      const path = freshPath();
      const other = new Database(path);
      other.exec(
        "create table settings(key text primary key, value text); insert into settings values ('theme', 'dark')",
      );
      other.pragma(`user_version = ${userVersion}`);
      other.close();
      const before = readFileSync(path);
      expect(() => createSqliteStore({ path })).toThrow(expect.objectContaining({ code: "STORE_CORRUPT" }));
      expect(readFileSync(path).equals(before)).toBe(true);
      const raw = new Database(path, { readonly: true });
      expect(raw.pragma("journal_mode", { simple: true })).toBe("delete");
      expect(
        raw.prepare("select name from sqlite_master where name like 'dream_%' or name = 'runs'").all(),
      ).toEqual([]);
      raw.close();
    },
  );

  it("marks the files it creates as Lucid's, and still opens a store made before the marker", async () => {
    const path = freshPath();
    await createSqliteStore({ path }).close();
    const raw = new Database(path);
    expect(raw.pragma("application_id", { simple: true })).toBe(LUCID_APPLICATION_ID);
    raw.pragma("application_id = 0"); // as a store written by an earlier Lucid
    raw.close();
    const reopened = createSqliteStore({ path });
    await reopened.close();
    const again = new Database(path, { readonly: true });
    expect(again.pragma("application_id", { simple: true })).toBe(LUCID_APPLICATION_ID);
    again.close();
  });

  it("refuses a file written by a newer schema, unchanged", async () => {
    const path = freshPath();
    const store = createSqliteStore({ path });
    await store.close();
    const raw = new Database(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.pragma("journal_mode = DELETE");
    raw.close();
    const before = readFileSync(path);
    expect(() => createSqliteStore({ path })).toThrow(expect.objectContaining({ code: "SCHEMA_TOO_NEW" }));
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it("reads but refuses writes when opened read-only", async () => {
    const path = freshPath();
    const writer = createSqliteStore({ path });
    await writer.bindEmbedder({ id: "e", dimension: DIMENSION });
    await writer.insertMemory(newMemory({ text: "readable" }));
    await writer.close();

    const reader = createSqliteStore({ path, readOnly: true });
    const { total } = await reader.listMemories({
      filter: parseFilters({ user_id: "alice" }),
      limit: 1,
      offset: 0,
    });
    expect(total).toBe(1);
    await expect(reader.insertMemory(newMemory({ text: "refused" }))).rejects.toMatchObject({
      code: "STORE_READ_ONLY",
    });
    await expect(
      reader.transaction(async (tx) => tx.insertMemory(newMemory({ text: "refused in a transaction" }))),
    ).rejects.toMatchObject({ code: "STORE_READ_ONLY" });
    await reader.close();
  });

  it("fails with STORE_BUSY while another process holds the write lock, writing nothing", async () => {
    const path = freshPath();
    const store = createSqliteStore({ path, busyTimeoutMs: 50 });
    await store.bindEmbedder({ id: "e", dimension: DIMENSION });
    const other = new Database(path);
    other.exec("begin immediate");
    try {
      await expect(
        store.transaction(async (tx) => {
          await tx.insertMemory(newMemory({ text: "blocked" }));
        }),
      ).rejects.toMatchObject({ code: "STORE_BUSY" });
    } finally {
      other.exec("rollback");
      other.close();
    }
    const { total } = await store.listMemories({
      filter: parseFilters({ user_id: "alice" }),
      limit: 1,
      offset: 0,
    });
    expect(total).toBe(0);
    await store.close();
  });

  it("migrates runs of schema 2 into the general run ledger, keeping their preimages", async () => {
    const path = freshPath();
    const old = new Database(path);
    migrate(old, 0, 2);
    old.exec(`
      insert into dream_runs(id, scope_key, scope, mode, plan, decisions, outcome, started_at, committed_at)
      values ('dream-1', 'user_id=alice', '{"user_id":"alice"}', 'auto', '{"version":1}', '{}', '{}',
              '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.000Z');
      insert into dream_run_memories(run_seq, memory_id, before_row, after_hash, after_updated_at)
      values (1, 'm1', null, 'h', '2026-01-01T00:00:01.000Z');
    `);
    old.close();
    const store = createSqliteStore({ path });
    const found = await store.getRun("dream-1");
    expect(found?.run).toMatchObject({ id: "dream-1", kind: "dream", scopeKey: "user_id=alice" });
    expect(found?.changes).toEqual([
      {
        kind: "memory",
        memoryId: "m1",
        before: null,
        after: { hash: "h", updatedAt: "2026-01-01T00:00:01.000Z" },
      },
    ]);
    await store.close();
  });

  it("migrates schema 4's keyword and neighbour indexes into one window per memory", async () => {
    const path = freshPath();
    const old = new Database(path);
    migrate(old, 0, 4);
    const insert = old.prepare(
      `insert into memories(id, text, hash, user_id, created_at, updated_at, thread, thread_position)
       values (?, ?, 'h', 'alice', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', ?, ?)`,
    );
    insert.run("q", "Which airline do you fly?", "call:1", 0);
    insert.run("a", "Always the cheapest one.", "call:1", 1);
    insert.run("alone", "The airline lounge is on level 2.", null, null);
    old.close();
    const store = createSqliteStore({ path });
    const hits = await store.searchKeyword({
      filter: parseFilters({ user_id: "alice" }),
      terms: ["airline"],
      k: 10,
    });
    expect(hits.map((hit) => hit.id).sort()).toEqual(["a", "alone", "q"]);
    const cheapest = await store.searchKeyword({
      filter: parseFilters({ user_id: "alice" }),
      terms: ["cheapest"],
      k: 10,
    });
    expect(cheapest.map((hit) => hit.id).sort()).toEqual(["a", "q"]);
    await store.close();
  });

  it("migrates schema 8's recall records, reading when each was last recalled from the record", async () => {
    const path = freshPath();
    const old = new Database(path);
    migrate(old, 0, 8);
    const insert = old.prepare(
      "insert into recalls(workspace, key, entry, updated_at) values ('/ws', ?, ?, ?)",
    );
    insert.run(
      "old",
      JSON.stringify({ key: "old", lastRecalledAt: "2026-01-01T00:00:00.000Z" }),
      "2026-03-01T00:00:00.000Z",
    );
    insert.run(
      "new",
      JSON.stringify({ key: "new", lastRecalledAt: "2026-02-01T00:00:00.000Z" }),
      "2026-02-01T00:00:00.000Z",
    );
    // A record without the field falls back to when it was written.
    insert.run("bare", JSON.stringify({ key: "bare" }), "2026-01-15T00:00:00.000Z");
    insert.run(
      "daily",
      JSON.stringify({
        key: "daily",
        recallCount: 0,
        dailyCount: 4,
        lastRecalledAt: "2026-03-01T00:00:00.000Z",
      }),
      "2026-03-01T00:00:00.000Z",
    );
    old.close();
    const store = createSqliteStore({ path });
    expect(
      (await store.listRecalls("/ws")).map((each) => [each.key, each.recalledAt, each.priority]),
    ).toEqual([
      ["bare", "2026-01-15T00:00:00.000Z", 0],
      ["daily", "2026-03-01T00:00:00.000Z", 0],
      ["new", "2026-02-01T00:00:00.000Z", 0],
      ["old", "2026-01-01T00:00:00.000Z", 0],
    ]);
    const [old9] = await store.getRecalls("/ws", ["old"]);
    if (old9 === undefined) throw new Error("the migrated record is missing");
    await store.putRecalls("/ws", [{ ...old9, priority: 1 }]);
    // Priority 0 first, oldest first; "old" (priority 1) stays though it is the oldest.
    expect(await store.trimRecalls("/ws", 1, [])).toBe(3);
    expect((await store.listRecalls("/ws")).map((each) => each.key)).toEqual(["old"]);
    await store.close();
  });

  it("migrates schema 9 to sleep's state and event log, keeping its recall records", async () => {
    const path = freshPath();
    const old = new Database(path);
    migrate(old, 0, 9);
    old
      .prepare(
        "insert into recalls(workspace, key, entry, updated_at, recalled_at) values ('/ws', 'kept', '{}', ?, ?)",
      )
      .run("2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z");
    old.close();
    const store = createSqliteStore({ path });
    expect((await store.listRecalls("/ws")).map((each) => each.key)).toEqual(["kept"]);
    await store.putSleepState("/ws", "ingest", [
      { key: "a.md", value: { offset: 3 }, updatedAt: "2026-02-01T00:00:00.000Z" },
    ]);
    const [appended] = await store.appendSleepEvents("/ws", [
      { type: "memory.dream.completed", at: "2026-02-01T00:00:00.000Z", data: { ok: true } },
    ]);
    await store.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    raw.close();
    const reopened = createSqliteStore({ path });
    expect(await reopened.getSleepState("/ws", "ingest", ["a.md"])).toEqual([
      { key: "a.md", value: { offset: 3 }, updatedAt: "2026-02-01T00:00:00.000Z" },
    ]);
    expect(await reopened.listSleepEvents("/ws")).toEqual([appended]);
    await reopened.close();
  });

  it("migrates schema 10's threads into windows of one scope, and follows a memory that changes scope", async () => {
    const path = freshPath();
    const old = new Database(path);
    migrate(old, 0, 10);
    const insert = old.prepare(
      `insert into memories(id, text, hash, user_id, created_at, updated_at, thread, thread_position)
       values (?, ?, 'h', ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 'call:1', ?)`,
    );
    insert.run("ask", "Where should we meet?", "alice", 0);
    insert.run("planted", "Bob keeps marmalade in the cellar", "bob", 1);
    insert.run("answer", "At the usual cafe", "alice", 2);
    old.close();
    const found = async (terms: string[]) => {
      const store = createSqliteStore({ path });
      const hits = await store.searchKeyword({ filter: parseFilters({ user_id: "alice" }), terms, k: 10 });
      await store.close();
      return hits.map((hit) => hit.id).sort();
    };
    expect(await found(["marmalade"])).toEqual([]);
    expect(await found(["cafe"])).toEqual(["answer", "ask"]);
    const raw = new Database(path);
    expect(raw.pragma("user_version", { simple: true })).toBe(SCHEMA_VERSION);
    // Nothing in Lucid moves a memory to another scope; a trigger still follows one that moves.
    raw.prepare("update memories set agent_id = 'coder' where id = 'answer'").run();
    raw.close();
    expect(await found(["cafe"])).toEqual(["answer"]);
    expect(await found(["meet"])).toEqual(["ask"]);
  });

  it("refuses a call through the store from inside one of its own transactions", async () => {
    // On a pooled backend such a call would run on another connection, outside the transaction; on
    // SQLite it would wait for the transaction it is part of. Either way it is a bug, so it fails loudly.
    const store = createSqliteStore({ path: ":memory:" });
    await store.bindEmbedder({ id: "e", dimension: DIMENSION });
    await expect(
      store.transaction(async (tx) => {
        await tx.insertMemory(newMemory({ text: "through tx" }));
        await store.getMemory("anything");
      }),
    ).rejects.toMatchObject({ code: "INTERNAL" });
    expect(
      (await store.listMemories({ filter: parseFilters({ user_id: "alice" }), limit: 1, offset: 0 })).total,
    ).toBe(0);
    await store.close();
  });

  it("refuses to open a missing file read-only", () => {
    expect(() => createSqliteStore({ path: join(dir, "missing.db"), readOnly: true })).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });
});

describe("SQLite store opened by several processes at once", () => {
  it("migrates a new file once when processes race to create it", async () => {
    const { spawn } = await import("node:child_process");
    const path = freshPath();
    // Every child waits for the same instant, so they really open the file together.
    const startAt = Date.now() + 3000;
    const script = `
      while (Date.now() < ${startAt}) {}
      import { createSqliteStore } from ${JSON.stringify(new URL("../../src/store/sqlite/sqlite-store.ts", import.meta.url).pathname)};
      const store = createSqliteStore({ path: ${JSON.stringify(path)} });
      await store.close();
    `;
    const runs = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
        stdio: "pipe",
      });
      let stderr = "";
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
      });
      return new Promise<{ code: number | null; stderr: string }>((resolve) =>
        child.on("close", (code) => resolve({ code, stderr })),
      );
    });
    const results = await Promise.all(runs);
    expect(results.map((result) => result.stderr)).toEqual(["", "", "", ""]);
    expect(results.map((result) => result.code)).toEqual([0, 0, 0, 0]);
  });
});

describe("switching a new file to write-ahead logging", () => {
  /** A connection whose journal-mode switch is refused `busyTimes` times, as SQLite does in a race. */
  function contendedConnection(busyTimes: number, code = "SQLITE_BUSY") {
    const calls: string[] = [];
    const db = {
      pragma(source: string) {
        calls.push(source);
        if (calls.length <= busyTimes) throw Object.assign(new Error("database is locked"), { code });
        return "wal";
      },
    };
    return { db: db as unknown as Database.Database, calls };
  }

  it("tries again while another process holds the file, then switches", () => {
    const { db, calls } = contendedConnection(2);
    switchToWal(db, 5000);
    expect(calls).toEqual(["journal_mode = WAL", "journal_mode = WAL", "journal_mode = WAL"]);
  });

  it("gives up with SQLite's error once the busy timeout has passed", () => {
    const { db } = contendedConnection(Number.POSITIVE_INFINITY);
    expect(() => switchToWal(db, 30)).toThrow(expect.objectContaining({ code: "SQLITE_BUSY" }));
  });

  it("does not retry a failure that is not a lock", () => {
    const { db, calls } = contendedConnection(1, "SQLITE_IOERR");
    expect(() => switchToWal(db, 5000)).toThrow(expect.objectContaining({ code: "SQLITE_IOERR" }));
    expect(calls).toHaveLength(1);
  });
});
