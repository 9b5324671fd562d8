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
  const abort = () => controller.abort();
  process.once("SIGINT", abort);
  process.once("SIGTERM", abort);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off("SIGINT", abort);
      process.off("SIGTERM", abort);
    },
  };
}
