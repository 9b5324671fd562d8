import { expect } from "vitest";
import type { ContractPart } from "./harness.js";

/** The history sub-port. */
export const historyPart: ContractPart = {
  name: "history",
  cases(it, store) {
    it("keeps history rows in order", async () => {
      const base = { memoryId: "m1", actor: "user", createdAt: "2026-01-01T00:00:00.000Z" };
      await store().addHistory({ ...base, action: "ADD", previousValue: null, newValue: "a" });
      await store().addHistory({ ...base, action: "UPDATE", previousValue: "a", newValue: "b" });
      await store().addHistory({ ...base, action: "DELETE", previousValue: "b", newValue: null });
      const rows = await store().listHistory("m1");
      expect(rows.map((row) => [row.action, row.previousValue, row.newValue])).toEqual([
        ["ADD", null, "a"],
        ["UPDATE", "a", "b"],
        ["DELETE", "b", null],
      ]);
      expect(await store().listHistory("m2")).toEqual([]);
    });
    it("keeps only the newest messages of a session", async () => {
      const message = (content: string) => ({
        role: "user",
        content,
        name: null,
        createdAt: "2026-01-01T00:00:00.000Z",
      });
      await store().addMessages("user_id=alice", [message("1"), message("2"), message("3")], 2);
      await store().addMessages("user_id=alice", [message("4")], 2);
      await store().addMessages("user_id=bob", [message("b")], 2);
      expect((await store().listMessages("user_id=alice")).map((row) => row.content)).toEqual(["3", "4"]);
      expect((await store().listMessages("user_id=bob")).map((row) => row.content)).toEqual(["b"]);
    });
  },
};
