/**
 * Issue 11, minor: a killed export left `backup.jsonl.<pid>.tmp` beside the backup, for good. The
 * next export removes the temporary files of exports whose process has ended (and only those).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runJson, tempHomes } from "../cli/run-cli.js";
import { useFakeEmbeddingServer, writeFakeEmbedderHome } from "../helpers/fake-openai-server.js";

const homes = tempHomes();
const server = useFakeEmbeddingServer();

/** The pid of a process that has already ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
    encoding: "utf8",
  });
  return Number(child.stdout);
}

describe("export's temporary files", () => {
  it("of a killed export are removed by the next; a running export's are left alone", async () => {
    const home = writeFakeEmbedderHome(homes(), server);
    await runJson(["add", "Alice keeps bees", "--user", "alice"], { home });
    const dir = join(home, "backups");
    mkdirSync(dir);
    const backup = join(dir, "backup.jsonl");
    const stale = `${backup}.${deadPid()}.tmp`;
    const running = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"]);
    const live = `${backup}.${running.pid}.tmp`;
    const unrelated = join(dir, "other.jsonl.123.tmp");
    for (const file of [stale, live, unrelated]) writeFileSync(file, '{"half": "a backup"');
    try {
      const exported = await runJson(["export", "--output", backup], { home });
      expect(exported.json).toMatchObject({ ok: true, exported: 1 });
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(live)).toBe(true);
      expect(existsSync(unrelated)).toBe(true);
      expect(readdirSync(dir).sort()).toEqual(
        ["backup.jsonl", `backup.jsonl.${running.pid}.tmp`, "other.jsonl.123.tmp"].sort(),
      );
    } finally {
      running.kill();
    }
  });
});
