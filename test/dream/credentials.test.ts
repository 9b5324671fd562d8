import { describe, expect, it } from "vitest";
import { analyseCredentials } from "../../src/dream/analyse/credentials.js";
import type { DeleteAction, RewriteAction } from "../../src/dream/plan.js";
import { resolvePolicy } from "../../src/policy/resolve-policy.js";
import { createFakeSecrets } from "../fixtures/secrets/fake-secrets.js";
import { snapshotOf } from "./make-snapshot.js";

const policy = await resolvePolicy();
const fake = createFakeSecrets(7);
const githubPat = fake["github-pat"]?.() ?? "";
const openaiKey = fake["openai-api-key"]?.() ?? "";

describe("analyseCredentials", () => {
  it("deletes a memory that is only a labelled secret", () => {
    const [action] = analyseCredentials(snapshotOf([`GitHub token: ${githubPat}`]), policy) as DeleteAction[];
    expect(action).toMatchObject({ kind: "delete", reason: "credential" });
    expect(action?.why.evidence?.kinds).toEqual(["github-pat"]);
    expect(JSON.stringify(action)).not.toContain(githubPat);
  });

  it("redacts a memory that still says something useful, cleaning up its person too", () => {
    const text = `I deploy the billing-api worker from GitHub Actions with ${githubPat} on the release branch`;
    const [action] = analyseCredentials(snapshotOf([text]), policy) as RewriteAction[];
    expect(action?.kind).toBe("rewrite");
    expect(action?.reasons).toEqual(["credential_redacted", "first_person"]);
    expect(action?.text).toBe(
      "User deploys the billing-api worker from GitHub Actions with [REDACTED:github-pat] on the release branch",
    );
  });

  it("redacts a pinned memory in place and never deletes it", () => {
    const [action] = analyseCredentials(
      snapshotOf([{ text: `I use ${openaiKey}`, metadata: { pinned: true } }]),
      policy,
    ) as RewriteAction[];
    expect(action).toMatchObject({
      kind: "rewrite",
      reasons: ["credential_redacted"],
      text: "I use [REDACTED:openai-api-key]",
    });
  });

  it("redacts an identity memory without rewriting its person", () => {
    const [action] = analyseCredentials(
      snapshotOf([
        {
          text: `My GitHub handle is sam-dev at Acme Robotics and my token is ${githubPat}`,
          category: "identity",
        },
      ]),
      policy,
    ) as RewriteAction[];
    expect(action?.reasons).toEqual(["credential_redacted"]);
    expect(action?.text).toBe(
      "My GitHub handle is sam-dev at Acme Robotics and my token is [REDACTED:github-pat]",
    );
  });

  it.each([
    // The rule's label, in whatever language it reads it, is the secret's own words.
    "Box internet du chalet — mot de passe : Fake9q!Lmx",
    "Zahlenschloss am Fahrradkeller 3-8-1-5",
    // A card's brand and printed fields say nothing once the number is gone.
    `Visa debit ${fake["payment-card"]?.() ?? ""} exp 04/28 cvv 913`,
  ])("deletes a memory that is only a secret and its label: %s", (text) => {
    const [action] = analyseCredentials(snapshotOf([text]), policy);
    expect(action).toMatchObject({ kind: "delete", reason: "credential" });
  });

  it("keeps the words of a long phrase before the secret: that is a sentence, not a label", () => {
    const text = `The billing worker sends SMS alerts through Twilio, auth token ${fake["twilio-auth-token"]?.() ?? ""}`;
    const [action] = analyseCredentials(snapshotOf([text]), policy) as RewriteAction[];
    expect(action?.kind).toBe("rewrite");
    expect(action?.text).toContain("The billing worker sends SMS alerts through Twilio");
  });

  it("ignores text without secrets and honours disabled rules", async () => {
    expect(
      analyseCredentials(snapshotOf(["User prefers tabs", "Token budget is 2000 per call"]), policy),
    ).toEqual([]);
    const lenient = await resolvePolicy({
      config: { secrets: { onAdd: "redact", disabledRules: ["github-pat"] } },
    });
    expect(analyseCredentials(snapshotOf([`ship it with ${githubPat}`]), lenient)).toEqual([]);
  });
});

describe("analyseCredentials on immutable memories", () => {
  it("deletes an identity memory that is only a secret, like any other", () => {
    const [action] = analyseCredentials(
      snapshotOf([{ text: `token ${githubPat}`, category: "identity" }]),
      policy,
    ) as DeleteAction[];
    expect(action).toMatchObject({ kind: "delete", reason: "credential" });
  });
});
