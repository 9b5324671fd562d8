/**
 * The duplicates analyser on small scopes embedded with the real local embedder (USE lite).
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyseDuplicates } from "../../src/dream/analyse/duplicates.js";
import type { MergeAction } from "../../src/dream/plan.js";
import type { DreamSnapshot } from "../../src/dream/snapshot.js";
import type { Embedder } from "../../src/embed/embedder.js";
import { cachedEmbedder } from "../helpers/cached-embedder.js";
import { createTestSnapshot, embedTestSnapshot, type TestMemory, testPolicy } from "./helpers/snapshot.js";

let embedder: Embedder;
beforeAll(() => {
  embedder = cachedEmbedder();
});
afterAll(async () => {
  await embedder.close?.();
});

type MemoryInput = Omit<TestMemory, "createdAt"> & { createdAt?: string };

function scope(memories: readonly MemoryInput[]): Promise<DreamSnapshot> {
  return embedTestSnapshot(embedder, {
    memories: memories.map((memory, i) => ({
      createdAt: `2026-0${1 + (i % 9)}-01T00:00:00.000Z`,
      ...memory,
    })),
  });
}

const groups = (actions: readonly MergeAction[]) => actions.map((action) => [...action.ids].sort());

describe("analyseDuplicates", () => {
  it("merges restatements of one fact into one action that keeps the most complete member", async () => {
    const snapshot = await scope([
      { id: "a", text: "Maria is vegetarian." },
      { id: "b", text: "Maria has been vegetarian since 2018." },
      { id: "c", text: "Maria's sister Ana lives in Porto." },
    ]);
    const [merge, ...rest] = analyseDuplicates(snapshot, testPolicy());
    expect(rest).toEqual([]);
    expect(merge).toMatchObject({
      kind: "merge",
      keep: "b",
      ids: ["b", "a"],
      text: "Maria has been vegetarian since 2018.",
    });
    expect(merge?.why.rule).toBe("duplicate");
    expect(merge?.why.evidence).toMatchObject({ sharedTerms: ["maria", "vegetarian"] });
    expect(merge?.why.evidence?.similarity).toBeGreaterThanOrEqual(0.6);
    expect(Object.isFrozen(merge)).toBe(true);
  });

  it("writes the merged text in the third person, keeping every time anchor and carried detail", async () => {
    const snapshot = await scope([
      { id: "a", text: "I back up my photos to Backblaze B2 every night before bed." },
      { id: "b", text: "User has backed up photos to Backblaze B2 nightly since 2021." },
      { id: "c", text: "As of 2026-03-01, billing-api deploys to Fly.io from the main branch." },
      { id: "d", text: "As of 2026-01-15, billing-api is deployed to Fly.io." },
    ]);
    const texts = analyseDuplicates(snapshot, testPolicy()).map((merge) => merge.text);
    expect(texts).toEqual([
      "User backs up their photos to Backblaze B2 every night before bed since 2021.",
      "As of 2026-03-01, billing-api deploys to Fly.io from the main branch (also true as of 2026-01-15).",
    ]);
  });

  it("never groups two members refused against each other, even through a shared neighbour", async () => {
    const snapshot = await scope([
      { id: "a", text: "User runs 5 km every morning." },
      { id: "b", text: "Every morning the user goes for a 5 km run." },
      { id: "c", text: "User runs 10 km every morning." },
    ]);
    expect(groups(analyseDuplicates(snapshot, testPolicy()))).toEqual([["a", "b"]]);
  });

  it("never merges pinned memories or memories of an immutable category", async () => {
    const snapshot = await scope([
      { id: "a", text: "User signs all commits with an SSH key.", metadata: { pinned: true } },
      { id: "b", text: "All of the user's commits are signed with an SSH key." },
      { id: "c", text: "User's name is Samuel Ortiz.", category: "identity" },
      { id: "d", text: "The user is called Samuel Ortiz.", category: "identity" },
    ]);
    expect(analyseDuplicates(snapshot, testPolicy())).toEqual([]);
  });

  it("merges within one category or with uncategorised memories, never across two categories", async () => {
    const snapshot = await scope([
      { id: "a", text: "User prefers tabs over spaces for indentation.", category: "preference" },
      { id: "b", text: "User likes to indent code with tabs rather than spaces." },
      { id: "c", text: "Li Wei wants to learn Rust in 2026.", category: "project" },
      { id: "d", text: "Li Wei plans to learn Rust in 2026.", category: "preference" },
    ]);
    expect(groups(analyseDuplicates(snapshot, testPolicy()))).toEqual([["a", "b"]]);
  });

  it("never merges a pair that contradicts itself", async () => {
    const snapshot = await scope([
      { id: "a", text: "invoice-worker runs on Node 20." },
      { id: "b", text: "invoice-worker runs on Node 18." },
      { id: "c", text: "billing-api deploys to Fly.io." },
      { id: "d", text: "billing-api deploys to AWS." },
    ]);
    expect(analyseDuplicates(snapshot, testPolicy())).toEqual([]);
  });

  it("takes candidates only from the vector neighbours", async () => {
    const embedded = await scope([
      { id: "a", text: "Maria is vegetarian." },
      { id: "b", text: "Maria has been vegetarian since 2018." },
    ]);
    const snapshot = createTestSnapshot({
      memories: embedded.memories.map((memory) => ({ ...memory })),
      vectors: embedded.memories.map((memory) => embedded.embedding(memory.id) as Float32Array),
      neighbours: () => [],
    });
    expect(analyseDuplicates(snapshot, testPolicy())).toEqual([]);
  });

  it("respects the policy's similarity threshold", async () => {
    const snapshot = await scope([
      { id: "a", text: "User's time zone is CET." },
      { id: "b", text: "The user's time zone is CET (Central European Time)." },
    ]);
    expect(analyseDuplicates(snapshot, testPolicy())).toHaveLength(1);
    expect(
      analyseDuplicates(snapshot, testPolicy({ duplicates: { minSimilarity: 0.999, neighbours: 10 } })),
    ).toEqual([]);
  });

  it("is deterministic: same actions whatever the memories' order", async () => {
    const memories: MemoryInput[] = [
      { id: "d1", text: "The payments team holds standup at 9:30 every weekday." },
      { id: "d2", text: "Payments standup is daily at 9:30 on weekdays." },
      { id: "d3", text: "Li Wei's home server runs Proxmox on an Intel NUC." },
      { id: "d4", text: "Li Wei has an Intel NUC at home running Proxmox." },
      { id: "d5", text: "The search team holds standup at 10:00." },
    ];
    const forward = analyseDuplicates(await scope(memories), testPolicy());
    const backward = analyseDuplicates(await scope([...memories].reverse()), testPolicy());
    expect(groups(forward)).toEqual([
      ["d1", "d2"],
      ["d3", "d4"],
    ]);
    expect(backward.map((merge) => [merge.keep, merge.text])).toEqual(
      forward.map((merge) => [merge.keep, merge.text]),
    );
    expect(JSON.stringify(analyseDuplicates(await scope(memories), testPolicy()))).toBe(
      JSON.stringify(forward),
    );
  });
});
