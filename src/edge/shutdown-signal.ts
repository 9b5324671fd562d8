/**
 * An `AbortSignal` that fires on SIGINT or SIGTERM, so a long-running server can finish its
 * background jobs and close the store instead of being cut off mid-write.
 *
 * @module
 */

/**
 * @example
 * const { signal, dispose } = shutdownSignal();
 * await serveStdio(server, { signal });
 * dispose();
 */
export function shutdownSignal(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  // The reason is the signal's name, for the message of what it interrupted. A second Ctrl-C finds
  // no handler left and ends the process the usual way.
  const onInt = () => controller.abort("SIGINT");
  const onTerm = () => controller.abort("SIGTERM");
  process.once("SIGINT", onInt);
  process.once("SIGTERM", onTerm);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
    },
  };
}
