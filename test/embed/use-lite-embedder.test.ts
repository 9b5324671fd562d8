import { afterAll, describe, expect, it } from "vitest";
import { cosine } from "../../src/embed/cosine.js";
import { createUseLiteEmbedder } from "../../src/embed/local/use-lite-embedder.js";
import { expectSilent } from "../helpers/expect-silent.js";

function maxDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
  return max;
}

// One embedder, so the 28 MB model loads once for the whole file. Batch size 3 makes the
// seven-text case below span three batches.
describe("createLocalEmbedder (USE lite)", () => {
  const embedder = createUseLiteEmbedder({ batchSize: 3 });

  afterAll(async () => {
    await embedder.close?.();
  });

  it("describes itself without loading the model", () => {
    expect(embedder.id).toBe("use-lite@0.2.0");
    expect(embedder.dimension).toBe(512);
  });

  it("returns an empty array for no texts", async () => {
    await expect(embedder.embed([], "add")).resolves.toEqual([]);
  });

  it("loads silently and returns 512-dimensional unit Float32Arrays", async () => {
    const vectors = await expectSilent(() => embedder.embed(["The user has a dog named Poppy"], "add"));
    expect(vectors).toHaveLength(1);
    expect(vectors[0]).toBeInstanceOf(Float32Array);
    expect(vectors[0]).toHaveLength(512);
    expect(Math.hypot(...Array.from(vectors[0] ?? []))).toBeCloseTo(1, 3);
  });

  it("places paraphrases closer together than unrelated sentences", async () => {
    const [dog, paraphrase, revenue] = await embedder.embed(
      ["The user has a dog named Poppy", "Poppy is the user's dog", "Quarterly revenue grew"],
      "add",
    );
    if (!dog || !paraphrase || !revenue) throw new Error("missing vectors");

    expect(cosine(dog, paraphrase)).toBeGreaterThan(cosine(dog, revenue) + 0.2);
    expect(cosine(paraphrase, dog)).toBeGreaterThan(cosine(paraphrase, revenue) + 0.2);
  });

  it("gives the same vectors in batches as one text at a time", async () => {
    const texts = [
      "I prefer tea over coffee",
      "Meeting moved to Thursday at 3pm",
      "My sister lives in Lisbon",
      "Allergic to peanuts",
      "Working on the Lucid memory layer in TypeScript",
      "Favourite colour is green",
      "Runs 5k every Saturday morning",
    ];

    const batched = await embedder.embed(texts, "add");
    const single: ArrayLike<number>[] = [];
    for (const text of texts) single.push(...(await embedder.embed([text], "add")));

    expect(batched).toHaveLength(texts.length);
    batched.forEach((vector, i) => {
      expect(maxDifference(vector, single[i] ?? [])).toBeLessThan(1e-4);
    });
  });

  it("gives concurrent calls the same vectors as sequential ones", async () => {
    const texts = ["alpha beta", "gamma delta", "epsilon"];
    const sequential = await embedder.embed(texts, "search");

    const concurrent = await Promise.all(texts.map((text) => embedder.embed([text], "search")));

    concurrent.forEach(([vector], i) => {
      expect(maxDifference(vector ?? [], sequential[i] ?? [])).toBeLessThan(1e-4);
    });
  });

  it("keeps one vector per text when some texts are empty", async () => {
    // USE lite alone would drop a trailing empty text's row and throw on an all-empty batch.
    const vectors = await embedder.embed(["hello", "", "world", ""], "add");
    const [alone] = await embedder.embed([""], "add");

    expect(vectors).toHaveLength(4);
    expect(vectors.every((vector) => vector.length === 512)).toBe(true);
    expect(maxDifference(vectors[1] ?? [], alone ?? [])).toBeLessThan(1e-4);
    expect(maxDifference(vectors[3] ?? [], alone ?? [])).toBeLessThan(1e-4);
  });
});
