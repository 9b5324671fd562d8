/**
 * The CLI tests run the built binary (`bin/lucid.js` → `dist/cli/main.js`). Build once before them
 * when `dist` is missing or older than any source file; otherwise this costs a directory walk.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BUILT = join(ROOT, "dist", "cli", "main.js");

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const time = entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs;
    newest = Math.max(newest, time);
  }
  return newest;
}

export default function setup(): void {
  if (existsSync(BUILT) && statSync(BUILT).mtimeMs >= newestSource(join(ROOT, "src"))) return;
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  try {
    execFileSync(process.execPath, [tsc, "-b", "tsconfig.build.json"], { cwd: ROOT, stdio: "pipe" });
  } catch (error) {
    // tsc still emits on type errors, which `npm run typecheck` reports; only a missing build is fatal here.
    if (!existsSync(BUILT)) throw error;
  }
}
