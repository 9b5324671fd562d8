/**
 * Issue 11, minor: `--yes` beside `--auto` (or two `--yes`) recorded an "applied" run in which every
 * action was stale, and reported success. A dream whose every action is stale changes nothing,
 * records no run and says so.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { useMemory } from "../helpers/use-memory.js";

const NOW = "2026-11-30T12:00:00.000Z";
const memory = useMemory("stale-dream");
beforeAll(async () => {
  for (const city of ["Lisbon", "Porto", "Faro"]) {
    await memory().add(`Alice is in ${city} this week`, {
      userId: "alice",
      expirationDate: "2026-11-01T00:00:00Z",
    });
  }
});

describe("two dreams on one plan's memories", () => {
  it("the second, finding every action stale, records no run and says nothing was applied", async () => {
    const plan = await memory().dream.plan({ userId: "alice" }, { now: NOW });
    expect(plan.actions).toHaveLength(3);
    const first = await memory().dream.apply(plan, {}, { mode: "yes" });
    expect(first.runId).not.toBeNull();

    const second = await memory().dream.apply(plan, {}, { mode: "auto" });
    expect(second.runId).toBeNull();
    expect(second.actions.map((action) => action.status)).toEqual(["stale", "stale", "stale"]);
    expect(second.counts).toMatchObject({ stale: 3, pruned: 0 });
    expect((await memory().dream.runs({ userId: "alice" })).map((run) => run.id)).toEqual([first.runId]);
  });
});
