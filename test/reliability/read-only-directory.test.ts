/**
 * Issue 11, minor: in a read-only directory even `search` failed with STORE_READ_ONLY (SQLite could
 * not create the write-ahead log beside the file). The store now opens read-only there: reads work,
 * and a write fails saying why.
 *
 * The directory is made read-only with `chmod 555`, or — as root, whom permissions do not stop —
 * with the immutable attribute (`chattr +i`).
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAICompatibleEmbedder, openMemory } from "../../src/index.js";
import { runCli, runJson, tempHomes } from "../cli/run-cli.js";
import { useFakeEmbeddingServer, writeFakeEmbedderHome } from "../helpers/fake-openai-server.js";

const homes = tempHomes();
const asRoot = process.getuid?.() === 0;
const locked: string[] = [];

function lock(dir: string): void {
  if (asRoot) execFileSync("chattr", ["+i", dir]);
  else execFileSync("chmod", ["555", dir]);
  locked.push(dir);
}
function unlockAll(): void {
  for (const dir of locked.splice(0)) {
    if (asRoot) execFileSync("chattr", ["-i", dir]);
    else execFileSync("chmod", ["755", dir]);
  }
}
afterEach(unlockAll);

/** Whether this machine lets the test make a directory read-only for itself. */
function canLock(): boolean {
  const dir = homes();
  execFileSync("mkdir", ["-p", dir]);
  try {
    lock(dir);
    execFileSync("touch", [join(dir, "probe")], { stdio: "ignore" });
    return false; // still writable: the lock does not hold here
  } catch {
    return locked.length > 0;
  } finally {
    unlockAll();
  }
}
const lockable = canLock();
if (!lockable) console.warn("read-only-directory: this machine cannot make a directory read-only; skipped");

const server = useFakeEmbeddingServer();

describe.skipIf(!lockable)("a store in a read-only directory", () => {
  it("serves reads and refuses writes saying why", async () => {
    const home = writeFakeEmbedderHome(homes(), server);
    const added = await runJson(["add", "Alice keeps bees on the roof", "--user", "alice"], { home });
    const id = (added.json.results as { id: string }[])[0]?.id as string;
    lock(home);

    const list = await runJson(["list", "--user", "alice"], { home });
    expect(list.json).toMatchObject({ ok: true, total: 1 });
    const search = await runJson(["search", "bees roof", "--user", "alice", "--threshold", "0"], { home });
    expect((search.json.results as { id: string }[]).map((item) => item.id)).toEqual([id]);
    expect((await runJson(["get", id], { home })).json).toMatchObject({ ok: true });
    const exported = await runCli(["export"], { home });
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain("Alice keeps bees on the roof");

    const write = await runJson(["add", "Alice sells honey", "--user", "alice"], { home });
    expect(write.json).toMatchObject({ ok: false, error: { code: "STORE_READ_ONLY" } });
    expect((write.json.error as { message: string }).message).toMatch(
      /is open read-only: this process cannot write to .* or its directory/,
    );
  });

  it("sees what a writer that still has the store open committed last", async () => {
    const home = writeFakeEmbedderHome(homes(), server);
    await runJson(["add", "Bob drinks mate", "--user", "bob"], { home });
    const writer = await openMemory({
      path: join(home, "lucid.db"),
      embedder: createOpenAICompatibleEmbedder({ baseURL: server.baseURL, model: "fake", dimension: 8 }),
    });
    try {
      await writer.add("Bob grows his own yerba", { userId: "bob" }); // in the write-ahead log, not yet in the file
      lock(home);
      const list = await runJson(["list", "--user", "bob"], { home });
      expect(list.json).toMatchObject({ ok: true, total: 2 });
    } finally {
      unlockAll();
      await writer.close();
    }
  });
});
