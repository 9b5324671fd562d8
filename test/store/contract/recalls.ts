import { expect } from "vitest";
import type { ContractPart } from "./harness.js";

const record = (key: string, recallCount: number, at = "2026-11-05T09:00:00.000Z") => ({
  key,
  entry: { key, recallCount, queryHashes: ["a1b2c3d4e5f6"], nested: { days: ["2026-11-05"] } },
  updatedAt: at,
  recalledAt: at,
  priority: 1,
});

/** The recalls sub-port. */
export const recallsPart: ContractPart = {
  name: "recalls",
  cases(it, store) {
    it("keeps each workspace's records by key, replacing on write", async () => {
      const a = "memory:memory/2026-11-04.md:3:3";
      const b = "memory:memory/2026-11-04.md:5:6";
      await store().putRecalls("/home/ana/ws", [record(a, 1), record(b, 2)]);
      await store().putRecalls("/home/bo/ws", [record(a, 9)]);
      expect(await store().getRecalls("/home/ana/ws", [b, "missing", a])).toEqual([
        record(b, 2),
        record(a, 1),
      ]);
      await store().putRecalls("/home/ana/ws", [record(a, 3, "2026-11-06T09:00:00.000Z")]);
      expect(await store().listRecalls("/home/ana/ws")).toEqual([
        record(a, 3, "2026-11-06T09:00:00.000Z"),
        record(b, 2),
      ]);
      expect(await store().listRecalls("/home/bo/ws")).toEqual([record(a, 9)]);
      await store().deleteRecalls("/home/ana/ws", [a]);
      expect((await store().listRecalls("/home/ana/ws")).map((each) => each.key)).toEqual([b]);
      expect(await store().getRecalls("/home/ana/ws", [])).toEqual([]);
    });

    it("writes records inside a transaction only when it commits", async () => {
      const key = "memory:memory/2026-11-07.md:1:1";
      await expect(
        store().transaction(async (tx) => {
          await tx.putRecalls("/home/cy/ws", [record(key, 1)]);
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect(await store().listRecalls("/home/cy/ws")).toEqual([]);
      await store().transaction((tx) => tx.putRecalls("/home/cy/ws", [record(key, 1)]));
      expect(await store().listRecalls("/home/cy/ws")).toEqual([record(key, 1)]);
    });

    it("trims a workspace to the most recently recalled records, sparing the ones it is told to keep", async () => {
      const key = (n: number) => `memory:memory/2026-11-${String(n).padStart(2, "0")}.md:1:1`;
      const at = (n: number) => `2026-11-${String(n).padStart(2, "0")}T09:00:00.000Z`;
      // Written out of recency order: the store must order by recalledAt, not by insertion or key.
      await store().putRecalls(
        "/home/ed/ws",
        [5, 1, 4, 2, 3].map((n) => ({ ...record(key(n), 1), recalledAt: at(n) })),
      );
      await store().putRecalls("/home/fi/ws", [record(key(1), 1)]);
      expect(await store().trimRecalls("/home/ed/ws", 5, [])).toBe(0);
      // A lower priority goes first whatever its time: 6, the newest, at priority 0, then 1, the oldest.
      await store().putRecalls("/home/ed/ws", [{ ...record(key(6), 1), recalledAt: at(6), priority: 0 }]);
      expect(await store().trimRecalls("/home/ed/ws", 5, [])).toBe(1);
      expect((await store().listRecalls("/home/ed/ws")).map((each) => each.key)).not.toContain(key(6));
      // The oldest, 1, is kept on request; 2 and 3 go.
      expect(await store().trimRecalls("/home/ed/ws", 3, [key(1)])).toBe(2);
      expect((await store().listRecalls("/home/ed/ws")).map((each) => each.key)).toEqual([
        key(1),
        key(4),
        key(5),
      ]);
      // Another workspace is not counted or touched.
      expect(await store().listRecalls("/home/fi/ws")).toHaveLength(1);
      // Inside a transaction that rolls back, nothing is deleted.
      await expect(
        store().transaction(async (tx) => {
          expect(await tx.trimRecalls("/home/ed/ws", 0, [])).toBe(3);
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect(await store().listRecalls("/home/ed/ws")).toHaveLength(3);
    });

    it("are cleared by a reset, like everything else", async () => {
      await store().putRecalls("/home/di/ws", [record("memory:memory/2026-11-08.md:2:2", 1)]);
      await store().reset();
      expect(await store().listRecalls("/home/di/ws")).toEqual([]);
    });
  },
};
