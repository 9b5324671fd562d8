/**
 * Which workspace an edge works on (`lucid sleep`, `lucid search --workspace`, the MCP server):
 * the one given, else `sleep.workspace` in `lucid.config.json`, else OpenClaw's default
 * `~/.openclaw/workspace` when it exists. `~` is the home directory; a relative path in the config
 * is relative to the config file's folder, one given on the command line to the current directory.
 *
 * @module
 */

import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";

export const OPENCLAW_DEFAULT_WORKSPACE = join(".openclaw", "workspace");

export interface WorkspaceSources {
  /** `--workspace DIR`. */
  readonly given?: string | undefined;
  /** `sleep.workspace` and the config file it is in. */
  readonly configured?: { readonly dir: string; readonly file: string } | undefined;
  readonly cwd: string;
  readonly home?: string;
}

/** The workspace's absolute path, or undefined when none is given, configured or present. */
export function workspaceDir(sources: WorkspaceSources): string | undefined {
  const home = sources.home ?? homedir();
  const expand = (dir: string, base: string) =>
    dir === "~" ? home : dir.startsWith("~/") ? join(home, dir.slice(2)) : resolve(base, dir);
  if (sources.given !== undefined) return expand(sources.given, sources.cwd);
  if (sources.configured !== undefined)
    return expand(sources.configured.dir, dirname(sources.configured.file));
  const openclaw = join(home, OPENCLAW_DEFAULT_WORKSPACE);
  return existsSync(openclaw) ? openclaw : undefined;
}
