/**
 * Whether a process of this host has ended: what lets a lease or a temporary file it left behind
 * be reclaimed at once.
 *
 * @module
 */

/** True only when no process has this pid (ESRCH); one of another user (EPERM) still runs. */
export function processIsGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
