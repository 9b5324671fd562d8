/**
 * Copying a store across backends: SQLite into PostgreSQL and back again, through `copyStore`. Every
 * read port answers the same on the copy, keyword search (BM25 on both) ranks the same ids in the
 * same order, and an export of the copy is the export of the source, record for record and bit for
 * bit. Skipped without `LUCID_PG_URL`.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseFilters } from "../../src/filters/parse-filters.js";
import { copyStore } from "../../src/store/copy-store.js";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import type { MemoryStore } from "../../src/store/store.js";
import { postgresTestUrl, temporaryPostgresStores } from "../helpers/postgres.js";
import { DIMENSION } from "./contract/harness.js";
import {
  comparable,
  expectWritesContinue,
  exportAll,
  fillEveryKind,
  readEverything,
  searchIds,
} from "./contract/transfer-fixture.js";

describe.skipIf(postgresTestUrl() === undefined)("copying a store from SQLite to PostgreSQL", () => {
  const postgres = temporaryPostgresStores();
  const dir = mkdtempSync(join(tmpdir(), "lucid-transfer-"));
  const open: MemoryStore[] = [];
  const sqlite = (name: string) => {
    const store = createSqliteStore({ path: join(dir, name) });
    open.push(store);
    return store;
  };
  const pg = async () => {
    const store = await postgres.make();
    open.push(store);
    return store;
  };
  afterAll(async () => {
    for (const store of open) await store.close();
    await postgres.dropAll();
    rmSync(dir, { recursive: true, force: true });
  });

  it("copies every record exactly, and the copy reads, ranks and exports the same", async () => {
    const source = sqlite("source.db");
    await source.bindEmbedder({ id: "test-embedder", dimension: DIMENSION });
    const filled = await fillEveryKind(source);
    const target = await pg();
    const progress: number[] = [];
    const result = await copyStore(source, target, {
      pageSize: 4,
      onProgress: ({ copied, total }) => {
        progress.push(copied);
        expect(total).toBe(39);
      },
    });
    expect(result).toEqual({ verified: true, counts: await source.countRecords() });
    expect(progress.at(-1)).toBe(39);

    expect(await readEverything(target, filled)).toEqual(await readEverything(source, filled));
    const [fromSqlite, fromPostgres] = [await searchIds(source), await searchIds(target)];
    expect(fromPostgres).toEqual(fromSqlite);
    expect(fromSqlite.keyword.length).toBeGreaterThan(2);
    // BM25 on both ranks the same ids in the same order (scores are each backend's own).
    const query = { filter: parseFilters({ user_id: "alice" }), terms: ["kyoto", "tea", "march"], k: 10 };
    const [sqliteHits, postgresHits] = [await source.searchKeyword(query), await target.searchKeyword(query)];
    expect(sqliteHits.length).toBeGreaterThan(2);
    expect(postgresHits.map((hit) => hit.id)).toEqual(sqliteHits.map((hit) => hit.id));
    expect(comparable((await exportAll(target)).flat())).toEqual(
      comparable((await exportAll(source)).flat()),
    );

    // And back: PostgreSQL into a new SQLite file gives the same store again.
    const back = sqlite("back.db");
    await copyStore(target, back);
    expect(comparable((await exportAll(back)).flat())).toEqual(comparable((await exportAll(source)).flat()));
    expect(await readEverything(back, filled)).toEqual(await readEverything(source, filled));

    await expectWritesContinue(target, filled);
    await expectWritesContinue(back, filled);
  });
});
