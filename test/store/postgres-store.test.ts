/**
 * What the PostgreSQL store does beyond the shared contract: migrations under an advisory lock,
 * refusing a foreign or newer schema, failing with STORE_UNAVAILABLE and losing nothing when the
 * connection goes, retrying where nothing ran, and dense search that is exact for small scopes and
 * never falls into the filtered-HNSW trap above them. Skipped without `LUCID_PG_URL`.
 */

import { createConnection, createServer, type Server, type Socket } from "node:net";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { parseFilters } from "../../src/filters/parse-filters.js";
import { SCHEMA_VERSION } from "../../src/store/postgres/pg-schema.js";
import { openPostgresStore } from "../../src/store/postgres/pg-store.js";
import type { MemoryStore } from "../../src/store/store.js";
import { postgresTestUrl, temporaryPostgresStores, uniqueSchema } from "../helpers/postgres.js";
import { newMemory } from "./contract/harness.js";

const url = postgresTestUrl();

/** A deterministic pseudo-random unit vector. */
function randomVector(seed: number, dimension: number): Float32Array {
  let state = seed * 2654435761;
  const values = Array.from({ length: dimension }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648 - 0.5;
  });
  const norm = Math.hypot(...values);
  return Float32Array.from(values, (value) => value / norm);
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return dot;
}

