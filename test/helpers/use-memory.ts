import { afterAll, beforeAll } from "vitest";
import { type Memory, openMemory } from "../../src/index.js";
import { scriptedEmbedder } from "./scripted-embedder.js";
import { tempFiles } from "./temp-dir.js";

/**
 * One store for the tests of a file, in a temporary file, with an instant two-dimensional embedder
 * (for tests where vectors do not matter): opened before the tests, closed after.
 *
 * @example
 * const memory = useMemory("undo");
 * it("…", async () => { await memory().add("Alice drinks tea", { userId: "alice" }); });
 */
export function useMemory(prefix: string): () => Memory {
  const files = tempFiles(prefix);
  let memory: Memory | undefined;
  beforeAll(async () => {
    memory = await openMemory({
      path: files.path(),
      embedder: scriptedEmbedder(2, (text) => [1, text.length]),
    });
  });
  afterAll(async () => {
    await memory?.close();
  });
  return () => {
    if (memory === undefined) throw new Error("the store is open only inside this file's tests");
    return memory;
  };
}
