import { expect } from "vitest";
import type { SleepEventInput } from "../../../src/store/ports/sleep-state.js";
import type { ContractPart } from "./harness.js";

const AT = "2026-11-05T09:00:00.000Z";

const state = (key: string, value: unknown, updatedAt = AT) => ({ key, value, updatedAt });

const event = (type: string, n: number): SleepEventInput => ({
  type,
  at: `2026-11-05T09:00:${String(n).padStart(2, "0")}.000Z`,
  data: { n, phase: "light", counts: { staged: n } },
});

/** The sleep-state sub-port: JSON values by namespace and key, and the event log. */
export const sleepStatePart: ContractPart = {
  name: "sleep-state",
  cases(it, store) {
    it("keeps values per workspace and namespace by key, replacing on write", async () => {
      await store().putSleepState("/home/ana/ws", "ingest", [
        state("b.md", { offset: 2 }),
        state("a.md", { offset: 1 }),
      ]);
      await store().putSleepState("/home/ana/ws", "backfill", [state("a.md", { wrote: 7 })]);
      await store().putSleepState("/home/bo/ws", "ingest", [state("a.md", { offset: 9 })]);
      expect(await store().getSleepState("/home/ana/ws", "ingest", ["b.md", "missing", "a.md"])).toEqual([
        state("b.md", { offset: 2 }),
        state("a.md", { offset: 1 }),
      ]);
      await store().putSleepState("/home/ana/ws", "ingest", [
        state("a.md", { offset: 3 }, "2026-11-06T09:00:00.000Z"),
      ]);
      expect(await store().listSleepState("/home/ana/ws", "ingest")).toEqual([
        state("a.md", { offset: 3 }, "2026-11-06T09:00:00.000Z"),
        state("b.md", { offset: 2 }),
      ]);
      // Neither the other namespace nor the other workspace saw the writes.
      expect(await store().listSleepState("/home/ana/ws", "backfill")).toEqual([state("a.md", { wrote: 7 })]);
      expect(await store().listSleepState("/home/bo/ws", "ingest")).toEqual([state("a.md", { offset: 9 })]);
      expect(await store().listSleepState("/home/bo/ws", "backfill")).toEqual([]);

      await store().deleteSleepState("/home/ana/ws", "ingest", ["a.md"]);
      expect((await store().listSleepState("/home/ana/ws", "ingest")).map((each) => each.key)).toEqual([
        "b.md",
      ]);
      expect(await store().getSleepState("/home/ana/ws", "backfill", ["a.md"])).toHaveLength(1);
      expect(await store().getSleepState("/home/bo/ws", "ingest", ["a.md"])).toHaveLength(1);
      expect(await store().getSleepState("/home/ana/ws", "ingest", [])).toEqual([]);
      await store().deleteSleepState("/home/ana/ws", "ingest", []);
      expect(await store().listSleepState("/home/ana/ws", "ingest")).toHaveLength(1);
    });

    it("round-trips JSON values of every kind", async () => {
      const values: Record<string, unknown> = {
        object: { nested: { days: ["2026-11-05"], done: true }, none: null },
        array: [1, "two", { three: 3 }, [4]],
        number: 0.125,
        zero: 0,
        string: "memory/2026-11-04.md",
        empty: "",
        boolean: false,
        null: null,
      };
      await store().putSleepState(
        "/home/cy/ws",
        "kinds",
        Object.entries(values).map(([key, value]) => state(key, value)),
      );
      const read = await store().getSleepState("/home/cy/ws", "kinds", Object.keys(values));
      expect(Object.fromEntries(read.map((each) => [each.key, each.value]))).toStrictEqual(values);
    });

    it("writes values and events inside a transaction only when it commits", async () => {
      await expect(
        store().transaction(async (tx) => {
          await tx.putSleepState("/home/di/ws", "ingest", [state("a.md", { offset: 1 })]);
          await tx.appendSleepEvents("/home/di/ws", [event("memory.dream.completed", 1)]);
          expect(await tx.listSleepEvents("/home/di/ws")).toHaveLength(1);
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect(await store().listSleepState("/home/di/ws", "ingest")).toEqual([]);
      expect(await store().listSleepEvents("/home/di/ws")).toEqual([]);

      await store().transaction(async (tx) => {
        await tx.putSleepState("/home/di/ws", "ingest", [state("a.md", { offset: 1 })]);
        await tx.appendSleepEvents("/home/di/ws", [event("memory.dream.completed", 1)]);
      });
      expect(await store().listSleepState("/home/di/ws", "ingest")).toEqual([state("a.md", { offset: 1 })]);
      expect(await store().listSleepEvents("/home/di/ws")).toMatchObject([
        event("memory.dream.completed", 1),
      ]);
    });

    it("appends events with increasing sequence numbers and lists them newest first", async () => {
      const first = await store().appendSleepEvents("/home/ed/ws", [
        event("memory.recall.recorded", 1),
        event("memory.promotion.applied", 2),
      ]);
      const other = await store().appendSleepEvents("/home/fi/ws", [event("memory.recall.recorded", 3)]);
      const second = await store().appendSleepEvents("/home/ed/ws", [
        event("memory.recall.recorded", 4),
        event("memory.dream.completed", 5),
      ]);
      expect(first).toMatchObject([event("memory.recall.recorded", 1), event("memory.promotion.applied", 2)]);
      const seqs = [...first, ...other, ...second].map((each) => each.seq);
      expect(new Set(seqs).size).toBe(seqs.length);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));

      const listed = await store().listSleepEvents("/home/ed/ws");
      expect(listed).toEqual([...first, ...second].reverse());
      expect((await store().listSleepEvents("/home/ed/ws", { limit: 2 })).map((each) => each.data.n)).toEqual(
        [5, 4],
      );
      expect(
        (await store().listSleepEvents("/home/ed/ws", { type: "memory.recall.recorded" })).map(
          (each) => each.data.n,
        ),
      ).toEqual([4, 1]);
      expect(
        await store().listSleepEvents("/home/ed/ws", { type: "memory.recall.recorded", limit: 1 }),
      ).toEqual([second[0]]);
      expect(await store().listSleepEvents("/home/ed/ws", { type: "memory.unknown" })).toEqual([]);
      expect(await store().listSleepEvents("/home/fi/ws")).toEqual(other);
      // A limit below one still lists the newest.
      expect(await store().listSleepEvents("/home/ed/ws", { limit: 0 })).toEqual([second[1]]);
      expect(await store().appendSleepEvents("/home/ed/ws", [])).toEqual([]);
    });

    it("keeps only a workspace's newest events past `keep`, leaving other workspaces alone", async () => {
      await store().appendSleepEvents(
        "/home/gu/ws",
        [1, 2, 3].map((n) => event("memory.recall.recorded", n)),
      );
      await store().appendSleepEvents(
        "/home/ha/ws",
        [1, 2].map((n) => event("memory.recall.recorded", n)),
      );
      await store().appendSleepEvents("/home/gu/ws", [event("memory.dream.completed", 4)], 3);
      expect((await store().listSleepEvents("/home/gu/ws")).map((each) => each.data.n)).toEqual([4, 3, 2]);
      await store().appendSleepEvents(
        "/home/gu/ws",
        [5, 6].map((n) => event("memory.recall.recorded", n)),
        1,
      );
      expect((await store().listSleepEvents("/home/gu/ws")).map((each) => each.data.n)).toEqual([6]);
      expect((await store().listSleepEvents("/home/ha/ws")).map((each) => each.data.n)).toEqual([2, 1]);

      for (const keep of [0, -1, 1.5, Number.NaN]) {
        await expect(
          store().appendSleepEvents("/home/gu/ws", [event("memory.recall.recorded", 7)], keep),
        ).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      }
      expect((await store().listSleepEvents("/home/gu/ws")).map((each) => each.data.n)).toEqual([6]);
    });

    it("are cleared by a reset, like everything else", async () => {
      await store().putSleepState("/home/io/ws", "ingest", [state("a.md", { offset: 1 })]);
      await store().appendSleepEvents("/home/io/ws", [event("memory.dream.completed", 1)]);
      await store().reset();
      expect(await store().listSleepState("/home/io/ws", "ingest")).toEqual([]);
      expect(await store().listSleepEvents("/home/io/ws")).toEqual([]);
    });
  },
};
