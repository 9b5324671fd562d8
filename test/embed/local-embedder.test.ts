import { describe, expect, it } from "vitest";
import {
  createLocalEmbedder,
  DEFAULT_LOCAL_MODEL_ID,
  localEmbedderFor,
} from "../../src/embed/local/local-embedder.js";
import { createMiniLmEmbedder } from "../../src/embed/local/minilm-embedder.js";
import { USE_LITE_ID } from "../../src/embed/local/use-lite-embedder.js";

describe("the default local embedder", () => {
  it("is MiniLM: the same id, dimension and vectors, its module loaded on first embed", {
    timeout: 120_000,
  }, async () => {
    const local = createLocalEmbedder();
    const minilm = createMiniLmEmbedder();
    expect(local.id).toBe(DEFAULT_LOCAL_MODEL_ID);
    expect([local.id, local.dimension]).toEqual([minilm.id, minilm.dimension]);
    const text = ["Nora keeps bees behind the shed"];
    const [a] = await local.embed(text, "add");
    const [b] = await minilm.embed(text, "add");
    expect(Array.from(a ?? [])).toEqual(Array.from(b ?? []));
  });

  it("keeps USE lite for a store USE lite wrote, and MiniLM otherwise", () => {
    expect(localEmbedderFor(USE_LITE_ID).id).toBe(USE_LITE_ID);
    expect(localEmbedderFor(null).id).toBe(DEFAULT_LOCAL_MODEL_ID);
    expect(localEmbedderFor("openai-compatible:x").id).toBe(DEFAULT_LOCAL_MODEL_ID);
  });
});
