/**
 * The Markdown workspace the browser tests' Sleep view reads: `MEMORY.md` with one line, and a
 * daily note of five days ago whose travel line a new question recalled on each day since — recent
 * and asked often enough to pass every gate against the real clock the page uses.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Workspace } from "../../src/sdk/workspace.js";

export const KYOTO_MEMORY_MD = "# Long-Term Memory\n\n- Nadia's team ships the flood model in spring\n";
const DAY_MS = 86_400_000;

export interface KyotoWorkspace {
  readonly dir: string;
  /** The daily note, relative to `dir`; its line 4 is the one recalled. */
  readonly note: string;
  /** Records the note's recalls through the server's workspace. */
  recall(workspace: Workspace): Promise<void>;
}

export function writeKyotoWorkspace(prefix: string): KyotoWorkspace {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const start = Date.now() - 5 * DAY_MS;
  const day = new Date(start).toISOString().slice(0, 10);
  const note = `memory/${day}.md`;
  mkdirSync(join(dir, "memory"), { recursive: true });
  writeFileSync(join(dir, "MEMORY.md"), KYOTO_MEMORY_MD);
  writeFileSync(
    join(dir, note),
    `# ${day}\n\n## Travel\n- book the ryokan in Kyoto by March\n- renew both passports before February\n`,
  );
  return {
    dir,
    note,
    async recall(workspace) {
      for (let index = 0; index < 5; index++) {
        await workspace.record(
          `question ${index + 1} about the Kyoto trip`,
          [{ path: note, startLine: 4, endLine: 4, score: 0.95 }],
          { at: new Date(start + index * DAY_MS + 9 * 3_600_000).toISOString() },
        );
      }
    },
  };
}
