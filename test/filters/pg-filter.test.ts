/**
 * The filter language on a real PostgreSQL: every case of `filter-contract.ts` selects exactly its
 * ids through the store's `listMemories`, and injection attempts leave the table as it was.
 * Skipped without `LUCID_PG_URL` (CI sets it and requires it).
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFilters } from "../../src/filters/parse-filters.js";
import type { MemoryStore } from "../../src/store/store.js";
import { postgresTestUrl, temporaryPostgresStores } from "../helpers/postgres.js";
import { newMemory, vector } from "../store/contract/harness.js";
import { FILTER_CASES, FIXTURE_ROWS } from "./filter-contract.js";

const url = postgresTestUrl();

describe.skipIf(url === undefined)("the filter language on PostgreSQL", () => {
  const stores = temporaryPostgresStores();
  let store: MemoryStore;

  beforeAll(async () => {
    store = await stores.make();
    await store.bindEmbedder({ id: "test", dimension: 4 });
    for (const row of FIXTURE_ROWS) {
      await store.insertMemory(
        newMemory({
          ...row,
          text: row.id,
          createdAt: row.created_at,
          updatedAt: row.updated_at,
          embedding: vector(1, 0, 0, 0),
        }),
      );
    }
  });

  afterAll(async () => {
    await store?.close();
    await stores.dropAll();
  });

  const select = async (filters: Record<string, unknown>) =>
    (
      await store.listMemories({ filter: parseFilters(filters), limit: 1000, offset: 0, order: "oldest" })
    ).rows
      .map((row) => row.id)
      .sort();

  it.each(FILTER_CASES)("$name", async ({ filters, ids }) => {
    expect(await select(filters)).toEqual([...ids].sort());
  });

  it("leaves the table intact after injection attempts", async () => {
    expect((await store.listMemories({ filter: parseFilters({}), limit: 1, offset: 0 })).total).toBe(
      FIXTURE_ROWS.length,
    );
  });
});
