/**
 * Undo writes only inside its run's scope. A dream of dave's scope deletes a memory; its id is then
 * imported as a memory of alice's (the SDK takes ids as given); undoing dave's run — even forced —
 * must neither overwrite nor delete alice's memory (nor refuse over it), and says which id it left.
 */
import { describe, expect, it } from "vitest";
import { useMemory } from "../helpers/use-memory.js";

const NOW = "2026-11-30T12:00:00.000Z";
const memory = useMemory("undo-other-scope");

async function deletedByDream(userId: string): Promise<{ id: string; runId: string }> {
  const expired = await memory().add("Dave is in Oslo this week", {
    userId,
    expirationDate: "2026-11-01T00:00:00Z",
  });
  const id = expired.results[0]?.id as string;
  await memory().add("Dave restores old clocks", { userId });
  const plan = await memory().dream.plan({ userId }, { now: NOW });
  expect(plan.actions).toEqual([expect.objectContaining({ kind: "delete", ids: [id] })]);
  const { runId } = await memory().dream.apply(plan);
  expect(await memory().get(id)).toBeNull();
  return { id, runId: runId as string };
}

describe("undo and an id another scope holds now", () => {
  it("undoes the rest of the run without force, leaving alice's memory and naming it", async () => {
    const { id, runId } = await deletedByDream("dave");
    await memory().importMemories([{ id, text: "Alice keeps a diary in Welsh", user_id: "alice" }]);
    const undone = await memory().dream.undo(runId);
    expect(undone).toMatchObject({ restored: 0, removed: 0, keptOtherScope: [id] });
    expect(await memory().get(id)).toMatchObject({
      user_id: "alice",
      memory: "Alice keeps a diary in Welsh",
    });
  });

  it("leaves alice's memory as it is when forced, and names it", async () => {
    const { id, runId } = await deletedByDream("erin");
    await memory().importMemories([{ id, text: "Alice keeps bees", user_id: "alice" }]);
    const before = await memory().get(id);
    const undone = await memory().dream.undo(runId, { force: true });
    expect(undone).toMatchObject({ restored: 0, removed: 0, keptOtherScope: [id] });
    expect(await memory().get(id)).toEqual(before);
    expect((await memory().getAll({ userId: "erin" })).results.map((item) => item.memory)).toEqual([
      "Dave restores old clocks",
    ]);
  });
});
