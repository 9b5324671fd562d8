import { expect } from "vitest";
import { parseFilters } from "../../../src/filters/parse-filters.js";
import { type ContractPart, newMemory } from "./harness.js";

const filter = (input: Record<string, unknown>) => parseFilters(input);

/** The snapshots sub-port. */
export const snapshotsPart: ContractPart = {
  name: "snapshots",
  cases(it, store) {
    it("streams one consistent snapshot: deletes committed while it is read are not seen", async () => {
      for (let index = 0; index < 1200; index++) {
        const at = new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString();
        await store().insertMemory(newMemory({ text: `memory ${index}`, createdAt: at, updatedAt: at }));
      }
      const seen: string[] = [];
      let deleted = false;
      for await (const page of store().streamMemories({
        filter: filter({ user_id: "alice" }),
        pageSize: 500,
      })) {
        seen.push(...page.map((row) => row.text));
        if (!deleted) {
          const { rows } = await store().listMemories({
            filter: filter({ user_id: "alice" }),
            limit: 2000,
            offset: 0,
          });
          await store().transaction(async (tx) => {
            for (const row of rows) await tx.deleteMemory(row.id);
          });
          deleted = true;
        }
      }
      expect(seen).toHaveLength(1200);
      expect(seen[0]).toBe("memory 0");
      expect(seen.at(-1)).toBe("memory 1199");
      expect(
        (await store().listMemories({ filter: filter({ user_id: "alice" }), limit: 1, offset: 0 })).total,
      ).toBe(0);
    });

    it("applies the filter and the order, and ends cleanly when the reader stops early", async () => {
      await store().insertMemory(newMemory({ text: "a", createdAt: "2026-01-01T00:00:00.000Z" }));
      await store().insertMemory(
        newMemory({ text: "b", createdAt: "2026-01-02T00:00:00.000Z", user_id: "bob" }),
      );
      await store().insertMemory(newMemory({ text: "c", createdAt: "2026-01-03T00:00:00.000Z" }));
      const newest: string[] = [];
      for await (const page of store().streamMemories({
        filter: filter({ user_id: "alice" }),
        order: "newest",
        pageSize: 1,
      })) {
        newest.push(...page.map((row) => row.text));
        break;
      }
      expect(newest).toEqual(["c"]);
      // The early stop left nothing open: writes and a full read still work.
      await store().insertMemory(newMemory({ text: "d", createdAt: "2026-01-04T00:00:00.000Z" }));
      const all: string[] = [];
      for await (const page of store().streamMemories({ filter: filter({ user_id: "alice" }) })) {
        all.push(...page.map((row) => row.text));
      }
      expect(all).toEqual(["a", "c", "d"]);
    });
  },
};
