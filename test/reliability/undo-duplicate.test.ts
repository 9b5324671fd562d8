/**
 * Issue 11, minor: undo restored a deleted memory next to a copy with the same text added to the
 * scope after the run, leaving two memories where `add` keeps one. Undo keeps the later copy, does
 * not restore the original, and names both.
 */
import { describe, expect, it } from "vitest";
import { runCli, runJson, tempHomes } from "../cli/run-cli.js";
import { useFakeEmbeddingServer, writeFakeEmbedderHome } from "../helpers/fake-openai-server.js";
import { useMemory } from "../helpers/use-memory.js";

const NOW = "2026-11-30T12:00:00.000Z";
const memory = useMemory("undo-duplicate");

describe("undo and a text added again since the run", () => {
  it("keeps the later copy and does not restore the original", async () => {
    const expired = await memory().add("Alice is in Lisbon this week", {
      userId: "alice",
      expirationDate: "2026-11-01T00:00:00Z",
    });
    const original = expired.results[0]?.id as string;
    const window = await memory().add("Alice prefers window seats on long flights", { userId: "alice" });
    const plan = await memory().dream.plan({ userId: "alice" }, { now: NOW });
    expect(plan.actions).toEqual([
      expect.objectContaining({ kind: "delete", ids: [original], reason: "expired" }),
    ]);
    const { runId } = await memory().dream.apply(plan);

    const again = await memory().add("Alice is in Lisbon this week", { userId: "alice" });
    const copy = again.results[0]?.id as string;
    expect(again.results[0]?.event).toBe("ADD");

    const undone = await memory().dream.undo(runId as string);
    expect(undone).toMatchObject({ restored: 0, keptDuplicates: [{ id: original, duplicateOf: copy }] });
    const ids = (await memory().getAll({ userId: "alice", showExpired: true })).results.map(
      (item) => item.id,
    );
    expect(ids.sort()).toEqual([copy, window.results[0]?.id].sort());
    expect(await memory().get(original)).toBeNull();
  });

  it("still restores exact duplicates that were both there before the run", async () => {
    const imported = await memory().importMemories([
      { id: "twin-1", text: "Bob drinks oolong", user_id: "bob", createdAt: "2026-01-01T00:00:00Z" },
      { id: "twin-2", text: "Bob drinks oolong", user_id: "bob", createdAt: "2026-01-02T00:00:00Z" },
    ]);
    expect(imported.imported).toBe(2);
    const plan = await memory().dream.plan({ userId: "bob" }, { now: NOW });
    const { runId } = await memory().dream.apply(plan);
    expect((await memory().getAll({ userId: "bob" })).results).toHaveLength(1);
    const undone = await memory().dream.undo(runId as string);
    expect(undone.keptDuplicates).toEqual([]);
    expect((await memory().getAll({ userId: "bob" })).results.map((item) => item.id).sort()).toEqual([
      "twin-1",
      "twin-2",
    ]);
  });
});

describe("lucid dream undo", () => {
  const server = useFakeEmbeddingServer();
  const homes = tempHomes();

  it("names the memory it kept instead", async () => {
    const home = writeFakeEmbedderHome(homes(), server);
    const added = await runJson(
      ["add", "Carol is in Oslo this week", "--user", "carol", "--expires", "2026-11-01"],
      { home },
    );
    const original = (added.json.results as { id: string }[])[0]?.id as string;
    const dream = await runJson(["dream", "--user", "carol", "--yes", "--now", NOW], { home });
    const copy = await runJson(["add", "Carol is in Oslo this week", "--user", "carol"], { home });
    const copyId = (copy.json.results as { id: string }[])[0]?.id as string;
    const undone = await runCli(["dream", "undo", dream.json.runId as string], { home });
    expect(undone.code).toBe(0);
    expect(undone.stdout).toContain(`not restored ${original}: its text was added again since, as ${copyId}`);
  });
});
