/**
 * The relations dream judges between two memories, through the SDK's plan with the default local
 * model (MiniLM, vectors cached), on examples of each kind the issue names: the same slot with
 * another value, values written differently, opposite states, a stated change, a rule and its
 * exception, and restatements whose names are written differently. The examples are new ones, not
 * any corpus's texts.
 */

import { describe, expect, it } from "vitest";
import type { DreamAction } from "../../src/dream/plan.js";
import { pairPlanner } from "./helpers/pair-planner.js";

const pairs = pairPlanner("relation");
const planFor = (older: string, newer: string) => pairs.plan(older, newer);

const kinds = (actions: readonly DreamAction[]) => actions.map((action) => action.kind);

describe("the same slot with another value", () => {
  it.each([
    ["The staging cluster has 6 worker nodes.", "Staging cluster worker nodes: 9"],
    [
      "The nightly export job writes to the bucket s3://acme-exports.",
      "The nightly export job writes to the bucket gs://acme-dumps.",
    ],
    ["Noor's library card expires on 2027-03-31.", "Noor's library card expiry date is 30 September 2028."],
    ["The office wifi network is called AcmeGuest.", "The office wifi network is called AcmeStaff."],
  ])("is a conflict, the newer suggested, with its evidence: %s / %s", async (older, newer) => {
    const { actions, texts } = await planFor(older, newer);
    expect(kinds(actions)).toEqual(["conflict"]);
    const [conflict] = actions;
    if (conflict?.kind !== "conflict") throw new Error("expected a conflict");
    expect(texts.get(conflict.suggested)).toBe(newer);
    expect(conflict.why.evidence?.pattern).toBe("same-slot");
    expect(String(conflict.why.evidence?.values)).toContain("≠");
  });

  it.each([
    // One shared verb is not a slot: both may hold.
    ["Omar speaks Arabic.", "Omar speaks Portuguese."],
    ["The team uses Sentry for errors.", "The team uses Datadog for metrics."],
    // A number beside a value only one side names: a rule and its exception.
    ["Refunds are processed within 14 days.", "Refunds for EU customers are processed within 30 days."],
    // Two values of two slots: another subject and another number.
    ["The iPad has 64 GB of storage.", "The MacBook has 512 GB of storage."],
  ])("raises no conflict where both can hold: %s / %s", async (older, newer) => {
    const { actions } = await planFor(older, newer);
    expect(kinds(actions)).not.toContain("conflict");
    expect(kinds(actions)).not.toContain("merge");
  });

  it.each([
    [
      "The office coffee machine is a Sage Barista.",
      "The kitchen coffee machine is a DeLonghi Magnifica.",
      "kitchen",
    ],
    ["The staging cluster runs 6 worker nodes.", "Staging cluster worker node count: 9", "count"],
  ])(
    "asks, rather than acts, when each statement has a word of its own: %s / %s",
    async (older, newer, own) => {
      const { actions, review } = await planFor(older, newer);
      expect(kinds(actions)).toEqual([]);
      expect(review.map((item) => item.kind)).toEqual(["possible-conflict"]);
      expect(review[0]?.why.evidence?.ownWords).toEqual(expect.arrayContaining([own]));
    },
  );
});

describe("values written differently", () => {
  it.each([
    ["Kai's swim class starts at 5pm on Wednesdays.", "Kai's swim class starts at 17:30 on Wednesdays."],
    ["The gym opens at 6am on weekdays.", "The gym opens at 07:00 on weekdays."],
    ["The monthly cloud budget is $4,000.", "The monthly cloud budget is 5000 dollars."],
  ])("are read as the values they are, so different ones never merge: %s / %s", async (older, newer) => {
    const { actions } = await planFor(older, newer);
    expect(kinds(actions)).not.toContain("merge");
    expect(kinds(actions)).toEqual(["conflict"]);
  });

  it.each([
    ["Lena's piano lesson is at 4pm on Thursdays.", "Lena has piano at 16:00 every Thursday."],
    ["The quarterly audit costs $2,500.", "The quarterly audit costs 2500 dollars."],
  ])("and equal ones still merge: %s / %s", async (older, newer) => {
    const { actions } = await planFor(older, newer);
    expect(kinds(actions)).toEqual(["merge"]);
  });
});

describe("opposite states", () => {
  it.each([
    ["Two-factor login is enabled for the admin panel.", "Two-factor login is disabled for the admin panel."],
    ["The repository is public on GitHub.", "The repository is private on GitHub."],
    ["Auto-renewal for the domain is turned on.", "Auto-renewal for the domain is turned off."],
  ])("are never merged, and are one slot with two values: %s / %s", async (older, newer) => {
    const { actions } = await planFor(older, newer);
    expect(kinds(actions)).toEqual(["conflict"]);
  });
});

describe("a stated change", () => {
  it.each([
    ["The blog is hosted on Netlify.", "We moved the blog off Netlify and host it on Cloudflare Pages."],
    ["Hugo's laptop is a ThinkPad X1.", "Hugo sold the ThinkPad and now works on a MacBook Air."],
  ])("is never merged with what it replaces: %s / %s", async (older, newer) => {
    const { actions, review } = await planFor(older, newer);
    expect(kinds(actions)).not.toContain("merge");
    const surfaced = [...kinds(actions), ...review.map((item) => item.proposal.kind)];
    expect(surfaced).toContain("conflict");
  });

  it("'since' with another word is never merged; with only a date, it is the same fact", async () => {
    const changed = await planFor("User is vegetarian.", "User has been vegan since March 2026.");
    expect(kinds(changed.actions)).not.toContain("merge");
    const dated = await planFor("Ravi is vegetarian.", "Ravi has been vegetarian since 2015.");
    expect(kinds(dated.actions)).toEqual(["merge"]);
  });
});

describe("restatements whose names are written differently", () => {
  it.each([
    ["The billing service runs on k8s in Frankfurt.", "The billing service runs on Kubernetes in Frankfurt."],
    ["Our analytics warehouse is Postgres 16.", "The analytics warehouse runs PostgreSQL 16."],
    ["Dr. Okoye's clinic is on Baker St.", "Dr. Okoye's clinic is on Baker Street."],
    ["Professor Lindqvist teaches the compilers course.", "Lindqvist teaches the compilers course."],
  ])("merge: %s / %s", async (older, newer) => {
    const { actions } = await planFor(older, newer);
    expect(kinds(actions)).toEqual(["merge"]);
  });
});
