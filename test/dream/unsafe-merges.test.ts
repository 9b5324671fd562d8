/**
 * The pairs a merge must never take, through the SDK's dream plan with the default local model
 * (MiniLM, vectors cached): two values of one slot, a stated change, a swapped place — the README's
 * own conflict examples among them. Before dream refused these, MiniLM's neighbours merged
 * "…is Render" with "…deploys to AWS" and "works remotely" with "works from the office", and a
 * look-alike's merge hid the Fly.io / AWS ECS conflict.
 */

import { describe, expect, it } from "vitest";
import type { DreamAction } from "../../src/dream/plan.js";
import { PLAN_NOW, pairPlanner } from "./helpers/pair-planner.js";

const pairs = pairPlanner("pair");
/** The plan's actions for a scope holding `older` and then `newer`; `last` is what it planned. */
let last: Awaited<ReturnType<typeof pairs.plan>> | undefined;
async function planFor(older: string, newer: string, extra: readonly string[] = []): Promise<DreamAction[]> {
  last = await pairs.plan(older, newer, extra);
  return [...last.actions];
}
const lastText = (id: string) => last?.texts.get(id);

const kinds = (actions: readonly DreamAction[]) => actions.map((action) => action.kind);

describe("dream never merges two facts that can disagree", () => {
  it.each([
    ["The deploy target of billing-api is Render.", "billing-api deploys to AWS."],
    ["Alice works remotely on Mondays.", "Alice works from the office on Mondays."],
    ["billing-api deploys to Fly.io.", "billing-api deploys to AWS ECS."],
    ["Alice uses Neovim as her editor.", "Alice switched to VS Code as her editor."],
  ])("%s / %s", async (older, newer) => {
    expect(kinds(await planFor(older, newer))).not.toContain("merge");
  });

  it("surfaces the README's conflicts as conflicts, the newer suggested", async () => {
    for (const [older, newer] of [
      ["billing-api deploys to Fly.io.", "billing-api deploys to AWS ECS."],
      ["Alice uses Neovim as her editor.", "Alice switched to VS Code as her editor."],
    ] as const) {
      const actions = await planFor(older, newer);
      expect(kinds(actions)).toEqual(["conflict"]);
      const [conflict] = actions;
      if (conflict?.kind !== "conflict") throw new Error("expected a conflict");
      expect(lastText(conflict.suggested)).toBe(newer);
    }
  });

  it("keeps a conflict when one side also has a look-alike: the conflict is asked, nothing merged away", async () => {
    const actions = await planFor("billing-api deploys to Fly.io.", "billing-api deploys to AWS ECS.", [
      "billing-api is deployed to Fly.io.",
    ]);
    expect(kinds(actions)).toContain("conflict");
    expect(kinds(actions)).not.toContain("merge");
  });

  it.each([
    ["The team uses Jenkins for CI.", "The team switched from Jenkins to GitHub Actions for CI."],
    ["The default branch is master.", "The default branch is now main."],
    ["Priya drives a Honda Civic.", "Priya sold her Honda Civic and now drives a Tesla Model 3."],
  ])("surfaces a stated change as a conflict, the change suggested: %s / %s", async (older, newer) => {
    const actions = await planFor(older, newer);
    expect(kinds(actions)).toEqual(["conflict"]);
    const [conflict] = actions;
    if (conflict?.kind !== "conflict") throw new Error("expected a conflict");
    expect(conflict.why.evidence?.change).toBeDefined();
    expect(lastText(conflict.suggested)).toBe(newer);
  });

  it.each([
    ["User started running in 2020.", "User runs 5 km every morning."],
    ["The app stores sessions in Redis.", "The app caches pages in Redis."],
    ["Alice switched to VS Code.", "Alice has switched to VS Code."],
  ])("raises no conflict where nothing changed: %s / %s", async (older, newer) => {
    expect(kinds(await planFor(older, newer))).not.toContain("conflict");
  });

  it("puts look-alikes that may disagree up for review, never in the actions", async () => {
    const actions = await planFor(
      "The deploy target of billing-api is Render.",
      "billing-api deploys to AWS.",
    );
    expect(actions).toEqual([]);
    const memory = pairs.memory();
    const userId = last?.userId as string;
    const plan = await memory.dream.plan({ userId }, { now: PLAN_NOW });
    expect(plan.review.map((item) => item.kind)).toEqual(["possible-conflict"]);
    const [item] = plan.review;
    const proposal = item?.proposal;
    if (proposal?.kind !== "conflict") throw new Error("expected a conflict proposal");
    const listed = await memory.getAll({ userId });
    expect(listed.results.find((memory) => memory.id === proposal.suggested)?.memory).toBe(
      "billing-api deploys to AWS.",
    );
    // The same statement with another value, each with a word of its own ("target" / "deploys").
    expect(item?.why.evidence?.values).toMatch(/render ≠ aws|aws ≠ render/u);
    // --auto applies nothing of it, and says it waits.
    const auto = await memory.dream.auto({ userId });
    expect(auto.runId).toBeNull();
    expect(auto.line).toMatch(/ {2}review=1$/u);
    expect((await memory.getAll({ userId })).results).toHaveLength(2);
  });

  it("still merges a restatement", async () => {
    const actions = await planFor(
      "User prefers tabs over spaces for indentation.",
      "User likes to indent code with tabs rather than spaces.",
    );
    expect(kinds(actions)).toEqual(["merge"]);
  });
});
