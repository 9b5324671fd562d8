/**
 * `copyStore` beyond the transfer contract: it refuses a target that holds records before writing
 * to it, and a copy whose counts do not match — the source was written to meanwhile — fails naming
 * the kinds that differ.
 */

import { describe, expect, it } from "vitest";
import { copyStore } from "../../src/store/copy-store.js";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { DIMENSION, newMemory } from "./contract/harness.js";

const bound = async () => {
  const store = createSqliteStore({ path: ":memory:" });
  await store.bindEmbedder({ id: "test-embedder", dimension: DIMENSION });
  return store;
};

describe("copyStore", () => {
  it("copies into an empty store and reports the counts of every kind", async () => {
    const from = await bound();
    await from.insertMemory(newMemory({ text: "one" }));
    await from.addMessages("user_id=alice", [{ role: "user", content: "hi", name: null, createdAt: "x" }], 5);
    const to = createSqliteStore({ path: ":memory:" });
    const result = await copyStore(from, to);
    expect(result.verified).toBe(true);
    expect(result.counts).toMatchObject({ store: 1, memory: 1, message: 1, history: 0 });
    expect(await to.embedderStamp()).toEqual({ id: "test-embedder", dimension: DIMENSION });
  });

  it("refuses a target that holds records, and writes nothing to it", async () => {
    const from = await bound();
    await from.insertMemory(newMemory({ text: "one" }));
    const to = await bound();
    await to.insertMemory(newMemory({ text: "already here" }));
    await expect(copyStore(from, to)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    expect((await to.countRecords()).memory).toBe(1);
  });

  it("fails with STORE_FAILED, naming the kinds, when the source changed during the copy", async () => {
    const from = await bound();
    for (const text of ["a", "b", "c"]) await from.insertMemory(newMemory({ text }));
    const to = createSqliteStore({ path: ":memory:" });
    let wrote = false;
    const copying = copyStore(from, to, {
      pageSize: 1,
      onProgress: () => {
        if (wrote) return;
        wrote = true;
        void from.insertMemory(newMemory({ text: "written meanwhile" }));
      },
    });
    await expect(copying).rejects.toMatchObject({
      code: "STORE_FAILED",
      details: { differing: ["memory"] },
    });
  });
});
