/**
 * A store keeps the local model that wrote it: a USE lite store from before MiniLM became the
 * default opens and searches as it did, `status` says `reembed` would move it, and `reembed` does.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runJson, tempHomes } from "./run-cli.js";

const newHome = tempHomes();

function writeConfig(home: string, config: unknown): void {
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "lucid.config.json"), JSON.stringify(config));
}

const MINILM = { id: "minilm-l6-v2@0.1.0", dimension: 384 };
const USE_LITE = { id: "use-lite@0.2.0", dimension: 512 };

describe("the local embedder of an existing store", () => {
  it("keeps USE lite for a store it wrote until reembed moves it to MiniLM", {
    timeout: 240_000,
  }, async () => {
    const home = newHome();
    writeConfig(home, { embedder: { provider: "use-lite" } });
    await runJson(["add", "Nora keeps bees behind the shed", "--user", "nora"], { home });
    await runJson(["add", "Nora's favourite tea is genmaicha", "--user", "nora"], { home });

    // No embedder configured any more (as after upgrading Lucid with the old default).
    rmSync(join(home, "lucid.config.json"));
    const before = await runJson(["status"], { home });
    expect(before.json).toMatchObject({ embedder: USE_LITE, pendingEmbedder: null, defaultEmbedder: MINILM });
    expect((await runCli(["status"], { home })).stdout).toMatch(
      /^Upgrade\s+`lucid reembed` moves this store to minilm-l6-v2@0\.1\.0 \(384-d\), the default local model$/m,
    );
    const found = await runJson(["search", "what does Nora drink", "--user", "nora"], { home });
    expect((found.json.results as { memory: string }[])[0]?.memory).toContain("genmaicha");

    // "local" in a config written by `lucid init` means the same thing.
    writeConfig(home, { embedder: { provider: "local" } });
    expect((await runJson(["status"], { home })).json).toMatchObject({ embedder: USE_LITE });

    // Naming the other model is a mismatch, as with any other embedder.
    writeConfig(home, { embedder: { provider: "minilm" } });
    expect((await runJson(["add", "x", "--user", "nora"], { home })).json).toMatchObject({
      ok: false,
      error: { code: "EMBEDDER_MISMATCH" },
    });

    writeConfig(home, { embedder: { provider: "local" } });
    const reembedded = await runJson(["reembed"], { home });
    expect(reembedded.json).toMatchObject({ ok: true, reembedded: 2, total: 2, embedder: MINILM });
    const after = await runJson(["status"], { home });
    expect(after.json).toMatchObject({ embedder: MINILM, pendingEmbedder: null, defaultEmbedder: null });
    const again = await runJson(["search", "what does Nora drink", "--user", "nora"], { home });
    expect((again.json.results as { memory: string }[])[0]?.memory).toContain("genmaicha");
  });

  it("gives a new store MiniLM", { timeout: 120_000 }, async () => {
    const home = newHome();
    await runJson(["add", "Omar runs on Sundays", "--user", "omar"], { home });
    expect((await runJson(["status"], { home })).json).toMatchObject({
      embedder: MINILM,
      defaultEmbedder: null,
    });
  });
});
