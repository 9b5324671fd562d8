/**
 * The workspace's `MEMORY.md` as a file sleep writes: found where OpenClaw looks (`MEMORY.md`, else
 * an existing `memory.md`), refused when it is a symbolic link (sleep writes no file through a link,
 * `confined-path.ts`), and written atomically — the new bytes go to a temporary file beside it,
 * which is then renamed over it, so a reader sees the old file or the new one, never half of one.
 *
 * @module
 */

import { createHash, randomBytes } from "node:crypto";
import { lstat, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { checkWritable } from "./confined-path.js";

export interface MemoryFile {
  /** As the workspace names it: `MEMORY.md`. */
  readonly name: string;
  /** The file's path in the workspace. */
  readonly path: string;
}

/** `MEMORY.md`, or an existing lower-case `memory.md`; the first when neither exists yet. */
export async function locateMemoryFile(workspace: string): Promise<MemoryFile> {
  for (const name of ["MEMORY.md", "memory.md"]) {
    const path = join(workspace, name);
    const info = await lstat(path).catch(() => undefined);
    if (info !== undefined) return { name, path };
  }
  return { name: "MEMORY.md", path: join(workspace, "MEMORY.md") };
}

/**
 * {@link locateMemoryFile} for a promotion, which will write it.
 *
 * @throws LucidError `IO_ERROR` when it is a symbolic link (wherever it points), before anything is written.
 * @example
 * await writableMemoryFile("/home/ana/notes"); // => { name: "MEMORY.md", path: "/home/ana/notes/MEMORY.md" }
 */
export async function writableMemoryFile(workspace: string): Promise<MemoryFile> {
  const found = await locateMemoryFile(workspace);
  await checkWritable(workspace, found.path);
  return found;
}

/** The file's bytes, or null when it does not exist. */
export async function readBytes(path: string): Promise<Uint8Array | null> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Writes `bytes` to `target` atomically, keeping the file's mode when it exists. */
export async function writeAtomically(target: string, bytes: Uint8Array | string): Promise<void> {
  const mode = (await stat(target).catch(() => undefined))?.mode;
  const temporary = join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
  );
  try {
    await writeFile(temporary, bytes, mode === undefined ? {} : { mode: mode & 0o7777 });
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Puts `target` back as `before` held it: its bytes, or no file when it did not exist. */
export async function restoreFile(target: string, before: Uint8Array | null): Promise<void> {
  if (before === null) await rm(target, { force: true });
  else await writeAtomically(target, before);
}
