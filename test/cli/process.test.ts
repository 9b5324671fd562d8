/**
 * What only the real binary in a process shows: its exit codes, and a reader that goes away
 * (`lucid export | head`). Every other behaviour of the commands is tested in process (run-cli.ts).
 */

import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useFakeEmbeddingServer, writeFakeEmbedderHome } from "../helpers/fake-openai-server.js";
import { BIN, runCli, spawnCli, tempHomes } from "./run-cli.js";

const newHome = tempHomes();
const server = useFakeEmbeddingServer();

/** A home whose embedder is the loopback server: these tests are about the process, not vectors. */
const homeWithFakeEmbedder = () => writeFakeEmbedderHome(newHome(), server);

describe("the lucid binary", () => {
  it("exits 0 on success, 1 on a failure and 2 on a usage error", async () => {
    const home = homeWithFakeEmbedder();
    const version = await spawnCli(["--version"], { home });
    expect(version.code).toBe(0);
    const missing = await spawnCli(["get", "no-such-id"], { home });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error\[MEMORY_NOT_FOUND\]/);
    const usage = await spawnCli(["serach", "tea"], { home });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Did you mean `lucid search`?");
  });

  it("stops quietly with exit 0 when the reader of its output goes away (lucid export | head)", async () => {
    const home = homeWithFakeEmbedder();
    const lines = Array.from({ length: 3000 }, (_, index) =>
      JSON.stringify({ id: `m${index}`, text: `Fact number ${index} about the garden`, user_id: "alice" }),
    );
    writeFileSync(join(home, "seed.jsonl"), `${lines.join("\n")}\n`);
    expect((await runCli(["import", join(home, "seed.jsonl")], { home })).code).toBe(0);

    const child = spawn(process.execPath, [BIN, "export"], {
      env: { ...process.env, LUCID_HOME: home },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const closed = new Promise<number | null>((resolve) => child.on("close", (exit) => resolve(exit)));
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const firstLine = await new Promise<string>((resolve) => {
      child.stdout.setEncoding("utf8").once("data", (chunk: string) => resolve(chunk.split("\n")[0] ?? ""));
    });
    child.stdout.destroy();
    const code = await closed;
    expect(JSON.parse(firstLine)).toMatchObject({ id: "m0", user_id: "alice" });
    expect(code).toBe(0);
    expect(stderr).toBe("");
  });
});
