import { expect } from "vitest";
import { parseFilters } from "../../../src/filters/parse-filters.js";
import { type ContractPart, newMemory } from "./harness.js";

const filter = (input: Record<string, unknown>) => parseFilters(input);

/** The transactions sub-port. */
export const transactionsPart: ContractPart = {
  name: "transactions",
  cases(it, store) {
    it("commits a transaction's writes together", async () => {
      await store().transaction(async (tx) => {
        await tx.insertMemory(newMemory({ text: "one" }));
        await tx.insertMemory(newMemory({ text: "two" }));
      });
      expect(
        (await store().listMemories({ filter: filter({ user_id: "alice" }), limit: 10, offset: 0 })).total,
      ).toBe(2);
    });
    it("rolls back every write of a failed transaction", async () => {
      const kept = newMemory({ text: "kept" });
      await store().insertMemory(kept);
      await expect(
        store().transaction(async (tx) => {
          await tx.insertMemory(newMemory({ text: "lost" }));
          await tx.deleteMemory(kept.id);
          await tx.addHistory({
            memoryId: kept.id,
            action: "DELETE",
            previousValue: "kept",
            newValue: null,
            actor: "user",
            createdAt: "2026-01-01T00:00:00.000Z",
          });
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      const { rows } = await store().listMemories({
        filter: filter({ user_id: "alice" }),
        limit: 10,
        offset: 0,
      });
      expect(rows.map((row) => row.text)).toEqual(["kept"]);
      expect(await store().listHistory(kept.id)).toEqual([]);
      expect(
        await store().searchKeyword({ filter: filter({ user_id: "alice" }), terms: ["lost"], k: 5 }),
      ).toEqual([]);
    });
    it("rolls back only the inner part of a failed nested transaction (a savepoint on the tx handle)", async () => {
      await store().transaction(async (tx) => {
        await tx.insertMemory(newMemory({ text: "outer" }));
        await expect(
          tx.transaction(async (inner) => {
            await inner.insertMemory(newMemory({ text: "inner" }));
            throw new Error("inner failure");
          }),
        ).rejects.toThrow("inner failure");
        // Two levels deep: the innermost failure leaves the middle level's write in place.
        await tx.transaction(async (middle) => {
          await middle.insertMemory(newMemory({ text: "middle" }));
          await expect(
            middle.transaction(async (innermost) => {
              await innermost.insertMemory(newMemory({ text: "innermost" }));
              throw new Error("innermost failure");
            }),
          ).rejects.toThrow("innermost failure");
        });
      });
      const { rows } = await store().listMemories({
        filter: filter({ user_id: "alice" }),
        limit: 10,
        offset: 0,
      });
      expect(rows.map((row) => row.text).sort()).toEqual(["middle", "outer"]);
    });
    it("sees its own writes through the tx handle before it commits", async () => {
      await store().transaction(async (tx) => {
        const memory = newMemory({ text: "uncommitted" });
        await tx.insertMemory(memory);
        expect((await tx.getMemory(memory.id))?.text).toBe("uncommitted");
        expect(
          (await tx.listMemories({ filter: filter({ user_id: "alice" }), limit: 5, offset: 0 })).total,
        ).toBe(1);
      });
    });
    it("serialises concurrent calls without interleaving a transaction", async () => {
      const writes = Array.from({ length: 20 }, (_, index) =>
        store().transaction(async (tx) => {
          await tx.insertMemory(newMemory({ text: `concurrent ${index}` }));
          await new Promise((resolve) => setTimeout(resolve, 1));
          await tx.insertMemory(newMemory({ text: `concurrent ${index} second` }));
        }),
      );
      await Promise.all(writes);
      expect(
        (await store().listMemories({ filter: filter({ user_id: "alice" }), limit: 1, offset: 0 })).total,
      ).toBe(40);
    });
    it("refuses a call through the store itself from inside its own transaction", async () => {
      // On a pooled backend it would run on another connection, outside the transaction.
      await expect(
        store().transaction(async () => {
          await store().getMemory("anything");
        }),
      ).rejects.toMatchObject({ code: "INTERNAL" });
      expect(
        (await store().listMemories({ filter: filter({ user_id: "alice" }), limit: 1, offset: 0 })).total,
      ).toBe(0);
    });
  },
};
