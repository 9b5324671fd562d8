/**
 * `lucid sleep status` (the built binary) on a workspace with links out of it: the notes the index
 * leaves out are named with why, and so is a `MEMORY.md` or `DREAMS.md` sleep will not write.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawnCli, tempHomes } from "./run-cli.js";

const newHome = tempHomes();

/** A home with a workspace `ws` whose `memory/2026-11-04.md` links to a file outside it. */
function linkedHome(): { home: string; ws: string; outside: string } {
  const home = newHome();
  const ws = join(home, "ws");
  const outside = join(home, "elsewhere");
  mkdirSync(join(ws, "memory"), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(ws, "MEMORY.md"), "# Memory\n");
  writeFileSync(
    join(ws, "memory", "2026-11-03.md"),
    "# 2026-11-03\n\n- Renew both passports before February.\n",
  );
  writeFileSync(join(outside, "vault.md"), "# 2026-11-04\n\n- The vault code word is zephyrine.\n");
  symlinkSync(join(outside, "vault.md"), join(ws, "memory", "2026-11-04.md"));
  return { home, ws, outside };
}

describe("lucid sleep status on a workspace with links out of it", () => {
  it("names each note left out and why, and --json carries them", async () => {
    const { home, ws, outside } = linkedHome();
    const human = await spawnCli(["sleep", "status", "--workspace", ws], { home });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain("1 note left out: memory/2026-11-04.md links outside the workspace");
    expect(human.stdout).not.toContain(outside);

    const json = await spawnCli(["sleep", "status", "--workspace", ws, "--json"], { home });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: true,
      leftOut: [{ path: "memory/2026-11-04.md", reason: "links outside the workspace" }],
      unwritable: [],
    });
  });

  it("says a linked MEMORY.md and DREAMS.md will not be written", async () => {
    const { home, ws, outside } = linkedHome();
    writeFileSync(join(outside, "DREAMS.md"), "# Dream Diary\n");
    symlinkSync(join(outside, "DREAMS.md"), join(ws, "DREAMS.md"));
    // A link that stays inside is still refused for writing (and still read).
    mkdirSync(join(ws, "real"));
    writeFileSync(join(ws, "real", "MEMORY.md"), "# Memory\n\n- Hand-written.\n");
    rmSync(join(ws, "MEMORY.md"));
    symlinkSync(join("real", "MEMORY.md"), join(ws, "MEMORY.md"));
    const human = await spawnCli(["sleep", "status", "--workspace", ws], { home });
    expect(human.code, human.stderr).toBe(0);
    const refusal = "is a symbolic link: sleep will not write through it (replace the link with the file)";
    expect(human.stdout).toContain(`MEMORY.md ${refusal}`);
    expect(human.stdout).toContain(`DREAMS.md ${refusal}`);
    const json = await spawnCli(["sleep", "status", "--workspace", ws, "--json"], { home });
    expect(JSON.parse(json.stdout)).toMatchObject({
      memoryChars: "# Memory\n\n- Hand-written.\n".length,
      unwritable: [
        { path: "MEMORY.md", reason: refusal },
        { path: "DREAMS.md", reason: refusal },
      ],
    });
  });
});
