/**
 * The word-level rules behind duplicate detection, one by one: each refusal reason, the agreement
 * that confirms a vector match, and the template-swap detector. No embedder needed.
 */

import { describe, expect, it } from "vitest";
import { comparePair, type RefusalReason } from "../../src/dream/analyse/similarity/compare.js";
import { memoryFeatures } from "../../src/dream/analyse/similarity/features.js";
import { findSubstitution } from "../../src/dream/analyse/similarity/substitution.js";
import { toSnapshotMemory } from "./helpers/snapshot.js";

let counter = 0;
const features = (text: string) =>
  memoryFeatures(toSnapshotMemory({ id: `m${++counter}`, text, createdAt: "2026-01-01T00:00:00.000Z" }, {}));

const reasons = (a: string, b: string): RefusalReason[] =>
  comparePair(features(a), features(b)).refusals.map((refusal) => refusal.reason);

describe("duplicate refusals", () => {
  it.each([
    ["User runs 5 km every morning.", "User runs 10 km every morning."],
    ["The Postgres primary listens on port 5432.", "The Postgres primary listens on port 5433."],
    ["lucid-memory 1.2.3 fixed the FTS crash.", "lucid-memory 1.3.0 fixed the FTS crash."],
    ["User's NAS has 4 drives.", "User's NAS has 8 TB of storage."],
  ])("refuses different numbers, units and versions: %s / %s", (a, b) => {
    expect(reasons(a, b)).toContain("number");
  });

  it("reads units and number words as the same quantity", () => {
    expect(reasons("Maria jogs 5 kilometres each morning.", "Maria runs 5 km every morning.")).not.toContain(
      "number",
    );
    expect(
      reasons(
        "Postmortems are due within five business days.",
        "Postmortems are due within 5 business days.",
      ),
    ).not.toContain("number");
  });

  it("refuses different names", () => {
    expect(reasons("User's sister Marta lives in Lisbon.", "User's sister Ana lives in Lisbon.")).toContain(
      "name",
    );
    expect(reasons("Alice prefers Vim.", "Bob prefers Vim.")).toContain("name");
  });

  it("does not count a shorter form of the same name as different", () => {
    expect(reasons("Priya leads the payments team.", "Priya Raman leads the payments team.")).toEqual([]);
  });

  it.each([
    ["The staging database is on port 5433.", "The production database is on port 5433."],
    ["The database host is db-stg.internal.", "The database host is db-prod.internal."],
    ["The dev cluster has 3 nodes.", "The cluster has 3 nodes."],
  ])("refuses different environments, abbreviations included: %s / %s", (a, b) => {
    expect(reasons(a, b)).toContain("environment");
  });

  it("lets 'local' differ only from another environment", () => {
    expect(
      reasons(
        "Maria plays cello in a community orchestra.",
        "Maria plays cello in a local community orchestra.",
      ),
    ).not.toContain("environment");
    expect(
      reasons("The local Postgres listens on port 5432.", "The staging Postgres listens on port 5432."),
    ).toContain("environment");
  });

  it.each([
    ["User's sister lives in Austin.", "User's brother lives in Austin."],
    ["Maria's mother is a retired teacher.", "Maria's father is a retired teacher."],
    ["Jordan's manager is Sam Ortiz.", "Jordan's direct report is Sam Ortiz."],
    ["Maria lives in Porto.", "Maria's sister lives in Porto."],
  ])("refuses different relations, or a relative on one side only: %s / %s", (a, b) => {
    expect(reasons(a, b)).toContain("relation");
  });

  it("reads 'married to' as agreeing with 'wife' or 'husband'", () => {
    expect(reasons("Li Wei is married to Chen Jie.", "Chen Jie is Li Wei's wife.")).not.toContain("relation");
    expect(reasons("Tom's wife is Ana.", "Tom's husband is Ana.")).toContain("relation");
  });

  it("refuses opposite polarity, but not a contrast", () => {
    expect(reasons("User likes sushi.", "User does not like sushi.")).toContain("negation");
    expect(reasons("Maria drinks coffee.", "Maria no longer drinks coffee.")).toContain("negation");
    expect(reasons("User loves olives.", "User hates olives.")).toContain("negation");
    expect(reasons("User indents with tabs, not spaces.", "User indents with tabs.")).not.toContain(
      "negation",
    );
  });

  it("refuses different dates, weekdays and clock times, but not finer forms of the same date", () => {
    expect(reasons("Maria moved to Porto in 2019.", "Maria moved to Porto in 2021.")).toContain("time");
    expect(reasons("Standup is on Mondays.", "Standup is on Thursdays.")).toContain("time");
    expect(reasons("The backup runs at 02:00 UTC.", "The backup runs at 03:00 UTC.")).toContain("time");
    expect(reasons("Maria's birthday is on 14 March.", "Maria was born on March 14.")).not.toContain("time");
    expect(
      reasons(
        "Li Wei runs the Berlin Marathon in September 2026.",
        "Li Wei signed up for the 2026 Berlin Marathon.",
      ),
    ).not.toContain("time");
  });

  it("refuses a pair that contradicts itself, so the contradiction analyser can report it", () => {
    expect(reasons("billing-api deploys to Fly.io.", "billing-api deploys to AWS.")).toContain("conflict");
    expect(reasons("User prefers Vim.", "User's preferred editor is VS Code.")).toContain("conflict");
  });

  it("refuses the same attribute of two different subjects", () => {
    expect(reasons("payments-api deploys to Fly.io.", "search-api deploys to Fly.io.")).toContain("subject");
    expect(
      reasons("Noah is the tech lead of the fraud team.", "Noah is the tech lead of the identity team."),
    ).toContain("subject");
  });

  it("refuses a template with a word swapped", () => {
    expect(
      reasons("Jordan's dentist appointment is on Monday.", "Jordan's physio appointment is on Monday."),
    ).toEqual(["substitution"]);
    expect(reasons("Jordan is allergic to penicillin.", "Jordan is allergic to pollen.")).toEqual([
      "substitution",
    ]);
  });
});

