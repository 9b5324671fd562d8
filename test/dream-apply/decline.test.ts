/**
 * `decline`: a person says no to one action of a plan — not to every action of its kind — and it
 * is left as it is, reported as skipped ("declined"), while the rest apply.
 */
import { describe, expect, it } from "vitest";
import { useMemory } from "../helpers/use-memory.js";

const NOW = "2026-11-30T12:00:00.000Z";
const memory = useMemory("dream-decline");

async function expired(userId: string, text: string): Promise<string> {
  const added = await memory().add(text, { userId, expirationDate: "2026-11-01T00:00:00Z" });
  return added.results[0]?.id as string;
}

describe("declining an action", () => {
  it("leaves the declined action's memory and applies the others", async () => {
    const lisbon = await expired("gil", "Gil is in Lisbon this week");
    const porto = await expired("gil", "Gil is in Porto next week");
    const plan = await memory().dream.plan({ userId: "gil" }, { now: NOW });
    expect(plan.actions.map((action) => [action.kind, action.ids[0]]).sort()).toEqual(
      [
        ["delete", lisbon],
        ["delete", porto],
      ].sort(),
    );
    const declined = plan.actions.findIndex((action) => action.ids[0] === lisbon);
    const result = await memory().dream.apply(plan, { decline: [declined] });
    expect(result.counts).toMatchObject({ pruned: 1, skipped: 1 });
    expect(result.actions).toContainEqual(
      expect.objectContaining({ index: declined, status: "skipped", note: "declined" }),
    );
    expect(await memory().get(lisbon)).not.toBeNull();
    expect(await memory().get(porto)).toBeNull();
  });

  it("refuses an index the plan does not have, applying nothing", async () => {
    const id = await expired("hal", "Hal is in Oslo this week");
    const plan = await memory().dream.plan({ userId: "hal" }, { now: NOW });
    for (const decline of [[1], [-1], [0.5]]) {
      await expect(memory().dream.apply(plan, { decline })).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
      });
    }
    expect(await memory().get(id)).not.toBeNull();
  });
});
