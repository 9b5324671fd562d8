/**
 * Same query, same memories → same results: the ranking must not depend on the random ids a store
 * gave its memories, nor on how many results were asked for.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Embedder } from "../../src/embed/embedder.js";
import { type Memory, openMemory } from "../../src/index.js";
import { fakeVector } from "../helpers/fake-openai-server.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("determinism");

const hashEmbedder: Embedder = {
  id: "hash-16",
  dimension: 16,
  async embed(texts) {
    return texts.map((text) => Float32Array.from(fakeVector(text, 16)));
  },
};

/**
 * 150 of the 300 memories name Caroline, more than the entity generator's pool of 100: before,
 * which of them got her (small) entity boost depended on their random ids.
 */
const TEXTS = Array.from({ length: 300 }, (_, index) =>
  index % 2 === 0
    ? `Caroline mentioned plan ${index} for the garden`
    : `Melanie mentioned plan ${index} for the studio`,
);

async function filledStore(): Promise<Memory> {
  const memory = await openMemory({ path: files.path(), embedder: hashEmbedder });
  await memory.add(
    TEXTS.map((content) => ({ role: "user", content })),
    { userId: "u" },
  );
  return memory;
}

const texts = async (memory: Memory, query: string, topK: number) =>
  (await memory.search(query, { userId: "u", topK, threshold: 0 })).results.map((item) => item.memory);

describe("ranking is deterministic", () => {
  let first: Memory;
  let second: Memory;
  beforeAll(async () => {
    [first, second] = await Promise.all([filledStore(), filledStore()]);
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  const queries = [
    "What did Caroline say about the garden?",
    "Caroline plans",
    "Which plans did Caroline and Melanie mention?",
    "plan 42",
  ];

  it("two stores holding the same memories answer every query the same", async () => {
    for (const query of queries)
      expect(await texts(first, query, 10)).toEqual(await texts(second, query, 10));
  });

  it("the first results are the same whether topK is 5, 10 or 50", async () => {
    for (const query of queries) {
      const fifty = await texts(first, query, 50);
      expect(fifty).toHaveLength(50);
      expect(await texts(first, query, 10)).toEqual(fifty.slice(0, 10));
      expect(await texts(first, query, 5)).toEqual(fifty.slice(0, 5));
    }
  });

  it("every candidate that names a query entity carries its boost", async () => {
    const { results } = await first.search("What did Caroline say about the garden?", {
      userId: "u",
      topK: 20,
      threshold: 0,
      explain: true,
    });
    for (const item of results) {
      const boosted = (item.score_details?.entityBoost ?? 0) > 0;
      expect(boosted).toBe(item.memory.startsWith("Caroline"));
    }
  });
});
