/**
 * The CLI tests run the built binary (`bin/lucid.js` → `dist/cli/main.js`), and `lucid serve`
 * serves the built web UI (`dist/ui`). Build each once before them when it is missing or older than
 * any of its source files; otherwise this costs a directory walk.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BUILT = join(ROOT, "dist", "cli", "main.js");
const BUILT_UI = join(ROOT, "dist", "ui", "app.js");

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
  buildCli();
  buildUi();
}

function buildUi(): void {
  const newest = Math.max(newestSource(join(ROOT, "ui")), statSync(join(ROOT, "package-lock.json")).mtimeMs);
  if (existsSync(BUILT_UI) && statSync(BUILT_UI).mtimeMs >= newest) return;
  execFileSync(process.execPath, [join(ROOT, "ui", "build.mjs")], { cwd: ROOT, stdio: "pipe" });
}

function buildCli(): void {
  if (existsSync(BUILT) && statSync(BUILT).mtimeMs >= newestSource(join(ROOT, "src"))) return;
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  try {
    execFileSync(process.execPath, [tsc, "-b", "tsconfig.build.json"], { cwd: ROOT, stdio: "pipe" });
  } catch (error) {
    // tsc still emits on type errors, which `npm run typecheck` reports; only a missing build is fatal here.
    if (!existsSync(BUILT)) throw error;
  }
}