describe("template swaps", () => {
  it("finds in-place swaps of up to two places", () => {
    expect(
      findSubstitution(
        "Jordan prefers aisle seats on long flights",
        "Jordan prefers window seats on short flights",
      ),
    ).toEqual(["aisle → window", "long → short"]);
  });

  it("counts a swap by its content words, so a preposition does not hide it", () => {
    expect(
      findSubstitution("Alice works remotely on Mondays", "Alice works from the office on Mondays"),
    ).toEqual(["remotely → from the office"]);
  });

  it("takes swapped verbs for a rewording, not another fact", () => {
    expect(
      findSubstitution("Kai goes to Little Oaks kindergarten.", "Kai attends the Little Oaks kindergarten."),
    ).toBeUndefined();
    expect(
      findSubstitution(
        "Li Wei is training for the Berlin Marathon in September 2026.",
        "Li Wei plans to run the Berlin Marathon in September 2026.",
      ),
    ).toBeUndefined();
  });

  it("ignores synonyms, function words and restructured sentences", () => {
    expect(findSubstitution("User prefers tabs", "User likes tabs")).toBeUndefined();
    expect(
      findSubstitution("Li Wei is lactose intolerant", "Li Wei has lactose intolerance"),
    ).toBeUndefined();
    expect(
      findSubstitution(
        "Maria has a golden retriever named Biscuit",
        "Maria's dog Biscuit is a golden retriever",
      ),
    ).toBeUndefined();
  });
});

describe("refusals that keep a merge from losing a fact", () => {
  it.each([
    ["The deploy target of billing-api is Render.", "billing-api deploys to AWS."],
    ["billing-api deploys to Fly.io.", "billing-api deploys to AWS ECS."],
    ["The team's editor is Neovim.", "The team's editor is VS Code."],
    ["The staging cluster runs on GKE.", "The staging cluster runs on EKS."],
    ["CI runs the tests on node18.", "CI runs the tests on node20."],
  ])("refuses a value on each side the other never mentions: %s / %s", (a, b) => {
    expect(reasons(a, b)).toContain("value");
  });

  it.each([
    ["The cluster runs on k8s.", "The cluster runs on Kubernetes."],
    ["Orders are stored in Postgres.", "Orders are stored in PostgreSQL."],
    ["billing-api deploys to AWS.", "The deploy target of billing-api is AWS ECS."],
    ["Maria's birthday is Mar 14.", "Maria's birthday is on 14 March."],
    ["User prefers dark mode in every editor.", "User likes dark themes in editors."],
  ])("keeps values written two ways, or one side adding one: %s / %s", (a, b) => {
    expect(reasons(a, b)).not.toContain("value");
  });

  it.each([
    ["Alice uses Neovim.", "Alice switched to VS Code."],
    ["Sam is vegetarian.", "Sam started eating fish again last month."],
    ["The payments team meets on Zoom.", "The payments team moved to Google Meet."],
    ["User drinks coffee every morning.", "User no longer drinks coffee in the morning."],
    ["The nightly backup job writes to S3.", "The nightly backup job was removed."],
  ])("refuses a change on one side only: %s / %s", (a, b) => {
    expect(reasons(a, b)).toContain("change");
  });

  it("lets two statements of the same change merge", () => {
    expect(reasons("Alice switched to VS Code.", "Alice has switched to VS Code.")).not.toContain("change");
    expect(reasons("Maria is vegetarian.", "Maria has been vegetarian since 2018.")).not.toContain("change");
  });
});

describe("duplicate agreement", () => {
  it("confirms a paraphrase with nothing discriminating", () => {
    const result = comparePair(
      features("Maria runs 5 km every morning before work."),
      features("Every morning before work, Maria goes for a 5 km run."),
    );
    expect(result.agrees).toBe(true);
    expect(result.refusals).toEqual([]);
    expect(result.sharedTerms).toEqual(expect.arrayContaining(["maria", "run", "km", "5"]));
  });

  it("does not confirm two facts about the same subject", () => {
    const result = comparePair(
      features("Li Wei's daughter Mei takes piano lessons on Wednesdays."),
      features("Li Wei's daughter Mei is 7."),
    );
    expect(result.agrees).toBe(false);
  });

  it("does not confirm memories that share only one word", () => {
    expect(comparePair(features("User works at Stripe."), features("User likes tea.")).agrees).toBe(false);
  });

  it("reports the names both mention", () => {
    const result = comparePair(
      features("billing-api deploys to Fly.io."),
      features("billing-api is deployed to Fly.io."),
    );
    expect(result.sharedEntities).toEqual(["Fly.io", "billing-api"]);
  });
});
