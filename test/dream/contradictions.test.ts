/**
 * The contradictions analyser on small scopes. Claim conflicts do not depend on vectors; opposed
 * statements come from vector neighbours, which here are made to be everyone (one shared vector),
 * so these tests pin the word rules, not the embedder.
 */

import { describe, expect, it } from "vitest";
import { analyseContradictions } from "../../src/dream/analyse/contradictions.js";
import { comparePair } from "../../src/dream/analyse/similarity/compare.js";
import { snapshotFeatures } from "../../src/dream/analyse/similarity/features.js";
import type { DreamSnapshot } from "../../src/dream/snapshot.js";
import { createTestSnapshot, type TestMemory, testPolicy } from "./helpers/snapshot.js";

type MemoryInput = Omit<TestMemory, "createdAt"> & { createdAt?: string };

function scope(memories: readonly MemoryInput[]): DreamSnapshot {
  const shared = new Float32Array(8).fill(1);
  return createTestSnapshot({
    memories: memories.map((memory, i) => ({
      createdAt: `2025-0${1 + (i % 9)}-01T00:00:00.000Z`,
      ...memory,
    })),
    vectors: memories.map(() => shared),
  });
}

const conflicts = (memories: readonly MemoryInput[]) => analyseContradictions(scope(memories), testPolicy());
const summary = (memories: readonly MemoryInput[]) =>
  conflicts(memories).map(
    (conflict) => `${conflict.ids.join("+")} → ${conflict.suggested}: ${conflict.topic}`,
  );

