/**
 * A dream stopped by Ctrl-C or SIGTERM releases its scope's lease (exit 130, nothing applied), and
 * one killed outright (kill -9) leaves a lease that the next dreamer on this host takes over at once
 * — no scope is blocked for the lease's hour.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { BIN, runCli, runJson, tempHomes } from "../cli/run-cli.js";
import { useFakeEmbeddingServer, writeFakeEmbedderHome } from "../helpers/fake-openai-server.js";

const newHome = tempHomes();
const server = useFakeEmbeddingServer();

/** A home with many expired memories: a dream that takes a while to apply. */
async function bulkHome(): Promise<string> {
  const home = writeFakeEmbedderHome(newHome(), server);
  const lines = Array.from({ length: 6000 }, (_, index) =>
    JSON.stringify({
      id: `op${index}`,
      text: `Nightly backup job ${index} finished`,
      user_id: "bulk",
      category: "operational",
      created_at: "2025-01-01T00:00:00.000Z",
    }),
  );
  writeFileSync(join(home, "seed.jsonl"), `${lines.join("\n")}\n`);
  expect((await runCli(["import", join(home, "seed.jsonl")], { home })).code).toBe(0);
  return home;
}

function leases(home: string): { holder: string; pid: number }[] {
  const db = new Database(join(home, "lucid.db"), { readonly: true, timeout: 5000 });
  try {
    return db.prepare("select holder, pid from dream_leases").all() as { holder: string; pid: number }[];
  } finally {
    db.close();
  }
}

/** Starts `lucid dream --yes`, waits until it holds the lease (it is applying), and sends `signal`. */
async function interruptApply(home: string, signal: NodeJS.Signals): Promise<number | null> {
  const child = spawn(process.execPath, [BIN, "dream", "--yes", "--user", "bulk"], {
    env: { ...process.env, LUCID_HOME: home },
    stdio: "ignore",
  });
  const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
  let finished = false;
  void closed.then(() => {
    finished = true;
  });
  while (!finished && leases(home).length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
  if (finished) throw new Error("the dream finished before it could be interrupted; give it more to do");
  child.kill(signal);
  return closed;
}

async function count(home: string): Promise<number> {
  return (await runJson(["list", "--user", "bulk", "--show-expired", "--page-size", "1"], { home })).json
    .total as number;
}

describe("a dream interrupted", () => {
  it.each<NodeJS.Signals>(["SIGINT", "SIGTERM"])(
    "by %s exits 130, applies nothing and releases the lease",
    async (signal) => {
      const home = await bulkHome();
      expect(await interruptApply(home, signal)).toBe(130);
      expect(leases(home)).toEqual([]);
      expect(await count(home)).toBe(6000);
      const again = await runJson(["dream", "--yes", "--user", "bulk"], { home });
      expect(again.json).toMatchObject({ ok: true, applied: true });
    },
  );

  it("by kill -9 leaves a lease the next dreamer on this host takes over at once", async () => {
    const home = await bulkHome();
    await interruptApply(home, "SIGKILL");
    const [left] = leases(home);
    expect(left).toBeDefined();
    const again = await runJson(["dream", "--yes", "--user", "bulk"], { home });
    expect(again.json).toMatchObject({ ok: true, applied: true, counts: { pruned: 6000 } });
    expect(leases(home)).toEqual([]);
  });
});
