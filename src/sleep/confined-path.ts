/**
 * Keeping sleep inside its workspace. Every file sleep reads by a workspace-relative path is
 * resolved to where its bytes are (`realpath`) and refused when that lies outside the workspace's
 * own directory (its `realpath` too, so a workspace reached through a link is still itself). A
 * symbolic link that stays inside is followed, as an editor would; one that leads out is not:
 * otherwise a note linked to another project's file, or to `~/.ssh/config`, would be indexed,
 * returned by search and `memory_get`, quoted in the diary and promoted into `MEMORY.md` and the store.
 *
 * A file sleep writes must not be a link at all, wherever it points ({@link checkWritable}): the
 * atomic rename would put a file where the link was, and writing through it would edit a file the
 * workspace only borrows. Its folder must lie inside the workspace.
 *
 * The check and the use are two steps: a link swapped in between them wins. That is someone with
 * write access to the workspace racing sleep, whom a local tool cannot keep out anyway.
 *
 * @module
 */

import { lstat, readFile, realpath } from "node:fs/promises";
import { dirname, resolve, sep } from "node:path";
import { LucidError } from "../errors.js";

/** Why a note was left out, as the index report and `lucid sleep status` say it after its path. */
export const OUTSIDE_WORKSPACE = "links outside the workspace";

/** Where a workspace path's bytes are, if anywhere. */
export type WorkspacePath =
  | { readonly kind: "inside"; readonly real: string }
  | { readonly kind: "outside" }
  | { readonly kind: "missing" };

export type WorkspaceRead =
  | { readonly kind: "file"; readonly bytes: Uint8Array }
  | { readonly kind: "outside" }
  | { readonly kind: "missing" };

/**
 * The workspace's directory with its links resolved; as given when it cannot be (it does not exist).
 *
 * @example
 * await realRoot("/home/ana/notes"); // => "/data/ana/notes" when ~/notes links there
 */
export async function realRoot(workspace: string): Promise<string> {
  const root = resolve(workspace);
  return realpath(root).catch(() => root);
}

/** Whether the resolved path `real` is the resolved root `root` or lies below it. */
export function isInside(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

/**
 * Where `path` (relative to the workspace, or absolute) really is. A path that cannot be resolved
 * (missing, a dangling link, a loop) is `missing`: nothing of it can be read.
 *
 * @example
 * await resolveInWorkspace("/home/ana/notes", "memory/2026-11-04.md"); // => { kind: "outside" }
 */
export async function resolveInWorkspace(
  workspace: string,
  path: string,
  root?: string,
): Promise<WorkspacePath> {
  const real = await realpath(resolve(workspace, path)).catch(() => undefined);
  if (real === undefined) return { kind: "missing" };
  return isInside(root ?? (await realRoot(workspace)), real) ? { kind: "inside", real } : { kind: "outside" };
}

/**
 * A workspace file's bytes, read where its links lead when that is inside the workspace.
 *
 * @example
 * await readInWorkspace("/home/ana/notes", "memory/2026-11-04.md"); // => { kind: "file", bytes }
 */
export async function readInWorkspace(
  workspace: string,
  path: string,
  root?: string,
): Promise<WorkspaceRead> {
  const where = await resolveInWorkspace(workspace, path, root);
  if (where.kind !== "inside") return where;
  const bytes = await readFile(where.real).catch(() => undefined);
  return bytes === undefined ? { kind: "missing" } : { kind: "file", bytes };
}

/** {@link readInWorkspace} for a reader to whom a file outside is as good as none: its bytes, or null. */
export async function readWorkspaceBytes(
  workspace: string,
  path: string,
  root?: string,
): Promise<Uint8Array | null> {
  const read = await readInWorkspace(workspace, path, root);
  return read.kind === "file" ? read.bytes : null;
}

/**
 * Refuses a file sleep is about to write (or remove) when it is a symbolic link, or when its folder
 * — the nearest one that exists — lies outside the workspace. Before anything is written.
 *
 * @throws LucidError `IO_ERROR` naming the file and what to do, `details.reason` `symbolic-link` or
 *   `outside-workspace`.
 * @example
 * await checkWritable("/home/ana/notes", "/home/ana/notes/MEMORY.md");
 */
export async function checkWritable(workspace: string, file: string): Promise<void> {
  const path = resolve(workspace, file);
  if ((await lstat(path).catch(() => undefined))?.isSymbolicLink() === true) {
    throw new LucidError(
      "IO_ERROR",
      `Refusing to write ${path}: it is a symbolic link, and sleep never writes through one. Replace the link with the file itself (copy the file it points to over it) and run sleep again; nothing was written.`,
      { details: { path, reason: "symbolic-link" } },
    );
  }
  const root = await realRoot(workspace);
  const given = resolve(workspace);
  let folder = dirname(path);
  for (;;) {
    if ((await lstat(folder).catch(() => undefined)) !== undefined) {
      // A folder that exists but does not resolve is a dangling link: it leads nowhere inside.
      const real = await realpath(folder).catch(() => undefined);
      if (real !== undefined && isInside(root, real)) return;
      break;
    }
    // A workspace not made yet: every folder down to the file will be made, inside it.
    if (folder === given) return;
    if (dirname(folder) === folder) break;
    folder = dirname(folder);
  }
  throw new LucidError(
    "IO_ERROR",
    `Refusing to write ${path}: it lies outside the workspace ${root} (its folder ${folder} leads out of it), and sleep writes only inside the workspace. Replace a linked folder with a real one and run sleep again; nothing was written.`,
    { details: { path, workspace: root, reason: "outside-workspace" } },
  );
}