describe.skipIf(url === undefined)("PostgreSQL store", () => {
  const stores = temporaryPostgresStores();
  const admin = new pg.Client({ connectionString: url });
  let adminConnected: Promise<void> | undefined;
  const sql = async (text: string, params: unknown[] = []) => {
    adminConnected ??= admin.connect();
    await adminConnected;
    return (await admin.query(text, params)).rows;
  };
  const open: MemoryStore[] = [];
  const make = async (extra: Parameters<typeof stores.make>[0] = {}) => {
    const store = await stores.make(extra);
    open.push(store);
    return store;
  };

  afterAll(async () => {
    for (const store of open) await store.close();
    await stores.dropAll();
    if (adminConnected !== undefined) await admin.end();
  });

  it("migrates once when several processes open a new store at the same moment", async () => {
    const schema = uniqueSchema();
    const opened = await Promise.all(Array.from({ length: 4 }, () => make({ schema })));
    expect(opened.map((store) => store.schemaVersion)).toEqual(Array(4).fill(SCHEMA_VERSION));
    const rows = await sql(`select value from ${schema}.meta where key = 'schema.version'`);
    expect(rows).toEqual([{ value: String(SCHEMA_VERSION) }]);
    expect(opened[0]?.capabilities).toEqual({ backend: "postgres", ann: true, concurrentWriters: true });
    expect(opened[0]?.location).toContain(`schema ${schema}`);
  });

  it("migrates schema 1's threads into windows of one scope", async () => {
    const schema = uniqueSchema();
    const store = await make({ schema });
    await store.bindEmbedder({ id: "e", dimension: 4 });
    const thread = { thread: "call:1" };
    const ask = newMemory({ text: "Where should we meet?", ...thread, threadPosition: 0 });
    const planted = newMemory({ text: "Bob keeps marmalade", user_id: "bob", ...thread, threadPosition: 1 });
    const answer = newMemory({ text: "At the usual cafe", ...thread, threadPosition: 2 });
    for (const memory of [ask, planted, answer]) await store.insertMemory(memory);
    // Schema 1 as it was: every threaded window built from its thread neighbours of any scope.
    await sql(
      `update ${schema}.memories m set keywords = ${schema}.keyword_vector(w.body), keyword_length = ${schema}.keyword_words(w.body)
       from (select m.seq, trim(
               coalesce((select p.text from ${schema}.memories p where p.thread = m.thread
                         and p.thread_position < m.thread_position order by p.thread_position desc limit 1), '')
               || ' ' || m.text || ' ' ||
               coalesce((select n.text from ${schema}.memories n where n.thread = m.thread
                         and n.thread_position > m.thread_position order by n.thread_position limit 1), '')) as body
             from ${schema}.memories m where m.thread is not null) w
       where m.seq = w.seq`,
    );
    await sql(`update ${schema}.meta set value = '1' where key = 'schema.version'`);
    const found = async (on: MemoryStore, terms: string[]) =>
      (await on.searchKeyword({ filter: parseFilters({ user_id: "alice" }), terms, k: 10 }))
        .map((hit) => hit.id)
        .sort();
    expect(await found(store, ["marmalade"])).toEqual([answer.id, ask.id].sort());
    const reopened = await make({ schema });
    expect(reopened.schemaVersion).toBe(SCHEMA_VERSION);
    expect(await found(reopened, ["marmalade"])).toEqual([]);
    expect(await found(reopened, ["cafe"])).toEqual([answer.id, ask.id].sort());
  });

  it("refuses a schema that holds another application's tables, and leaves it untouched", async () => {
    const schema = uniqueSchema();
    stores.adopt(schema);
    await sql(`create schema ${schema}`);
    await sql(`create table ${schema}.orders(id int)`);
    await expect(make({ schema })).rejects.toMatchObject({ code: "STORE_CORRUPT" });
    const tables = await sql("select table_name from information_schema.tables where table_schema = $1", [
      schema,
    ]);
    expect(tables).toEqual([{ table_name: "orders" }]);
  });

  it("refuses a store written by a newer schema", async () => {
    const schema = uniqueSchema();
    (await make({ schema })).close();
    await sql(`update ${schema}.meta set value = '99' where key = 'schema.version'`);
    await expect(make({ schema })).rejects.toMatchObject({ code: "SCHEMA_TOO_NEW" });
  });

  it("keeps a URL's own startup options beside its own, and masks a password given as a parameter", async () => {
    const store = await make({
      url: `${url}${url?.includes("?") ? "&" : "?"}options=-c%20statement_timeout%3D60000&password=s3cret-param`,
    });
    await store.bindEmbedder({ id: "e", dimension: 4 });
    const memory = newMemory({ text: "found through the store's own search path" });
    await store.insertMemory(memory);
    expect((await store.getMemory(memory.id))?.text).toBe("found through the store's own search path");
    expect(store.location).not.toContain("s3cret-param");
    expect(store.location).toContain("password=***");
  });

  it("refuses a url that is not a PostgreSQL one", async () => {
    await expect(openPostgresStore({ url: "/var/lib/lucid.db" })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });

  it("retries opening while the server drops its first connections (a restart), then opens", async () => {
    // A loopback proxy to the test server that hangs up on the first two connections.
    const target = new URL(url ?? "");
    let dropped = 0;
    let forwarded = 0;
    const sockets: Socket[] = [];
    const proxy: Server = createServer((client) => {
      sockets.push(client);
      if (dropped < 2) {
        dropped++;
        client.destroy();
        return;
      }
      forwarded++;
      const upstream = createConnection(Number(target.port || 5432), target.hostname);
      sockets.push(upstream);
      client.pipe(upstream).pipe(client);
      upstream.on("error", () => client.destroy());
      client.on("error", () => upstream.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const port = (proxy.address() as { port: number }).port;
    try {
      const proxied = new URL(target.toString());
      proxied.host = `127.0.0.1:${port}`;
      const store = await make({ url: proxied.toString(), retryForMs: 10_000 });
      expect(store.schemaVersion).toBe(SCHEMA_VERSION);
      expect(dropped).toBe(2);
      expect(forwarded).toBeGreaterThan(0);
      await store.close();
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it("fails with STORE_UNAVAILABLE when no server answers, after retrying", async () => {
    await expect(
      openPostgresStore({ url: "postgres://postgres@127.0.0.1:1/none", retryForMs: 200 }),
    ).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
  });

  /** A store whose connections carry a name of their own, so a test ends only its own connections. */
  const named = async () => {
    const name = `lucid-test-${process.pid}-${Math.random().toString(36).slice(2)}`;
    const store = await make({ url: `${url}${url?.includes("?") ? "&" : "?"}application_name=${name}` });
    return { store, name };
  };

  it("rolls back a transaction whose connection is lost, and fails with STORE_UNAVAILABLE", async () => {
    const { store, name } = await named();
    await store.bindEmbedder({ id: "e", dimension: 4 });
    const kept = newMemory({ text: "kept before the loss" });
    await store.insertMemory(kept);
    const lost = newMemory({ text: "written before the loss" });
    const attempt = store.transaction(async (tx) => {
      await tx.insertMemory(lost);
      // The server ends this very connection (a failover, a restart, a network cut).
      const ended = await sql(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where application_name = $1 and backend_xid is not null`,
        [name],
      );
      expect(ended).toHaveLength(1);
      await tx.getMemory(lost.id);
    });
    await expect(attempt).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
    expect(await store.getMemory(lost.id)).toBeNull();
    expect((await store.getMemory(kept.id))?.text).toBe("kept before the loss");
  });

  it("keeps answering after the server closed its idle pooled connections", async () => {
    const { store, name } = await named();
    await store.bindEmbedder({ id: "e", dimension: 4 });
    const memory = newMemory({ text: "survives a restart of connections" });
    await store.insertMemory(memory);
    const killed = await sql(
      "select pg_terminate_backend(pid) as done from pg_stat_activity where application_name = $1 and state = 'idle'",
      [name],
    );
    expect(killed.length).toBeGreaterThan(0);
    expect((await store.getMemory(memory.id))?.text).toBe("survives a restart of connections");
  });

  describe("dense search", () => {
    const dimension = 8;

    const fill = async (store: MemoryStore) => {
      await store.bindEmbedder({ id: "e", dimension });
      const all: { id: string; embedding: Float32Array; rare: boolean; user: string }[] = [];
      await store.transaction(async (tx) => {
        for (let i = 0; i < 400; i++) {
          const user = i < 390 ? "crowd" : "small";
          const rare = user === "crowd" && i % 15 === 0;
          const memory = newMemory({
            text: `memory ${i}`,
            user_id: user,
            metadata: rare ? { tag: "rare" } : {},
            embedding: randomVector(i + 1, dimension),
          });
          all.push({ id: memory.id, embedding: memory.embedding, rare, user });
          await tx.insertMemory(memory);
        }
      });
      return all;
    };

    const bruteForce = (
      all: { id: string; embedding: Float32Array }[],
      query: Float32Array,
      k: number,
    ): string[] =>
      all
        .map((entry) => ({ id: entry.id, similarity: cosine(entry.embedding, query) }))
        .sort((a, b) => b.similarity - a.similarity)
        .slice(0, k)
        .map((entry) => entry.id);

    it("is exact for a scope below the threshold, with an HNSW index present", async () => {
      const store = await make({ exactSearchBelow: 50, efSearch: 10 });
      const all = await fill(store);
      const small = all.filter((entry) => entry.user === "small");
      for (let q = 0; q < 5; q++) {
        const query = randomVector(1000 + q, dimension);
        const hits = await store.searchDense({
          filter: parseFilters({ user_id: "small" }),
          vector: query,
          k: 5,
        });
        expect(hits.map((hit) => hit.id)).toEqual(bruteForce(small, query, 5));
      }
    });

    it("returns a full page for a selective filter above the threshold (no post-filter trap)", async () => {
      // 26 of 400 memories pass: above a threshold of 10, so the HNSW index is used, with a candidate
      // list (ef 10) a post-filter would leave nearly empty.
      const store = await make({ exactSearchBelow: 10, efSearch: 10 });
      const all = await fill(store);
      // The trap is real here: the same index scan without iterative scanning comes back short.
      const schema = store.location.match(/schema (\w+)/)?.[1];
      await sql(`set search_path = ${schema}, public`);
      await sql("set enable_sort = off; set hnsw.ef_search = 10; set hnsw.iterative_scan = off");
      const trapped = await sql(
        `select id from memories m where user_id = 'crowd' and metadata_doc #> '{tag}' = '"rare"'
         order by embedding <=> $1::vector limit 8`,
        [`[${Array.from(randomVector(2000, dimension)).join(",")}]`],
      );
      await sql("reset enable_sort; reset hnsw.ef_search; reset hnsw.iterative_scan; reset search_path");
      expect(trapped.length).toBeLessThan(8);
      const rare = all.filter((entry) => entry.rare);
      expect(rare.length).toBeGreaterThan(10);
      const filter = parseFilters({ user_id: "crowd", tag: "rare" });
      for (let q = 0; q < 5; q++) {
        const query = randomVector(2000 + q, dimension);
        const hits = await store.searchDense({ filter, vector: query, k: 8 });
        expect(hits).toHaveLength(8);
        const allowed = new Set(rare.map((entry) => entry.id));
        expect(hits.every((hit) => allowed.has(hit.id))).toBe(true);
        // Similarities are exact distances, best first, whichever path found them.
        const similarities = hits.map((hit) => hit.similarity);
        expect([...similarities].sort((a, b) => b - a)).toEqual(similarities);
      }
    });

    it("searches every memory when the filter is empty, best first", async () => {
      const store = await make({ exactSearchBelow: 10 });
      const all = await fill(store);
      const query = randomVector(3000, dimension);
      const hits = await store.searchDense({ filter: parseFilters({}), vector: query, k: 10 });
      expect(hits).toHaveLength(10);
      // 400 vectors of 8 dimensions: HNSW finds the true nearest at this size.
      expect(hits.map((hit) => hit.id)).toEqual(bruteForce(all, query, 10));
    });
  });

  it("gives a lease to exactly one of many holders racing from separate pools (hosts)", async () => {
    const schema = uniqueSchema();
    const racers = await Promise.all(Array.from({ length: 6 }, () => make({ schema })));
    for (let round = 0; round < 5; round++) {
      const results = await Promise.all(
        racers.map((store, i) =>
          store.acquireLease(
            `user_id=round-${round}`,
            { holder: `h${i}`, host: `host-${i}`, pid: 100 + i },
            "2026-01-01T00:00:00.000Z",
            60_000,
          ),
        ),
      );
      const winners = results.filter((result) => result.acquired);
      expect(winners).toHaveLength(1);
      const winner = winners[0];
      if (winner?.acquired !== true) throw new Error("no winner");
      for (const result of results) {
        if (!result.acquired) expect(result.heldBy.holder).toBe(winner.lease.holder);
      }
    }
  });
});
