/**
 * A value loaded on first use, shared by concurrent callers, and loaded again if loading failed.
 *
 * @module
 */

export interface LazyLoader<T> {
  /** The loaded value; the first call starts loading, later calls share the same promise. */
  get(): Promise<T>;
}

/**
 * Wraps `load` so it runs at most once at a time and its result is reused. A rejected load is
 * forgotten, so a transient failure (a file still being installed, memory pressure) is not permanent.
 */
export function createLazyLoader<T>(load: () => Promise<T>): LazyLoader<T> {
  let pending: Promise<T> | undefined;
  return {
    get() {
      if (pending === undefined) {
        // `then` turns a synchronous throw inside `load` into a rejection like any other failure.
        const attempt = Promise.resolve().then(load);
        pending = attempt;
        attempt.catch(() => {
          if (pending === attempt) pending = undefined;
        });
      }
      return pending;
    },
  };
}
