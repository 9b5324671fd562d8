/**
 * Through the built binary (issue 33, item 7): `lucid config` masks a password inside any URL it
 * prints, and `lucid status` says which runtime runs the local model and why — native here, and
 * WASM in a process where onnxruntime-node cannot be found, which also warns once when it embeds.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawnCli, tempHomes } from "./run-cli.js";

const newHome = tempHomes();
const LOAD_TIMEOUT = 120_000;

const ONNX_VERSION = (
  JSON.parse(
    readFileSync(new URL("../../node_modules/onnxruntime-node/package.json", import.meta.url), "utf8"),
  ) as { version: string }
).version;

/**
 * `NODE_OPTIONS` for a process in which `import("onnxruntime-node")` fails as it does where the
 * optional dependency did not install: a module hook, registered before the CLI starts.
 */
const HIDE_ONNXRUNTIME = (() => {
  const hooks =
    'export async function resolve(specifier, context, next) { if (specifier === "onnxruntime-node") ' +
    "{ const error = new Error(\"Cannot find package 'onnxruntime-node' (hidden by the test)\"); " +
    'error.code = "ERR_MODULE_NOT_FOUND"; throw error; } return next(specifier, context); }';
  const register = `import { register } from "node:module"; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`;
  return `--import=data:text/javascript,${encodeURIComponent(register)}`;
})();

function writeConfig(home: string, config: unknown): void {
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "lucid.config.json"), JSON.stringify(config, null, 2));
}

describe("lucid config", () => {
  it("masks the password inside every URL it prints, and nothing else of it", async () => {
    const home = newHome();
    writeConfig(home, {
      store: { provider: "postgres", url: "postgres://lucid:pg-secret@db.internal:5432/lucid" },
      embedder: {
        provider: "openai-compatible",
        baseURL: "https://embed:embed-secret@embed.internal/v1",
        model: "fake",
        dimension: 8,
      },
      llm: {
        provider: "openai-compatible",
        baseURL: "https://llm.internal/v1?api_key=query-secret&region=eu",
        model: "m",
      },
    });
    for (const args of [["config"], ["config", "--json"]]) {
      const { code, stdout } = await spawnCli(args, { home });
      expect(code).toBe(0);
      expect(stdout).not.toMatch(/pg-secret|embed-secret|query-secret/);
    }
    const { stdout } = await spawnCli(["config", "--json"], { home });
    expect(JSON.parse(stdout).config).toMatchObject({
      store: { url: "postgres://lucid:***@db.internal:5432/lucid" },
      embedder: { baseURL: "https://embed:***@embed.internal/v1" },
      llm: { baseURL: "https://llm.internal/v1?api_key=***&region=eu" },
    });
  });

  it("prints a URL without a password as written", async () => {
    const home = newHome();
    writeConfig(home, { store: { provider: "postgres", url: "postgres://lucid@db.internal/lucid" } });
    const { stdout } = await spawnCli(["config", "--json"], { home });
    expect(JSON.parse(stdout).config.store.url).toBe("postgres://lucid@db.internal/lucid");
  });
});

describe("lucid status: the embedding runtime", () => {
  it("says native, with onnxruntime-node's version, where it loads", async () => {
    const home = newHome();
    const text = await spawnCli(["status"], { home });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      new RegExp(`^Runtime\\s+native \\(onnxruntime-node ${ONNX_VERSION}\\)$`, "m"),
    );
    const json = JSON.parse((await spawnCli(["status", "--json"], { home })).stdout);
    expect(json.embedderRuntime).toEqual({
      name: "native",
      reason: `onnxruntime-node ${ONNX_VERSION}`,
      degraded: false,
    });
  });

  it(
    "says WASM and why where onnxruntime-node cannot be loaded; embedding there warns once",
    async () => {
      const home = newHome();
      const env = { NODE_OPTIONS: HIDE_ONNXRUNTIME };
      const text = await spawnCli(["status"], { home, env });
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(
        /^Runtime\s+WASM — onnxruntime-node could not be loaded: Cannot find package 'onnxruntime-node' \(hidden by the test\)$/m,
      );
      // Status only looks: it loads no model, so it has nothing to warn about.
      expect(text.stderr).toBe("");
      const json = JSON.parse((await spawnCli(["status", "--json"], { home, env })).stdout);
      expect(json.embedderRuntime).toMatchObject({ name: "wasm", degraded: true });

      // Three batches, three embedding calls, one warning line.
      const lines = ["Kim likes tea", "Kim has a cat", "Kim runs on Sundays"]
        .map((text) => JSON.stringify({ text, user_id: "kim" }))
        .join("\n");
      const imported = await spawnCli(["import", "-", "--batch-size", "1"], { home, env, input: lines });
      expect(imported.code).toBe(0);
      const warnings = imported.stderr.split("\n").filter((line) => line.includes("LUCID_EMBEDDER_WASM"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/onnxruntime-node could not be loaded \(Cannot find package .*\).*WASM/);
    },
    LOAD_TIMEOUT,
  );
});
