/**
 * What names a sleep run in the run ledger and a sleeper's lease: the kind `sleep`, and the
 * workspace's absolute path as its key (`workspace:/home/ana/notes`).
 *
 * @module
 */

export const SLEEP_RUN_KIND = "sleep";

export function sleepKey(workspace: string): string {
  return `workspace:${workspace}`;
}
