/**
 * Instrumentation for finding where time goes: wraps a real store and adds up, per operation, the
 * time it held the connection. The SQLite store serialises calls, so when search fires three
 * queries at once each one's share is measured from the previous one's end, not from the call.
 * Operations run inside a transaction are recorded as `tx.<name>`; a repeated call within one
 * measured unit (search's second `searchDense`, for similarities) as `<name>#2`.
 *
 * @module
 */

import type { MemoryStore, MemoryStoreOps } from "../src/index.js";

const OPS: readonly (keyof MemoryStoreOps)[] = [
  "insertMemory",
  "updateMemory",
  "deleteMemory",
  "getMemory",
  "getMemories",
  "findByHash",
  "listMemories",
  "searchDense",
  "searchKeyword",
  "searchEntities",
  "speakersNamed",
  "candidateRows",
  "getEmbeddings",
  "addHistory",
  "listHistory",
  "addMessages",
  "listMessages",
];

export interface TimedStore {
  readonly store: MemoryStore;
  /** The times recorded since the last call, by operation label, and starts afresh. */
  take(): Map<string, number>;
}

export function createTimedStore(inner: MemoryStore): TimedStore {
  let times = new Map<string, number>();
  let calls = new Map<string, number>();
  let lastEnd = 0;
  const record = (name: string, ms: number) => {
    const count = (calls.get(name) ?? 0) + 1;
    calls.set(name, count);
    const label = count === 1 ? name : `${name}#${count}`;
    times.set(label, (times.get(label) ?? 0) + ms);
  };
  const serialised = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await run();
    } finally {
      const end = performance.now();
      record(name, end - Math.max(start, lastEnd));
      lastEnd = end;
    }
  };
  const plain = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await run();
    } finally {
      record(name, performance.now() - start);
    }
  };
  // Every other operation of the transaction passes through untimed.
  const wrapOps = (ops: MemoryStoreOps, prefix: string): MemoryStoreOps =>
    new Proxy(ops, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== "function") return value;
        if (!(OPS as readonly PropertyKey[]).includes(property)) return value.bind(target);
        return (...args: unknown[]) => plain(`${prefix}${String(property)}`, () => value.apply(target, args));
      },
    });

  const store = new Proxy(inner, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      if (property === "transaction") {
        return <T>(fn: (tx: MemoryStoreOps) => Promise<T>) =>
          serialised("transaction", () => target.transaction((tx) => fn(wrapOps(tx, "tx."))));
      }
      if ((OPS as readonly PropertyKey[]).includes(property)) {
        return (...args: unknown[]) => serialised(String(property), () => value.apply(target, args));
      }
      return value.bind(target);
    },
  });

  return {
    store,
    take() {
      const taken = times;
      times = new Map();
      calls = new Map();
      return taken;
    },
  };
}
