/**
 * Where the benchmarks read and write: the repository root, its git-ignored `.bench-data/`, the
 * LoCoMo file outside the repository, and throw-away SQLite files.
 *
 * @module
 */

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));

export const BENCH_DATA_DIR = join(REPO_ROOT, ".bench-data");

/** The LoCoMo slice lives beside the repository (its licence forbids copying it in); `LUCID_LOCOMO` overrides. */
export function locomoPath(): string {
  return process.env.LUCID_LOCOMO ?? resolve(REPO_ROOT, "../shared/data/locomo-dev.json");
}

export function benchDataFile(name: string): string {
  mkdirSync(BENCH_DATA_DIR, { recursive: true });
  return join(BENCH_DATA_DIR, name);
}

/** A fresh directory for temp SQLite files; `remove()` deletes it with everything inside. */
export function createTempDir(prefix: string): { path: (file: string) => string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `lucid-bench-${prefix}-`));
  return {
    path: (file) => join(dir, file),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
