import { describe, expect, it } from "vitest";
import { analyseRewrites } from "../../src/dream/analyse/rewrites.js";
import type { RewriteAction } from "../../src/dream/plan.js";
import { resolvePolicy } from "../../src/policy/resolve-policy.js";
import { type RowInput, snapshotOf } from "./make-snapshot.js";

const policy = await resolvePolicy();
const rewrite = (input: RowInput) =>
  analyseRewrites(snapshotOf([input]), policy)[0] as RewriteAction | undefined;

describe("analyseRewrites", () => {
  it("turns first person into third", () => {
    expect(rewrite({ text: "I prefer tabs" })).toMatchObject({
      text: "User prefers tabs",
      reasons: ["first_person"],
    });
    expect(rewrite({ text: "I'm vegetarian and my partner is vegan" })?.text).toBe(
      "User is vegetarian and their partner is vegan",
    );
  });

  it("anchors project and operational memories that lack a date, with the date of createdAt", () => {
    expect(
      rewrite({
        text: "The billing-api deploys to Fly.io",
        category: "project",
        createdAt: "2026-03-01T10:00:00.000Z",
      }),
    ).toMatchObject({
      text: "As of 2026-03-01, the billing-api deploys to Fly.io",
      reasons: ["missing_anchor"],
    });
    expect(
      rewrite({ text: "As of 2026-02-10, billing-api deploys to Fly.io", category: "project" }),
    ).toBeUndefined();
    expect(
      rewrite({ text: "Since March 2026 the team ships on Fridays", category: "project" }),
    ).toBeUndefined();
    expect(rewrite({ text: "The billing-api deploys to Fly.io", category: "technical" })).toBeUndefined();
  });

  it("combines reasons in one rewrite", () => {
    expect(
      rewrite({
        text: "I moved billing-api to Fly.io",
        category: "project",
        createdAt: "2026-03-01T10:00:00.000Z",
      }),
    ).toMatchObject({
      text: "As of 2026-03-01, the user moved billing-api to Fly.io",
      reasons: ["first_person", "missing_anchor"],
    });
  });

  it("flags over-long memories, shortening only wordy phrases", () => {
    const long =
      `User keeps notes in order to remember ${"many small details about projects, ".repeat(12)}`.trim();
    const action = rewrite({ text: long });
    expect(action?.reasons).toEqual(["too_long"]);
    expect(action?.text.startsWith("User keeps notes to remember")).toBe(true);
  });

  it("leaves good memories, quotes and assistant statements alone", () => {
    expect(rewrite({ text: "User prefers tabs" })).toBeUndefined();
    expect(rewrite({ text: 'User\'s motto is "I never give up"' })).toBeUndefined();
    expect(rewrite({ text: "I recommended pnpm", metadata: { role: "assistant" } })).toBeUndefined();
    expect(rewrite({ text: "Type I diabetes runs in the user's family" })).toBeUndefined();
  });
});
