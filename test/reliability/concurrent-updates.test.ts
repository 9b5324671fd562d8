/**
 * Concurrent updates lose nothing: a metadata merge is made inside the write transaction, on the row
 * as it is then — not on a copy read before the transaction (or before the new text was embedded).
 */
import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import type { Embedder } from "../../src/embed/embedder.js";
import { type Memory, openMemory } from "../../src/index.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("concurrent");

/** An embedder whose calls wait until the test lets them go, so an update can be caught mid-embedding. */
function gatedEmbedder(): Embedder & { release: () => void; waiting: () => number } {
  let gates: (() => void)[] = [];
  return {
    id: "gated",
    dimension: 2,
    async embed(texts) {
      await new Promise<void>((resolve) => gates.push(resolve));
      return texts.map((text) => [1, text.length]);
    },
    release() {
      for (const open of gates) open();
      gates = [];
    },
    waiting: () => gates.length,
  };
}

const fixedEmbedder: Embedder = {
  id: "fixed",
  dimension: 2,
  embed: async (texts) => texts.map(() => [1, 0]),
};

let memory: Memory | undefined;
afterEach(async () => {
  await memory?.close();
  memory = undefined;
});

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

describe("concurrent updates", () => {
  it("keep a pin made while a text update is being embedded", async () => {
    const embedder = gatedEmbedder();
    memory = await openMemory({ path: files.path(), embedder });
    const added = memory.add("User prefers tabs", { userId: "alice" });
    await until(() => embedder.waiting() > 0);
    embedder.release();
    const id = (await added).results[0]?.id ?? "";

    const textUpdate = memory.update(id, "User prefers tabs, width 2");
    await until(() => embedder.waiting() > 0);
    await memory.update(id, { metadata: { pinned: true } });
    embedder.release();
    await textUpdate;

    expect(await memory.get(id)).toMatchObject({
      memory: "User prefers tabs, width 2",
      metadata: { pinned: true },
    });
  });

  it("never write older text back from a metadata-only update", async () => {
    const embedder = gatedEmbedder();
    memory = await openMemory({ path: files.path(), embedder });
    const added = memory.add("first text", { userId: "alice" });
    await until(() => embedder.waiting() > 0);
    embedder.release();
    const id = (await added).results[0]?.id ?? "";
    const textUpdate = memory.update(id, "second text");
    const metadataUpdate = memory.update(id, { metadata: { source: "chat" } });
    await until(() => embedder.waiting() > 0);
    embedder.release();
    await Promise.all([textUpdate, metadataUpdate]);
    expect(await memory.get(id)).toMatchObject({ memory: "second text", metadata: { source: "chat" } });
  });

  it("keep every concurrent merge in one process", async () => {
    memory = await openMemory({ path: files.path(), embedder: fixedEmbedder });
    const id = (await memory.add("Shared memory", { userId: "alice" })).results[0]?.id ?? "";
    await Promise.all(
      Array.from({ length: 50 }, (_, index) => memory?.update(id, { metadata: { [`key${index}`]: index } })),
    );
    const keys = Object.keys((await memory.get(id))?.metadata ?? {}).filter((key) => key.startsWith("key"));
    expect(keys).toHaveLength(50);
  });

  it("keep every merge made by four processes at once", async () => {
    const path = files.path();
    memory = await openMemory({
      path,
      embedder: fixedEmbedder,
    });
    const id = (await memory.add("Shared across processes", { userId: "alice" })).results[0]?.id ?? "";
    await memory.close();
    memory = undefined;
    const PER_PROCESS = 60;
    const script = (worker: number) => `
      import { openMemory } from ${JSON.stringify(new URL("../../src/index.ts", import.meta.url).pathname)};
      const memory = await openMemory({
        path: ${JSON.stringify(path)},
        embedder: { id: "fixed", dimension: 2, embed: async (texts) => texts.map(() => [1, 0]) },
        busyTimeoutMs: 60000,
      });
      for (let i = 0; i < ${PER_PROCESS}; i++) {
        await memory.update(${JSON.stringify(id)}, { metadata: { ["w${worker}_" + i]: i } });
      }
      await memory.close();
    `;
    const runs = [0, 1, 2, 3].map((worker) => {
      const child = spawn(
        process.execPath,
        ["--import", "tsx", "--input-type=module", "-e", script(worker)],
        {
          stdio: ["ignore", "ignore", "pipe"],
        },
      );
      let stderr = "";
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
      });
      return new Promise<string>((resolve) => child.on("close", (code) => resolve(`${code} ${stderr}`)));
    });
    expect(await Promise.all(runs)).toEqual(["0 ", "0 ", "0 ", "0 "]);
    memory = await openMemory({
      path,
      embedder: fixedEmbedder,
    });
    const metadata = (await memory.get(id))?.metadata ?? {};
    expect(Object.keys(metadata).filter((key) => /^w\d_/.test(key))).toHaveLength(4 * PER_PROCESS);
  });
});
