import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/** A temporary directory for this test file, removed after its tests; returns fresh file paths. */
export function tempFiles(prefix: string): { dir: string; path: (name?: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), `lucid-${prefix}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let count = 0;
  return { dir, path: (name) => join(dir, name ?? `file-${++count}.db`) };
}
