import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Clock } from "../../src/clock.js";
import { createLocalEmbedder } from "../../src/embed/local/local-embedder.js";
import { type Memory, openMemory } from "../../src/index.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("search");

describe("search with the local embedder", () => {
  let memory: Memory;

  beforeAll(async () => {
    memory = await openMemory({ path: files.path(), embedder: createLocalEmbedder() });
    const alice = [
      "User prefers TypeScript for backend services",
      "User has a dog named Poppy",
      "User is allergic to peanuts",
      "User moved to Toronto in March 2021",
      "User's favourite editor is Neovim",
    ];
    for (const text of alice) await memory.add(text, { userId: "alice" });
    await memory.add("User prefers Go for backend services", { userId: "bob" });
    await memory.add("Billing service runs on PostgreSQL 15", { userId: "alice", category: "technical" });
  });
  afterAll(async () => {
    await memory.close();
  });

  it("finds a paraphrase first, with a score in [0, 1]", async () => {
    const { results } = await memory.search("what language for the backend?", {
      filters: { user_id: "alice" },
      topK: 3,
    });
    expect(results[0]?.memory).toBe("User prefers TypeScript for backend services");
    for (const result of results) {
      expect(result.score).toBeGreaterThan(0);
      expect(result.score).toBeLessThanOrEqual(1);
    }
    const scores = results.map((result) => result.score ?? 0);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it("never returns another scope's memories", async () => {
    const { results } = await memory.search("backend language", { filters: { user_id: "bob" } });
    expect(results.map((result) => result.memory)).toEqual(["User prefers Go for backend services"]);
  });

  it("honours topK and threshold", async () => {
    const one = await memory.search("pets", { filters: { user_id: "alice" }, topK: 1 });
    expect(one.results).toHaveLength(1);
    const none = await memory.search("pets", { filters: { user_id: "alice" }, threshold: 1 });
    expect(none.results).toEqual([]);
    const zero = await memory.search("pets", { filters: { user_id: "alice" }, topK: 0 });
    expect(zero.results).toEqual([]);
  });

  it("explains each signal's contribution", async () => {
    const { results } = await memory.search("Where does Poppy live?", {
      filters: { user_id: "alice" },
      explain: true,
    });
    const poppy = results.find((result) => result.memory.includes("Poppy"));
    expect(poppy?.score_details).toMatchObject({
      matchedBy: expect.arrayContaining(["dense", "keyword", "entity"]),
    });
    const details = poppy?.score_details;
    expect(details?.entityBoost).toBeGreaterThan(0);
    expect(details?.bm25Score).toBeGreaterThan(0);
    expect(details?.finalScore).toBeCloseTo(
      Math.min((details?.rawScore ?? 0) / (details?.maxPossibleScore ?? 1), 1),
      5,
    );
  });

  it("applies metadata filters with operators", async () => {
    const technical = await memory.search("which database does billing use", {
      filters: { user_id: "alice", category: "technical" },
    });
    expect(technical.results.map((result) => result.memory)).toEqual([
      "Billing service runs on PostgreSQL 15",
    ]);
    const notTechnical = await memory.search("database", {
      filters: { AND: [{ user_id: "alice" }, { category: { ne: "technical" } }] },
      topK: 50,
      threshold: 0,
    });
    expect(notTechnical.results.some((result) => result.memory.includes("PostgreSQL"))).toBe(false);
    expect(notTechnical.results.length).toBe(5);
  });

  it("searches with one signal alone in dense or keyword mode", async () => {
    const keyword = await memory.search("Neovim editor", {
      filters: { user_id: "alice" },
      mode: "keyword",
      explain: true,
    });
    expect(keyword.results.map((result) => result.memory)).toEqual(["User's favourite editor is Neovim"]);
    expect(keyword.results[0]?.score_details).toMatchObject({
      semanticScore: 0,
      entityBoost: 0,
      matchedBy: ["keyword"],
    });
    const dense = await memory.search("Neovim editor", {
      filters: { user_id: "alice" },
      mode: "dense",
      explain: true,
    });
    expect(dense.results[0]?.memory).toBe("User's favourite editor is Neovim");
    expect(dense.results.every((result) => result.score_details?.matchedBy.join() === "dense")).toBe(true);
    await expect(
      memory.search("x", { filters: { user_id: "alice" }, mode: "fuzzy" as "dense" }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("accepts camelCase scope options as well as filters", async () => {
    const { results } = await memory.search("backend language", { userId: "bob" });
    expect(results.map((result) => result.memory)).toEqual(["User prefers Go for backend services"]);
  });
});

describe("search candidates beyond the dense top-K", () => {
  // To this embedder the query is [1, 0, 0], every filler has cosine 0.7 with it and the target 0.6.
  // With topK 5 the dense pool (100) is all fillers, so only the keyword generator can find the target;
  // once found, its keyword score lifts it above the fillers.
  const embedder = scriptedEmbedder(3, (text) => {
    if (text === "gateway") return [1, 0, 0];
    return text.includes("XQ-77") ? [0.6, 0, Math.sqrt(0.64)] : [0.7, Math.sqrt(0.51), 0];
  });
  let memory: Memory;

  beforeAll(async () => {
    memory = await openMemory({ path: files.path(), embedder });
    for (let index = 0; index < 120; index++)
      await memory.add(`Filler memory number ${index}`, { userId: "u" });
    await memory.add("The gateway part number is XQ-77", { userId: "u" });
  });
  afterAll(async () => {
    await memory.close();
  });

  it("finds a memory that matches only by keyword (Mem0 drops it: issue #5742)", async () => {
    const { results } = await memory.search("gateway", {
      filters: { user_id: "u" },
      topK: 5,
      threshold: 0,
      explain: true,
    });
    const target = results.find((result) => result.memory.includes("XQ-77"));
    expect(target?.score_details?.matchedBy).toEqual(["keyword"]);
    expect(results[0]?.memory).toContain("XQ-77");
  });
});

describe("expiry by category TTL and expiration date", () => {
  const now = { current: new Date("2026-06-01T00:00:00Z") };
  const clock: Clock = { now: () => now.current };
  let memory: Memory;
  let opsId = "";

  beforeAll(async () => {
    memory = await openMemory({ path: files.path(), embedder: createLocalEmbedder(), clock });
    const ops = await memory.add("Nightly backup job ran at 02:00", {
      userId: "ttl",
      category: "operational",
    });
    opsId = ops.results[0]?.id ?? "";
    await memory.add("User's name is Dana", { userId: "ttl", category: "identity" });
    await memory.add("Conference ticket valid until June 3", { userId: "ttl", expirationDate: "2026-06-03" });
  });
  afterAll(async () => {
    await memory.close();
  });

  it("hides expired memories from search and getAll, shows them on request, never deletes them", async () => {
    expect((await memory.getAll({ filters: { user_id: "ttl" } })).total).toBe(3);
    now.current = new Date("2026-06-10T00:00:00Z");
    const visible = await memory.getAll({ filters: { user_id: "ttl" } });
    expect(visible.results.map((item) => item.memory)).toEqual(["User's name is Dana"]);
    const searched = await memory.search("backup job", { filters: { user_id: "ttl" }, threshold: 0 });
    expect(searched.results.some((item) => item.id === opsId)).toBe(false);
    const withExpired = await memory.getAll({ filters: { user_id: "ttl" }, showExpired: true });
    expect(withExpired.total).toBe(3);
    const searchedExpired = await memory.search("backup job", {
      filters: { user_id: "ttl" },
      showExpired: true,
      threshold: 0,
    });
    expect(searchedExpired.results[0]?.id).toBe(opsId);
    expect(await memory.get(opsId)).not.toBeNull();
  });
});
