/**
 * The workspace's `MEMORY.md` as a file sleep writes: found where OpenClaw looks (`MEMORY.md`, else
 * an existing `memory.md`), written through its symbolic link to the real file, and written
 * atomically — the new bytes go to a temporary file beside the target, which is then renamed over
 * it, so a reader sees the old file or the new one, never half of one.
 *
 * @module
 */

import { createHash, randomBytes } from "node:crypto";
import { lstat, readFile, readlink, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, isAbsolute, join } from "node:path";

export interface MemoryFile {
  /** As the workspace names it: `MEMORY.md`. */
  readonly name: string;
  /** The file's path in the workspace. */
  readonly path: string;
  /** Where its bytes are: the end of its symbolic links, or `path` itself. */
  readonly target: string;
}

/** `MEMORY.md`, or an existing lower-case `memory.md`; the first when neither exists yet. */
export async function locateMemoryFile(workspace: string): Promise<MemoryFile> {
  for (const name of ["MEMORY.md", "memory.md"]) {
    const path = join(workspace, name);
    const info = await lstat(path).catch(() => undefined);
    if (info === undefined) continue;
    const target = info.isSymbolicLink() ? await resolveLink(path) : path;
    return { name, path, target };
  }
  return { name: "MEMORY.md", path: join(workspace, "MEMORY.md"), target: join(workspace, "MEMORY.md") };
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

/** A dangling link is written where it points, as an editor would. */
async function resolveLink(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const pointed = await readlink(path);
    return isAbsolute(pointed) ? pointed : join(dirname(path), pointed);
  }
}