describe("analyseContradictions", () => {
  it.each([
    [
      "ledger-service deploys to Fly.io.",
      "ledger-service deploys to AWS ECS.",
      "deploy target of ledger-service",
    ],
    [
      "User prefers Neovim for editing code.",
      "User's preferred editor is VS Code.",
      "preferred editor of User",
    ],
    ["invoice-worker runs on Node 18.", "invoice-worker runs on Node 20.", "Node version of invoice-worker"],
    [
      "The analytics database runs PostgreSQL 14.",
      "The analytics database is PostgreSQL 16.",
      "PostgreSQL version of analytics database",
    ],
    ["Sam's manager is Priya Raman.", "Sam reports to Tom Becker.", "manager of Sam"],
    ["Maria lives in Berlin.", "Maria moved to Lisbon in January 2026.", "city of residence of Maria"],
    ["User works at Stripe.", "User works at Shopify since January 2026.", "employer of User"],
    [
      "Maria works as a nurse at Santa Maria Hospital.",
      "Maria works as a pharmacist.",
      "occupation of Maria",
    ],
    ["Maria's husband Jonas is vegetarian.", "Jonas eats steak every Friday.", "diet of Jonas"],
    [
      "The primary database region is us-east-1.",
      "The primary database region is eu-west-1.",
      "region of primary database",
    ],
    [
      "The staging Redis runs version 6.2.",
      "The staging Redis runs version 7.2.",
      "Redis version of staging (staging)",
    ],
  ])("finds a conflict and suggests the newer: %s / %s", (older, newer, topic) => {
    expect(
      summary([
        { id: "a", text: older },
        { id: "b", text: newer },
      ]),
    ).toEqual([`a+b → b: ${topic}`]);
  });

  it("finds opposed statements and names the topic by the affirmation", () => {
    expect(
      summary([
        { id: "a", text: "Maria likes horror movies." },
        { id: "b", text: "Maria doesn't like horror movies." },
        { id: "c", text: "Maria drinks coffee every morning." },
        { id: "d", text: "Maria no longer drinks coffee." },
      ]),
    ).toEqual([
      "a+b → b: whether Maria likes horror movies",
      "c+d → d: whether Maria drinks coffee every morning",
    ]);
  });

  it("does not set a specific denial against a general affirmation", () => {
    expect(
      conflicts([
        { id: "a", text: "Li Wei likes jazz." },
        { id: "b", text: "Li Wei does not like jazz festivals." },
      ]),
    ).toEqual([]);
  });

  it.each([
    ["Alice prefers Vim.", "Bob prefers VS Code."],
    ["billing-api deploys to Fly.io.", "auth-api deploys to AWS."],
    ["Staging runs on Node 20.", "Production runs on Node 18."],
    ["Jordan uses Node 18 for the legacy-portal project.", "Jordan uses Node 20 for the new-portal project."],
    ["Maria's sister Ana lives in Porto.", "Maria lives in Lisbon."],
    ["fraud-service deploys to AWS.", "fraud-service deploys to AWS Lambda."],
    ["Maria is vegan.", "Maria is vegetarian."],
    ["Marcus Lee is the engineering manager for search.", "Dana is the engineering manager for data."],
  ])("leaves compatible statements alone: %s / %s", (a, b) => {
    expect(
      conflicts([
        { id: "a", text: a },
        { id: "b", text: b },
      ]),
    ).toEqual([]);
  });

  it("breaks a tie in time by confidence, then suggests a pinned memory over anything else", () => {
    const sameDay = "2025-06-01T09:00:00.000Z";
    expect(
      summary([
        {
          id: "a",
          text: "Maria's favourite colour is green.",
          createdAt: sameDay,
          metadata: { confidence: 0.6 },
        },
        {
          id: "b",
          text: "Maria's favourite colour is yellow.",
          createdAt: sameDay,
          metadata: { confidence: 0.9 },
        },
      ]),
    ).toEqual(["a+b → b: favourite colour of Maria"]);
    expect(
      summary([
        { id: "a", text: "User's default shell is fish.", metadata: { pinned: true } },
        { id: "b", text: "User uses zsh as the default shell." },
      ]),
    ).toEqual(["a+b → a: preferred shell of User"]);
  });

  it("sets the suggested winner against every side that disagrees with it, one memory per side", () => {
    expect(
      summary([
        { id: "a", text: "billing-api deploys to Heroku." },
        { id: "b", text: "billing-api deploys to Render." },
        { id: "c", text: "billing-api deploys to Fly.io." },
        { id: "d", text: "billing-api deploys to Fly.io via GitHub Actions." },
      ]),
    ).toEqual(["a+d → d: deploy target of billing-api", "b+d → d: deploy target of billing-api"]);
  });

  it("explains itself", () => {
    const [conflict] = conflicts([
      { id: "a", text: "ledger-service deploys to Fly.io." },
      { id: "b", text: "ledger-service deploys to AWS ECS.", metadata: { pinned: true } },
    ]);
    expect(conflict?.why).toEqual({
      rule: "contradiction",
      detail: 'b says "AWS ECS" vs a says "Fly.io"; suggest b: it is pinned',
      evidence: {
        pattern: "deploy-target",
        attribute: "deploy target",
        subject: "ledger-service",
        values: ["AWS ECS", "Fly.io"],
        pinned: ["b"],
      },
    });
  });

  it("agrees with the duplicates analyser: every conflict pair is refused as a merge", () => {
    const snapshot = scope([
      { id: "a", text: "ledger-service deploys to Fly.io." },
      { id: "b", text: "ledger-service deploys to AWS ECS." },
      { id: "c", text: "Li Wei likes spicy food." },
      { id: "d", text: "Li Wei doesn't like spicy food." },
      { id: "e", text: "Li Wei's manager is Grace Tan." },
      { id: "f", text: "Li Wei reports to Arjun Mehta." },
    ]);
    const featuresOf = snapshotFeatures(snapshot);
    const found = analyseContradictions(snapshot, testPolicy());
    expect(found).toHaveLength(3);
    for (const { ids } of found) {
      const [a, b] = ids.map((id) => featuresOf(id));
      if (a === undefined || b === undefined) throw new Error("unknown id");
      expect(comparePair(a, b).refusals.map((refusal) => refusal.reason)).toEqual(
        expect.arrayContaining([expect.stringMatching(/^(?:conflict|negation)$/u)]),
      );
    }
  });

  it("is deterministic whatever the memories' order", () => {
    const memories: MemoryInput[] = [
      { id: "m1", text: "User's preferred browser is Chrome." },
      { id: "m2", text: "User uses Firefox as the default browser." },
      { id: "m3", text: "Jordan lives in Denver." },
      { id: "m4", text: "Jordan lives in Boulder." },
    ];
    const forward = analyseContradictions(scope(memories), testPolicy());
    const backward = analyseContradictions(scope([...memories].reverse()), testPolicy());
    expect(forward).toHaveLength(2);
    expect(JSON.stringify(backward.map((c) => [c.ids, c.topic]))).toBe(
      JSON.stringify(forward.map((c) => [c.ids, c.topic])),
    );
  });
});
