/**
 * Which runtime MiniLM runs on, and why (`status`'s Runtime line), and the one warning a process
 * gets when "auto" falls back to WASM. WASM is forced as the other tests of this embedder force it:
 * with an `importOnnxRuntime` that fails.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createMiniLmEmbedder } from "../../src/embed/local/minilm-embedder.js";

const LOAD_TIMEOUT = 120_000;

const ONNX_VERSION = (
  JSON.parse(
    readFileSync(new URL("../../node_modules/onnxruntime-node/package.json", import.meta.url), "utf8"),
  ) as { version: string }
).version;

/** An import that fails as a missing optional dependency does: a message that goes on for lines. */
function missing(name: string) {
  return async (): Promise<never> => {
    throw Object.assign(
      new Error(`Cannot find package 'onnxruntime-node' (${name})\nRequire stack:\n- /x/y.js`),
      {
        code: "ERR_MODULE_NOT_FOUND",
      },
    );
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("MiniLM's runtime report", () => {
  it("names onnxruntime-node and its version when it loads", async () => {
    await expect(createMiniLmEmbedder().describeRuntime()).resolves.toEqual({
      name: "native",
      reason: `onnxruntime-node ${ONNX_VERSION}`,
      degraded: false,
    });
  });

  it("says why it would fall back to WASM, in one line, without loading the model", async () => {
    const auto = createMiniLmEmbedder({ runtime: "auto", importOnnxRuntime: missing("report") });
    await expect(auto.describeRuntime()).resolves.toEqual({
      name: "wasm",
      reason: "onnxruntime-node could not be loaded: Cannot find package 'onnxruntime-node' (report)",
      degraded: true,
    });
    const native = createMiniLmEmbedder({ runtime: "native", importOnnxRuntime: missing("report") });
    await expect(native.describeRuntime()).resolves.toMatchObject({
      name: "native",
      reason: expect.stringMatching(/^onnxruntime-node could not be loaded: .*; embedding fails/),
      degraded: true,
    });
    await expect(createMiniLmEmbedder({ runtime: "wasm" }).describeRuntime()).resolves.toEqual({
      name: "wasm",
      reason: 'runtime "wasm" chosen',
      degraded: false,
    });
  });

  it(
    "warns once per process when auto falls back to WASM, however many embedders and calls",
    async () => {
      const warnings = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
      const first = createMiniLmEmbedder({ runtime: "auto", importOnnxRuntime: missing("first") });
      const second = createMiniLmEmbedder({ runtime: "auto", importOnnxRuntime: missing("second") });
      await first.embed(["one"], "add");
      await first.embed(["two"], "search");
      await second.embed(["three"], "add");
      await expect(second.runtime()).resolves.toBe("wasm");

      expect(warnings).toHaveBeenCalledTimes(1);
      const [message, options] = warnings.mock.calls[0] as [string, { code: string }];
      expect(options).toEqual({ code: "LUCID_EMBEDDER_WASM" });
      expect(message).not.toContain("\n");
      expect(message).toContain("Cannot find package 'onnxruntime-node' (first)");
      expect(message).toContain("WASM");
      // What the load found is what the report says from now on.
      await expect(first.describeRuntime()).resolves.toMatchObject({ name: "wasm", degraded: true });
    },
    LOAD_TIMEOUT,
  );

  it(
    "does not warn when WASM was chosen",
    async () => {
      const warnings = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
      await createMiniLmEmbedder({ runtime: "wasm" }).embed(["chosen"], "add");
      expect(warnings).not.toHaveBeenCalled();
    },
    LOAD_TIMEOUT,
  );
});
