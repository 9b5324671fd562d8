/**
 * The SQLite roles are written synchronously (better-sqlite3 is synchronous); the port is async.
 * `SyncPort<P>` is a port's shape with the promises taken off, and `wrapPort` puts them back around
 * each method, so a role file is the only place an operation is written.
 *
 * @module
 */

export type SyncPort<P> = {
  [K in keyof P]: P[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : never;
};

/** Every method of `sync`, run through `run` (which makes it async and translates its errors). */
export function wrapPort<P extends object>(sync: SyncPort<P>, run: <R>(fn: () => R) => Promise<R>): P {
  const port: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(sync)) {
    const call = method as (...args: unknown[]) => unknown;
    port[name] = (...args: unknown[]) => run(() => call(...args));
  }
  return port as P;
}
