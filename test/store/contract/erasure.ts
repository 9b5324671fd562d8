import { expect } from "vitest";
import type { MemoryPreimage, NewRunRecord } from "../../../src/store/ports/runs.js";
import { type ContractPart, newMemory, vector } from "./harness.js";

const SECRET = "ghp_scrubme0123456789abcdefghijklmnopqr";
const REDACTED = "[REDACTED:github-token]";

const run = (id: string, plan: object): NewRunRecord => ({
  id,
  kind: "dream",
  scopeKey: "user_id=alice",
  scope: { user_id: "alice" },
  mode: "yes",
  plan,
  decisions: {},
  outcome: {},
  startedAt: "2026-01-01T00:00:00.000Z",
  committedAt: "2026-01-01T00:00:01.000Z",
  undoneAt: null,
});

const at = "2026-01-01T00:00:00.000Z";

/** The erasure sub-port: values scrubbed from history, messages and plans; preimages rewritten; traces forgotten. */
export const erasurePart: ContractPart = {
  name: "erasure",
  cases(it, store) {
    it("replaces a value in the history of the named memories and the messages of the named scopes only", async () => {
      const add = (memoryId: string, previousValue: string | null, newValue: string | null) =>
        store().addHistory({
          memoryId,
          action: "UPDATE",
          previousValue,
          newValue,
          actor: "user",
          createdAt: at,
        });
      await add("m1", `token ${SECRET}`, `token ${REDACTED}`);
      await add("m1", null, `again ${SECRET} and ${SECRET}`);
      await add("m2", `other ${SECRET}`, null);
      const message = (content: string, name: string | null = null) => ({
        role: "user",
        content,
        name,
        createdAt: at,
      });
      await store().addMessages(
        "user_id=alice",
        [message(`my token is ${SECRET}`, SECRET), message("hello")],
        10,
      );
      await store().addMessages("user_id=bob", [message(`bob ${SECRET}`)], 10);

      const counts = await store().scrubValues([{ value: SECRET, replacement: REDACTED }], {
        memoryIds: ["m1"],
        sessionScopes: ["user_id=alice"],
      });
      expect(counts).toEqual({ history: 2, messages: 1 });
      expect((await store().listHistory("m1")).map((row) => [row.previousValue, row.newValue])).toEqual([
        [`token ${REDACTED}`, `token ${REDACTED}`],
        [null, `again ${REDACTED} and ${REDACTED}`],
      ]);
      expect((await store().listHistory("m2"))[0]?.previousValue).toBe(`other ${SECRET}`);
      expect(await store().listMessages("user_id=alice")).toEqual([
        message(`my token is ${REDACTED}`, REDACTED),
        message("hello"),
      ]);
      expect((await store().listMessages("user_id=bob"))[0]?.content).toBe(`bob ${SECRET}`);
    });

    it("finds the runs of a scope or that touched a memory, and scrubs their plans, JSON escapes and all", async () => {
      const quoted = 'pa"ss\\word-with-quote';
      const memory = newMemory({ text: `x ${quoted}` });
      const { embedding, entities, ...row } = memory;
      const change = (memoryId: string, before: MemoryPreimage | null) => ({
        kind: "memory" as const,
        memoryId,
        before,
        after: null,
      });
      await store().insertRun(run("r1", { actions: [{ text: `merged ${quoted}` }] }), [
        change(row.id, { row, embedding, entities }),
      ]);
      await store().insertRun({ ...run("r2", { text: quoted }), scopeKey: "user_id=bob" }, [
        change("other", null),
      ]);
      await store().insertRun({ ...run("r3", { text: quoted }), scopeKey: "user_id=carol" }, []);

      expect(await store().runsTouching({ scopeKeys: ["user_id=bob"], memoryIds: [row.id] })).toEqual([
        "r1",
        "r2",
      ]);
      expect(await store().runsTouching({ scopeKeys: [], memoryIds: [] })).toEqual([]);
      expect(
        await store().scrubRunPlans([{ value: quoted, replacement: "[REDACTED:password]" }], ["r1", "r2"]),
      ).toBe(2);
      expect((await store().getRun("r1"))?.run.plan).toEqual({
        actions: [{ text: "merged [REDACTED:password]" }],
      });
      expect((await store().getRun("r2"))?.run.plan).toEqual({ text: "[REDACTED:password]" });
      expect((await store().getRun("r3"))?.run.plan).toEqual({ text: quoted });
    });

    it("lists and replaces the preimages runs keep of a memory, and forgets its traces", async () => {
      const memory = newMemory({ text: `key ${SECRET}` });
      const { embedding, entities, ...row } = memory;
      const before: MemoryPreimage = { row, embedding, entities };
      const change = { kind: "memory" as const, memoryId: row.id, before, after: null };
      await store().insertRun(run("r1", {}), [change]);
      await store().insertRun(run("r2", {}), [change, { ...change, memoryId: "someone-else", before: null }]);
      await store().addHistory({
        memoryId: row.id,
        action: "ADD",
        previousValue: null,
        newValue: row.text,
        actor: "user",
        createdAt: at,
      });

      const listed = await store().listPreimages({ runIds: ["r1", "r2"], memoryId: row.id });
      expect(listed.map((entry) => entry.runId)).toEqual(["r1", "r2"]);
      expect(listed[0]?.before).toEqual(before);

      const scrubbed: MemoryPreimage = {
        row: { ...row, text: `key ${REDACTED}`, hash: "h-redacted" },
        embedding: null,
        entities: [],
      };
      await store().replacePreimage("r2", scrubbed);
      const after = await store().listPreimages({ runIds: ["r1", "r2"], memoryId: row.id });
      expect(after[0]?.before).toEqual(before);
      expect(after[1]?.before).toEqual(scrubbed);
      // Found by content: only r1's preimage still holds the value.
      const holding = await store().listPreimages({ runIds: ["r1", "r2"], containing: [SECRET, "absent"] });
      expect(holding.map((entry) => entry.runId)).toEqual(["r1"]);
      const r2 = await store().getRun("r2");
      expect(r2?.changes.find((entry) => entry.kind === "memory" && entry.memoryId === row.id)).toMatchObject(
        {
          before: scrubbed,
        },
      );

      expect(await store().forgetTraces(row.id)).toEqual({ history: 1, runs: 2 });
      expect(await store().listPreimages({ runIds: ["r1", "r2"] })).toEqual([]);
      expect(await store().listHistory(row.id)).toEqual([]);
      // The other memory of r2 is still recorded.
      expect(
        (await store().getRun("r2"))?.changes.map((entry) => entry.kind === "memory" && entry.memoryId),
      ).toEqual(["someone-else"]);
    });

    it("compacts without losing anything that is still stored", async () => {
      const keep = newMemory({ text: "green tea every morning", embedding: vector(0, 1, 0, 0) });
      const gone = newMemory({ text: `the scrubbed value ${SECRET}` });
      await store().insertMemory(keep);
      await store().insertMemory(gone);
      await store().deleteMemory(gone.id);
      const { complete } = await store().compact();
      expect(complete).toBe(true);
      expect((await store().getMemory(keep.id))?.text).toBe(keep.text);
      const alice = { kind: "condition", field: "user_id", op: "eq", value: "alice" } as const;
      const hits = (terms: string[]) => store().searchKeyword({ filter: alice, terms, k: 5 });
      expect((await hits(["green", "tea"])).map((hit) => hit.id)).toEqual([keep.id]);
      expect(await hits(["scrubbed"])).toEqual([]);
    });
  },
};
