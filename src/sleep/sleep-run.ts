/**
 * What names a sleep run in the run ledger and a sleeper's lease: the kind `sleep`, and the
 * workspace's absolute path as its key (`workspace:/home/ana/notes`).
 *
 * @module
 */

import { realpath } from "node:fs/promises";

export const SLEEP_RUN_KIND = "sleep";

export function sleepKey(workspace: string): string {
  return `workspace:${workspace}`;
}

/**
 * The lease key of a workspace: its real path, so one folder reached through a link
 * (`~/.openclaw/workspace` → `~/notes`) is one sleeper, not two writing the same files.
 */
export async function sleepLeaseKey(workspace: string): Promise<string> {
  return sleepKey(await realpath(workspace).catch(() => workspace));
}
