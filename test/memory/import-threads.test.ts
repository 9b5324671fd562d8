/**
 * Issue 33, hole 2, through the SDK's `importMemories`, on SQLite and (with `LUCID_PG_URL`)
 * PostgreSQL: a record imported into the thread of another scope's run lands in its own scope's
 * thread of that name — it reads none of the other scope's words, lends it none, and does not move
 * where that scope's next memory goes — and one import that puts two scopes in one thread is refused.
 */

import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { type Memory, openMemory } from "../../src/index.js";
import { postgresTestUrl, temporaryPostgresStores } from "../helpers/postgres.js";
import { tempFiles } from "../helpers/temp-dir.js";
import { wordEmbedder } from "../helpers/word-embedder.js";

const BOBS_THREAD = "run:user_id=bob&run_id=trip";
const files = tempFiles("import-threads");
const stores = postgresTestUrl() === undefined ? undefined : temporaryPostgresStores();
afterAll(async () => {
  await stores?.dropAll();
});

const BACKENDS: (readonly [string, () => Promise<Memory>])[] = [
  ["sqlite", () => openMemory({ path: files.path(), embedder: wordEmbedder() })],
  ...(stores === undefined
    ? []
    : [
        [
          "postgres",
          async () => openMemory({ store: await stores.make(), embedder: wordEmbedder() }),
        ] as const,
      ]),
];

describe.each(BACKENDS)("importMemories and threads on %s", (_name, open) => {
  let memory: Memory;
  beforeEach(async () => {
    memory = await open();
    await memory.add(
      [
        { role: "user", content: "Which city for the anniversary?" },
        { role: "assistant", content: "Lisbon, in the old tram quarter" },
      ],
      { userId: "bob", runId: "trip" },
    );
    return () => memory.close();
  });

  /** The texts a keyword search finds for `user`: those whose window holds a word of the query. */
  const keywordHits = async (user: string, query: string) =>
    (await memory.search(query, { filters: { user_id: user }, mode: "keyword", threshold: 0 })).results
      .map((result) => result.memory)
      .sort();
  const positions = async (user: string) => {
    const found: [string, number | undefined][] = [];
    for await (const record of memory.exportMemories({ filters: { user_id: user } }))
      found.push([record.text, record.thread_position]);
    return found.sort((a, b) => (a[1] ?? 0) - (b[1] ?? 0));
  };

  it("keeps a record given another scope's thread in a thread of its own scope", async () => {
    const result = await memory.importMemories(
      [
        { text: "The vault code is walrus", user_id: "alice", thread: BOBS_THREAD, threadPosition: 2 },
        // As far along as PostgreSQL's integer column goes: bob's next memory must not come after it.
        { text: "Far along", user_id: "alice", thread: BOBS_THREAD, threadPosition: 2147483647 },
      ],
      { strict: true },
    );
    expect(result).toMatchObject({ imported: 2, failed: 0 });
    expect(await keywordHits("alice", "Lisbon anniversary")).toEqual([]);
    expect(await keywordHits("bob", "walrus")).toEqual([]);
    expect(await keywordHits("bob", "anniversary")).toEqual([
      "Lisbon, in the old tram quarter",
      "Which city for the anniversary?",
    ]);
    await memory.add("Book the tram tour", { userId: "bob", runId: "trip" });
    expect(await positions("bob")).toEqual([
      ["Which city for the anniversary?", 0],
      ["Lisbon, in the old tram quarter", 1],
      ["Book the tram tour", 2],
    ]);
    expect(await keywordHits("bob", "tour")).toEqual([
      "Book the tram tour",
      "Lisbon, in the old tram quarter",
    ]);
  });

  it("refuses one import that gives two scopes one thread: strict writes nothing, else those records fail", async () => {
    const records = [
      { text: "Kite festival on Saturday", user_id: "alice", thread: "call:kites", threadPosition: 0 },
      { text: "Bring the red kite", user_id: "bob", thread: "call:kites", threadPosition: 1 },
      { text: "Unthreaded and fine", user_id: "alice" },
    ];
    const before = [await positions("alice"), await positions("bob")];
    await expect(memory.importMemories(records, { strict: true })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      details: { failures: [{ index: 0 }, { index: 1 }] },
    });
    expect([await positions("alice"), await positions("bob")]).toEqual(before);
    const result = await memory.importMemories(records);
    expect(result.items.map((item) => [item.status, item.error?.code])).toEqual([
      ["failed", "INVALID_ARGUMENT"],
      ["failed", "INVALID_ARGUMENT"],
      ["imported", undefined],
    ]);
    expect(await keywordHits("bob", "kite")).toEqual([]);
  });

  it("refuses a thread position past what the engines store, with the record's error, not the database's", async () => {
    const result = await memory.importMemories([
      { text: "Planted far along", user_id: "alice", thread: "call:far", threadPosition: 2_147_483_648 },
    ]);
    expect(result.items.map((item) => [item.status, item.error?.code])).toEqual([
      ["failed", "INVALID_ARGUMENT"],
    ]);
    expect(result.items[0]?.error?.message).toMatch(/thread_position/u);
  });

  it("never replaces another owner's memory by its id: strict refuses all, else that record fails", async () => {
    const [bobs] = (await memory.getAll({ userId: "bob", runId: "trip" })).results;
    const id = bobs?.id as string;
    const forged = { id, text: "Alice took this memory over", user_id: "alice", run_id: "trip" };
    await expect(
      memory.importMemories([forged], { onConflict: "replace", strict: true }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT", details: { failures: [{ index: 0 }] } });
    const result = await memory.importMemories([forged, { text: "Alice's own note", user_id: "alice" }], {
      onConflict: "replace",
    });
    expect(result.items.map((item) => [item.status, item.error?.code])).toEqual([
      ["failed", "INVALID_ARGUMENT"],
      ["imported", undefined],
    ]);
    expect(result.items[0]?.error?.message).toMatch(/another scope/u);
    const after = await memory.get(id);
    expect(after).toMatchObject({ memory: bobs?.memory, user_id: "bob" });
    // The same owner restoring its own backup still replaces.
    const restored = await memory.importMemories(
      [{ id, text: "Lisbon, by the river", user_id: "bob", run_id: "trip" }],
      {
        onConflict: "replace",
      },
    );
    expect(restored.replaced).toBe(1);
  });
});
