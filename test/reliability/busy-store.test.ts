/**
 * A store locked by another process: a write waits for it without blocking this process — its reads
 * and timers go on — and many writers at once (imports and adds in eight processes) all finish, with
 * nothing lost.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { type Memory, openMemory } from "../../src/index.js";
import { BIN, runJson, tempHomes } from "../cli/run-cli.js";
import { useFakeEmbeddingServer, writeFakeEmbedderHome } from "../helpers/fake-openai-server.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("busy");
const server = useFakeEmbeddingServer();

describe("a store another process has locked", () => {
  it("lets this process's reads and timers run while a write waits for the lock", async () => {
    const path = files.path();
    const memory: Memory = await openMemory({
      path,
      embedder: scriptedEmbedder(2, (text) => [1, text.length]),
    });
    try {
      await memory.add("User prefers tabs", { userId: "alice" });
      const other = new Database(path);
      other.exec("begin immediate");
      const events: string[] = [];
      const write = memory.add("User drinks oat milk", { userId: "alice" }).then(() => events.push("write"));
      await new Promise((resolve) => setTimeout(resolve, 30));
      events.push("timer");
      const read = await memory.getAll({ userId: "alice" });
      events.push("read");
      expect(read.total).toBe(1);
      other.exec("commit");
      other.close();
      await write;
      expect(events).toEqual(["timer", "read", "write"]);
      expect((await memory.getAll({ userId: "alice" })).total).toBe(2);
    } finally {
      await memory.close();
    }
  });

  it("loses nothing when four imports and four adders write at once", async () => {
    const home = writeFakeEmbedderHome(tempHomes()(), server);
    await runJson(["status"], { home });
    const children: Promise<number | null>[] = [];
    const start = (args: string[]) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        env: { ...process.env, LUCID_HOME: home },
        stdio: "ignore",
      });
      children.push(new Promise((resolve) => child.on("close", resolve)));
    };
    for (let worker = 0; worker < 4; worker++) {
      const file = join(home, `import-${worker}.jsonl`);
      const lines = Array.from({ length: 400 }, (_, index) =>
        JSON.stringify({ text: `Imported fact ${worker}-${index}`, user_id: `importer${worker}` }),
      );
      writeFileSync(file, `${lines.join("\n")}\n`);
      start(["import", file, "--batch-size", "50"]);
    }
    for (let worker = 0; worker < 4; worker++) {
      // One process adds 25 memories, one `lucid add` each would be 100 processes: a batch of messages.
      const script = join(home, `adder-${worker}.jsonl`);
      const lines = Array.from({ length: 25 }, (_, index) =>
        JSON.stringify({ text: `Added fact ${worker}-${index}`, user_id: `adder${worker}` }),
      );
      writeFileSync(script, `${lines.join("\n")}\n`);
      start(["import", script, "--batch-size", "1"]);
    }
    expect(await Promise.all(children)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    for (let worker = 0; worker < 4; worker++) {
      expect((await runJson(["list", "--user", `importer${worker}`], { home })).json.total).toBe(400);
      expect((await runJson(["list", "--user", `adder${worker}`], { home })).json.total).toBe(25);
    }
  });
});
