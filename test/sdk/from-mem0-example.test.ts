/**
 * `examples/from-mem0.ts`, run as a user runs it: a Mem0 program whose only change is the import.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { cleanEnv } from "../mcp/mcp-client.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

describe("examples/from-mem0.ts", () => {
  it("runs a typical Mem0 program from start to end", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "examples/from-mem0.ts"], {
      cwd: ROOT,
      env: cleanEnv(),
    });
    expect(stdout.trim().split("\n")).toEqual([
      "added 3: ADD, ADD, ADD",
      expect.stringMatching(/^search: I'm vegetarian and allergic to nuts\. \(0\.\d\d\)$/),
      expect.stringMatching(/^search: /),
      expect.stringMatching(/^search: /),
      "getAll: 3 memories, category profile",
      "get: Alex is vegan and allergic to nuts",
      "history: ADD → UPDATE",
      "delete: Memory deleted successfully!",
      "deleteAll: Memories deleted successfully!",
    ]);
  }, 120_000);
});
