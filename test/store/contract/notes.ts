import { expect } from "vitest";
import type { ContractPart } from "./harness.js";

const unit = (values: readonly number[]) => {
  const norm = Math.hypot(...values);
  return new Float32Array(values.map((value) => value / norm));
};

const file = (path: string, sha256 = "a".repeat(64), shortTerm = true) => ({
  path,
  sha256,
  size: 120,
  mtimeMs: 1_762_333_200_000.5,
  embedder: "hash:test:3",
  shortTerm,
  indexedAt: "2026-11-05T09:00:00.000Z",
});

/** The notes sub-port. */
export const notesPart: ContractPart = {
  name: "notes",
  cases(it, store) {
    it("indexes a file's chunks and finds them by keyword and by vector, per workspace", async () => {
      await store().replaceNoteFile("/ws/ana", file("memory/2026-11-04.md"), [
        { startLine: 3, endLine: 3, text: "Book the ryokan in Kyoto by March", embedding: unit([1, 0, 0]) },
        { startLine: 5, endLine: 6, text: "Dentist moved to Thursday", embedding: unit([0, 1, 0]) },
      ]);
      await store().replaceNoteFile("/ws/ana", file("MEMORY.md", "b".repeat(64), false), [
        {
          startLine: 1,
          endLine: 1,
          text: "Long-Term Memory: Kyoto trip planned",
          embedding: unit([1, 1, 0]),
        },
      ]);
      await store().replaceNoteFile("/ws/bo", file("memory/2026-11-04.md"), [
        { startLine: 1, endLine: 1, text: "Kyoto is where Bo grew up", embedding: unit([1, 0, 0]) },
      ]);

      const keyword = await store().searchNotesKeyword("/ws/ana", ["kyoto"], 10);
      expect(keyword.map((hit) => [hit.path, hit.startLine, hit.shortTerm])).toEqual(
        expect.arrayContaining([
          ["memory/2026-11-04.md", 3, true],
          ["MEMORY.md", 1, false],
        ]),
      );
      expect(keyword).toHaveLength(2);
      expect(keyword.every((hit) => hit.bm25 > 0)).toBe(true);
      expect(await store().searchNotesKeyword("/ws/ana", [], 10)).toEqual([]);

      const dense = await store().searchNotesDense("/ws/ana", unit([1, 0.1, 0]), 2);
      expect(dense.map((hit) => [hit.path, hit.startLine, hit.endLine])).toEqual([
        ["memory/2026-11-04.md", 3, 3],
        ["MEMORY.md", 1, 1],
      ]);
      expect(dense[0]?.similarity).toBeGreaterThan(dense[1]?.similarity ?? 1);
      expect(dense[0]?.text).toBe("Book the ryokan in Kyoto by March");
    });

    it("replaces a file whole and forgets deleted files", async () => {
      await store().replaceNoteFile("/ws/cy", file("memory/2026-11-07.md"), [
        { startLine: 1, endLine: 1, text: "Old plan: Lisbon", embedding: unit([1, 0, 0]) },
      ]);
      await store().replaceNoteFile("/ws/cy", file("memory/2026-11-07.md", "c".repeat(64)), [
        { startLine: 2, endLine: 2, text: "New plan: Porto", embedding: unit([0, 1, 0]) },
      ]);
      expect(await store().searchNotesKeyword("/ws/cy", ["lisbon"], 10)).toEqual([]);
      expect((await store().searchNotesKeyword("/ws/cy", ["porto"], 10)).map((hit) => hit.startLine)).toEqual(
        [2],
      );
      expect((await store().listNoteFiles("/ws/cy")).map((each) => each.sha256)).toEqual(["c".repeat(64)]);
      await store().putNoteFile("/ws/cy", { ...file("memory/2026-11-07.md", "c".repeat(64)), mtimeMs: 9 });
      expect((await store().listNoteFiles("/ws/cy")).map((each) => each.mtimeMs)).toEqual([9]);
      expect((await store().searchNotesKeyword("/ws/cy", ["porto"], 10)).map((hit) => hit.startLine)).toEqual(
        [2],
      );
      await store().deleteNoteFiles("/ws/cy", ["memory/2026-11-07.md"]);
      expect(await store().listNoteFiles("/ws/cy")).toEqual([]);
      expect(await store().searchNotesDense("/ws/cy", unit([0, 1, 0]), 5)).toEqual([]);
    });

    it("writes the index inside a transaction only when it commits, and a reset clears it", async () => {
      await expect(
        store().transaction(async (tx) => {
          await tx.replaceNoteFile("/ws/di", file("memory/2026-11-08.md"), [
            { startLine: 1, endLine: 1, text: "Rolled back", embedding: unit([1, 0, 0]) },
          ]);
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect(await store().listNoteFiles("/ws/di")).toEqual([]);
      await store().replaceNoteFile("/ws/di", file("memory/2026-11-08.md"), [
        { startLine: 1, endLine: 1, text: "Kept", embedding: unit([1, 0, 0]) },
      ]);
      await store().reset();
      expect(await store().listNoteFiles("/ws/di")).toEqual([]);
      expect(await store().searchNotesKeyword("/ws/di", ["kept"], 5)).toEqual([]);
    });
  },
};
