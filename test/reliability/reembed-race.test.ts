/**
 * Vectors of two models never mix: a process that opened the store before another re-embedded it
 * notices (EMBEDDER_MISMATCH) instead of writing or searching with the old model, and a re-embed
 * covers what other writers add or change while it runs.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Embedder } from "../../src/embed/embedder.js";
import { type Memory, openMemory } from "../../src/index.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("reembed-race");

const oldModel = (dimension = 3): Embedder => ({
  id: "old-model",
  dimension,
  embed: async (texts) => texts.map((text) => [1, 0, (text.length % 7) + 1, ...Array(dimension - 3).fill(0)]),
});
const newVector = (text: string) => [0, 1, (text.length % 5) + 1];

/** The new model, whose calls can be held at a gate to catch the re-embed half-way. */
function newModel(): Embedder & { hold: () => void; release: () => void; waiting: () => number } {
  let held = false;
  let gates: (() => void)[] = [];
  return {
    id: "new-model",
    dimension: 3,
    async embed(texts) {
      if (held) await new Promise<void>((resolve) => gates.push(resolve));
      return texts.map(newVector);
    },
    hold: () => {
      held = true;
    },
    release: () => {
      held = false;
      for (const open of gates) open();
      gates = [];
    },
    waiting: () => gates.length,
  };
}

const opened: Memory[] = [];
async function open(embedder: Embedder, path: string, allowEmbedderChange = false): Promise<Memory> {
  const memory = await openMemory({ path, embedder, allowEmbedderChange });
  opened.push(memory);
  return memory;
}
afterEach(async () => {
  for (const memory of opened.splice(0)) await memory.close();
});

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe("a store re-embedded by another process", () => {
  it.each([3, 5])(
    "is refused by a process still on the old model (%d-d), for writes and searches",
    async (dimension) => {
      const path = files.path();
      const running = await open(oldModel(dimension), path);
      await running.add("User prefers tabs", { userId: "alice" });
      // The new model has 3 dimensions: the same as the old one's, or not (then a stale process
      // would have met sqlite-vec's raw "Dimension mismatch").
      const switcher = await open(newModel(), path, true);
      expect((await switcher.reembed()).reembedded).toBe(1);
      await expect(running.add("User prefers spaces", { userId: "alice" })).rejects.toMatchObject({
        code: "EMBEDDER_MISMATCH",
      });
      await expect(running.search("tabs", { filters: { user_id: "alice" } })).rejects.toMatchObject({
        code: "EMBEDDER_MISMATCH",
      });
      const id = (await running.getAll({ userId: "alice" })).results[0]?.id ?? "";
      await expect(running.update(id, "User prefers tabs, width 4")).rejects.toMatchObject({
        code: "EMBEDDER_MISMATCH",
      });
      // What the running process could still do without vectors works, and nothing was mixed in.
      expect((await running.getAll({ userId: "alice" })).total).toBe(1);
      const store = (await switcher.ready()).store;
      const vectors = await store.getEmbeddings([id]);
      expect(Array.from(vectors.get(id) ?? [])).toEqual(newVector("User prefers tabs"));
    },
  );

  it("re-embeds what others add or change while it runs", async () => {
    const path = files.path();
    const running = await open(oldModel(), path);
    const first = (await running.add("User prefers tabs", { userId: "alice" })).results[0]?.id ?? "";
    await running.add("User drinks oat milk", { userId: "alice" });
    const model = newModel();
    const switcher = await open(model, path, true);
    model.hold();
    const reembedding = switcher.reembed({ batchSize: 1 });
    await until(() => model.waiting() > 0);
    // While the new model works on the first batch, the old process changes a text and adds a memory.
    await running.update(first, "User prefers tabs, width 2");
    const added = (await running.add("User lives in Lisbon", { userId: "alice" })).results[0]?.id ?? "";
    model.release();
    await reembedding;

    const store = (await switcher.ready()).store;
    const vectors = await store.getEmbeddings([first, added]);
    expect(Array.from(vectors.get(first) ?? [])).toEqual(newVector("User prefers tabs, width 2"));
    expect(Array.from(vectors.get(added) ?? [])).toEqual(newVector("User lives in Lisbon"));
    expect(await store.embedderStamp()).toEqual({ id: "new-model", dimension: 3 });
  });
});
