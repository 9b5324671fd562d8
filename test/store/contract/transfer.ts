import { expect } from "vitest";
import { type ContractPart, DIMENSION, newMemory, vector } from "./harness.js";
import {
  comparable,
  copyPages,
  expectWritesContinue,
  exportAll,
  fillEveryKind,
  readEverything,
  searchIds,
} from "./transfer-fixture.js";

const AT = "2026-03-01T10:00:00.000Z";

/** The transfer sub-port. */
export const transferPart: ContractPart = {
  name: "transfer",
  cases(it, store, _reopen, fresh) {
    it("copies every kind of record exactly into a new store, which reads and searches the same", async () => {
      const filled = await fillEveryKind(store());
      const exported = await exportAll(store(), 3);
      expect(exported[0]).toEqual([
        {
          kind: "store",
          embedder: { id: "test-embedder", dimension: DIMENSION },
          reembedTarget: { id: "next-model", dimension: 2 },
        },
      ]);
      expect(exported.every((page) => page.length <= 3)).toBe(true);

      const copy = await fresh();
      for (const page of exported) await copy.importRecords(page);

      expect(await copy.countRecords()).toEqual(await store().countRecords());
      expect(await store().countRecords()).toMatchObject({
        store: 1,
        memory: 6,
        history: 9,
        message: 4,
        run: 2,
        gateState: 2,
        gateSession: 3,
        lease: 1,
        recall: 3,
        sleepState: 2,
        sleepEvent: 3,
        noteFile: 3,
      });
      expect(await readEverything(copy, filled)).toEqual(await readEverything(store(), filled));
      expect(await searchIds(copy)).toEqual(await searchIds(store()));
      expect((await searchIds(store())).window).toEqual(expect.arrayContaining(filled.threaded.slice(0, 2)));
      const again = await exportAll(copy, 3);
      expect(comparable(again.flat())).toEqual(comparable(exported.flat()));
      // The copy's seqs are the source's, gaps and all.
      expect((await copy.listSleepEvents("/ws/ana")).map((event) => event.seq)).toEqual(
        (await store().listSleepEvents("/ws/ana")).map((event) => event.seq),
      );

      await expectWritesContinue(copy, filled);
      // The copy can finish the re-embedding it was given.
      const remaining = await copy.listUnembedded(10);
      await copy.writeReembedded(
        remaining.map((row) => ({ id: row.id, hash: row.hash, embedding: vector(1, 1) })),
      );
      await copy.finishReembed();
      expect(await copy.embedderStamp()).toEqual({ id: "next-model", dimension: 2 });
    });

    it("reads one snapshot: writes committed while the export is read are not seen", async () => {
      for (let index = 0; index < 5; index++)
        await store().insertMemory(newMemory({ text: `memory ${index}` }));
      const seen: string[] = [];
      let wrote = false;
      for await (const page of store().exportRecords({ pageSize: 2 })) {
        for (const record of page) if (record.kind === "memory") seen.push(record.row.text);
        if (!wrote && page.some((record) => record.kind === "memory")) {
          await store().deleteMemory((await store().idsWithPrefix("mem-", 100)).at(-1) ?? "");
          await store().insertMemory(newMemory({ text: "written during the export" }));
          wrote = true;
        }
      }
      expect(seen).toEqual(["memory 0", "memory 1", "memory 2", "memory 3", "memory 4"]);
    });

    it("refuses to start a copy into a store that holds records, before writing anything", async () => {
      await store().insertMemory(newMemory({ text: "to copy" }));
      const [facts, ...rest] = await exportAll(store());
      if (facts === undefined) throw new Error("no store record");

      const occupied = await fresh();
      await occupied.bindEmbedder({ id: "test-embedder", dimension: DIMENSION });
      await occupied.insertMemory(newMemory({ text: "already here" }));
      const before = await occupied.countRecords();
      await expect(occupied.importRecords([...facts, ...rest.flat()])).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
      });
      expect(await occupied.countRecords()).toEqual(before);

      const history = await fresh();
      await history.addHistory({
        memoryId: "m",
        action: "DELETE",
        previousValue: "x",
        newValue: null,
        actor: "user",
        createdAt: AT,
      });
      await expect(history.importRecords(facts)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      expect(await history.embedderStamp()).toBeNull();

      const otherEmbedder = await fresh();
      await otherEmbedder.bindEmbedder({ id: "other", dimension: DIMENSION });
      await expect(otherEmbedder.importRecords(facts)).rejects.toMatchObject({ code: "EMBEDDER_MISMATCH" });

      // Bound to the same embedder and empty: a copy goes in.
      const sameEmbedder = await fresh();
      await sameEmbedder.bindEmbedder({ id: "test-embedder", dimension: DIMENSION });
      await copyPages(store(), sameEmbedder, 500);
      expect((await sameEmbedder.countRecords()).memory).toBe(1);
    });
  },
};
