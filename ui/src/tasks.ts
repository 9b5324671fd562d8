/**
 * Calls as the views make them: `useTask` for what a person starts (a busy flag while it runs, the
 * alert cleared before and filled on failure) and `useLoad` for what a view reads when it opens or
 * its scope changes (again when a key is given).
 *
 * @module
 */

import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { ApiError } from "./api.js";
import { useApp } from "./app-context.js";

export interface Task {
  readonly busy: boolean;
  /**
   * Runs `task`; a failure goes to the alert region (unless `handle` takes it and returns true) and
   * yields undefined.
   */
  run<T>(task: () => Promise<T>, handle?: (error: ApiError) => boolean): Promise<T | undefined>;
}

export function useTask(): Task {
  const app = useApp();
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async <T>(task: () => Promise<T>, handle?: (error: ApiError) => boolean) => {
      app.clearReport();
      setBusy(true);
      try {
        return await task();
      } catch (error) {
        if (!(error instanceof ApiError && handle?.(error) === true)) app.report(error);
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [app],
  );
  return { busy, run };
}

export interface Loaded<T> {
  readonly data: T | undefined;
  readonly busy: boolean;
  /** The last load failed (the alert says why): a view shows no data rather than an empty one. */
  readonly failed: boolean;
  reload(): void;
}

/** `load` runs when a dependency changes; an answer that arrives after a newer call started is dropped. */
export function useLoad<T>(load: (() => Promise<T>) | null, deps: readonly unknown[]): Loaded<T> {
  const app = useApp();
  const [data, setData] = useState<T | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    if (load === null) {
      // A call still in flight answers for what was asked before: its answer is dropped.
      latest.current++;
      setData(undefined);
      setBusy(false);
      return;
    }
    const call = ++latest.current;
    setBusy(true);
    setFailed(false);
    load()
      .then((value) => {
        if (call === latest.current) setData(value);
      })
      .catch((error: unknown) => {
        if (call !== latest.current) return;
        setData(undefined);
        setFailed(true);
        app.report(error);
      })
      .finally(() => {
        if (call === latest.current) setBusy(false);
      });
  }, [...deps, app.epoch, tick]);
  return { data, busy, failed, reload: useCallback(() => setTick((value) => value + 1), []) };
}
