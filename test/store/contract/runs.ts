import { createHash } from "node:crypto";
import { expect } from "vitest";
import { scopeKey } from "../../../src/core/scope.js";
import type { NewRunRecord } from "../../../src/store/ports/runs.js";
import { type ContractPart, newMemory } from "./harness.js";

const run = (id: string, scopeKey: string, kind = "dream"): NewRunRecord => ({
  id,
  kind,
  scopeKey,
  scope: { user_id: "alice" },
  mode: "auto",
  plan: { version: 1, actions: [] },
  decisions: { conflicts: {} },
  outcome: { merged: 0 },
  startedAt: "2026-01-01T00:00:00.000Z",
  committedAt: "2026-01-01T00:00:01.000Z",
  undoneAt: null,
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The run ledger sub-port. */
export const runsPart: ContractPart = {
  name: "runs",
  cases(it, store) {
    it("records runs with memory preimages, newest first, and marks them undone", async () => {
      const memory = newMemory({ text: "before", entities: [{ key: "x1", name: "X1", type: "name" }] });
      await store().insertMemory(memory);
      const { embedding, entities, ...row } = memory;
      expect(await store().getEntityLinks(memory.id)).toEqual([{ key: "x1", name: "X1", type: "name" }]);
      await store().insertRun(run("run-1", "user_id=alice"), [
        {
          kind: "memory",
          memoryId: memory.id,
          before: { row, embedding, entities },
          after: { hash: "h2", updatedAt: "2026-01-02T00:00:00.000Z" },
        },
        {
          kind: "memory",
          memoryId: "created-1",
          before: null,
          after: { hash: "h3", updatedAt: "2026-01-02T00:00:00.000Z" },
        },
      ]);
      await store().insertRun(run("run-2", "user_id=bob"), []);
      const stored = await store().getRun("run-1");
      expect(stored?.run).toEqual(run("run-1", "user_id=alice"));
      expect(stored?.changes).toEqual([
        {
          kind: "memory",
          memoryId: "created-1",
          before: null,
          after: { hash: "h3", updatedAt: "2026-01-02T00:00:00.000Z" },
        },
        {
          kind: "memory",
          memoryId: memory.id,
          before: { row, embedding, entities },
          after: { hash: "h2", updatedAt: "2026-01-02T00:00:00.000Z" },
        },
      ]);
      expect((await store().listRuns({ limit: 10 })).map((r) => r.id)).toEqual(["run-2", "run-1"]);
      expect((await store().listRuns({ scopeKey: "user_id=alice", limit: 10 })).map((r) => r.id)).toEqual([
        "run-1",
      ]);
      await store().markRunUndone("run-1", "2026-01-03T00:00:00.000Z");
      expect((await store().getRun("run-1"))?.run.undoneAt).toBe("2026-01-03T00:00:00.000Z");
      expect(await store().getRun("missing")).toBeNull();
    });

    it("records file preimages byte for byte, including files the run created", async () => {
      // Bytes that would not survive a text column: a NUL, invalid UTF-8, a BOM and CRLF line ends.
      const before = new Uint8Array([0xef, 0xbb, 0xbf, 0x23, 0x20, 0x4d, 0x0d, 0x0a, 0x00, 0xff, 0xfe, 0x0a]);
      const after = new TextEncoder().encode("# MEMORY\n\n- promoted\n");
      await store().insertRun(run("sleep-1", "workspace=/w", "sleep"), [
        { kind: "file", path: "MEMORY.md", before, after: { sha256: sha256(after) } },
        { kind: "file", path: "DREAMS.md", before: null, after: { sha256: sha256(after) } },
        { kind: "file", path: "empty.md", before: new Uint8Array(0), after: null },
      ]);
      const stored = await store().getRun("sleep-1");
      expect(stored?.changes).toEqual([
        { kind: "file", path: "DREAMS.md", before: null, after: { sha256: sha256(after) } },
        { kind: "file", path: "MEMORY.md", before, after: { sha256: sha256(after) } },
        { kind: "file", path: "empty.md", before: new Uint8Array(0), after: null },
      ]);
      const memoryFile = stored?.changes.find(
        (change) => change.kind === "file" && change.path === "MEMORY.md",
      );
      expect(memoryFile?.kind === "file" ? [...(memoryFile.before ?? [])] : []).toEqual([...before]);
    });

    it("lists runs of one kind", async () => {
      await store().insertRun(run("dream-1", "user_id=alice"), []);
      await store().insertRun(run("sleep-1", "workspace=/w", "sleep"), []);
      await store().insertRun(run("dream-2", "user_id=alice"), []);
      expect((await store().listRuns({ kind: "dream", limit: 10 })).map((r) => r.id)).toEqual([
        "dream-2",
        "dream-1",
      ]);
      expect((await store().listRuns({ kind: "sleep", limit: 10 })).map((r) => [r.id, r.kind])).toEqual([
        ["sleep-1", "sleep"],
      ]);
      expect((await store().listRuns({ kind: "dream", limit: 1 })).map((r) => r.id)).toEqual(["dream-2"]);
    });

    it("lists the runs within a scope: its keys with the same values, more keys allowed", async () => {
      const scoped = (id: string, scope: Record<string, string>): NewRunRecord => ({
        ...run(id, scopeKey(scope)),
        scope,
      });
      await store().insertRun(scoped("alice", { user_id: "alice" }), []);
      await store().insertRun(scoped("alice-coder", { user_id: "alice", agent_id: "coder" }), []);
      await store().insertRun(scoped("alicex", { user_id: "alicex" }), []);
      await store().insertRun(scoped("bob-coder", { user_id: "bob", agent_id: "coder" }), []);
      await store().insertRun(scoped("coder", { agent_id: "coder" }), []);
      // Values holding the key string's own separators, and a LIKE wildcard.
      await store().insertRun(scoped("odd", { user_id: "a&agent_id=coder", app_id: "x%_" }), []);
      await store().insertRun(run("sleep-1", "workspace=/w", "sleep"), []);
      const within = async (scope: Record<string, string>, limit = 10) =>
        (await store().listRuns({ kind: "dream", within: scope, limit })).map((r) => r.id);
      expect(await within({ user_id: "alice" })).toEqual(["alice-coder", "alice"]);
      expect(await within({ agent_id: "coder" })).toEqual(["coder", "bob-coder", "alice-coder"]);
      expect(await within({ user_id: "alice", agent_id: "coder" })).toEqual(["alice-coder"]);
      expect(await within({ user_id: "a&agent_id=coder" })).toEqual(["odd"]);
      expect(await within({ app_id: "x%_" })).toEqual(["odd"]);
      expect(await within({ app_id: "x" })).toEqual([]);
      expect(await within({ agent_id: "coder" }, 1)).toEqual(["coder"]);
      expect(await within({})).toHaveLength(6);
    });

    it("commits a run and its changes with the transaction, or not at all", async () => {
      await expect(
        store().transaction(async (tx) => {
          await tx.insertRun(run("lost", "user_id=alice"), [
            { kind: "file", path: "MEMORY.md", before: null, after: { sha256: "x" } },
          ]);
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect(await store().getRun("lost")).toBeNull();
    });
  },
};
