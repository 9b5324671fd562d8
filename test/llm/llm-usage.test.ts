/**
 * The LLM usage ledger under concurrent writers: two stores on one database (two SQLite
 * connections to one file; two PostgreSQL pools on one schema) adding at once lose no call.
 */

import { afterAll, describe, expect, it } from "vitest";
import { type LlmSpend, readLlmUsage, recordLlmUsage } from "../../src/core/llm-usage.js";
import { createSqliteStore } from "../../src/index.js";
import { openPostgresStore } from "../../src/store/postgres/index.js";
import type { MemoryStore } from "../../src/store/store.js";
import { postgresTestUrl, temporaryPostgresStores } from "../helpers/postgres.js";
import { tempFiles } from "../helpers/temp-dir.js";

const CALL: LlmSpend = { calls: 1, requests: 2, failures: 0, inputTokens: 100, outputTokens: 10 };
const EACH = 25;

async function addConcurrently(a: MemoryStore, b: MemoryStore): Promise<void> {
  const at = "2026-12-02T00:00:00.000Z";
  await Promise.all(
    [a, b].flatMap((store, which) =>
      Array.from({ length: EACH }, () => recordLlmUsage(store, "add", CALL, { model: `m${which}`, at })),
    ),
  );
}

describe("the LLM usage ledger", () => {
  const files = tempFiles("llm-usage");

  it("loses no call when two SQLite connections add at once", async () => {
    const path = files.path();
    const a = await createSqliteStore({ path });
    const b = await createSqliteStore({ path });
    try {
      await addConcurrently(a, b);
      const usage = await readLlmUsage(a);
      expect(usage.add).toMatchObject({
        calls: 2 * EACH,
        requests: 4 * EACH,
        inputTokens: 200 * EACH,
        outputTokens: 20 * EACH,
      });
      expect(usage.dream.calls).toBe(0);
    } finally {
      await a.close();
      await b.close();
    }
  });

  const url = postgresTestUrl();
  describe.skipIf(url === undefined)("on PostgreSQL", () => {
    const stores = temporaryPostgresStores();
    afterAll(() => stores.dropAll());

    it("loses no call when two pools add at once", async () => {
      const a = await stores.make();
      const b = await openPostgresStore({
        url: stores.url,
        schema: stores.schemas.at(-1) as string,
        pool: { max: 4 },
      });
      try {
        await addConcurrently(a, b);
        expect((await readLlmUsage(b)).add).toMatchObject({
          calls: 2 * EACH,
          requests: 4 * EACH,
          inputTokens: 200 * EACH,
        });
      } finally {
        await a.close();
        await b.close();
      }
    });
  });
});
